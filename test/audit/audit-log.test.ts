import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { scheduleAuditPrune } from '../../src/audit/retention.ts';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, postSpace, type World } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`audit log [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let logUrl: string;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_AUDIT_RETENTION_DAYS: '30', QUIRE_WEBHOOK_ALLOW_PRIVATE: '1' });
      world = await createWorld(t.ctx, t.app, t.clock);
      logUrl = `/v1/orgs/${world.organizationId}/audit-log`;
    });
    after(() => t.close());

    const tokenIdOf = async (userId: string) => (await t.ctx.db.selectFrom('api_tokens').select('id').where('user_id', '=', userId).executeTakeFirstOrThrow()).id;
    const entries = async (query = '') => {
      const reply = await world.admin.api.get(`${logUrl}${query}`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.items as Array<Record<string, any>>;
    };

    it('records a write with who, what, when, where from and its outcome', async () => {
      t.clock.advance(1000);
      const created = await world.admin.api.raw('POST', `/v1/orgs/${world.organizationId}/spaces`, { title: 'Audited' }, { 'user-agent': 'docs-bot/2.0' });
      assert.equal(created.status, 201);
      const [entry] = await entries('?limit=1');
      assert.deepEqual(entry, {
        object: 'audit-log-entry',
        id: entry.id,
        createdAt: t.clock.now().toISOString(),
        actor: { userId: world.admin.id, tokenId: await tokenIdOf(world.admin.id) },
        operation: 'createSpace',
        method: 'POST',
        route: '/v1/orgs/:organizationId/spaces',
        objects: { organizationId: world.organizationId, created: created.body.id },
        outcome: 'succeeded',
        status: 201,
        source: { ip: '127.0.0.1', userAgent: 'docs-bot/2.0' },
      });
      t.clock.advance(1000);
      assert.equal((await world.admin.api.patch(`/v1/spaces/${created.body.id}`, { title: 'Audited, renamed' })).status, 200);
      const [update] = await entries('?limit=1');
      assert.deepEqual([update.operation, update.objects, update.outcome, update.status], ['updateSpaceById', { spaceId: created.body.id }, 'succeeded', null]);
    });

    it('records refused writes as refused, outside the write that was rolled back, and no read at all', async () => {
      const before = (await entries()).length;
      t.clock.advance(1000);
      assertError(await world.members.read.api.post(`/v1/orgs/${world.organizationId}/spaces`, { title: 'Nope' }), 403);
      assertError(await world.admin.api.put(`/v1/orgs/${world.organizationId}/teams`, { title: 'T', members: ['nobody'] }), 400);
      assertError(await world.outsider.api.post(`/v1/orgs/${world.organizationId}/spaces`, { title: 'Intruder' }), 404);
      await world.admin.api.get(`/v1/orgs/${world.organizationId}/spaces`);
      const latest = (await entries()).slice(0, 3);
      assert.equal((await entries()).length, before + 3);
      assert.deepEqual(
        latest.map((e) => [e.actor.userId, e.operation, e.outcome, e.status]).sort(),
        [
          [world.members.read.id, 'createSpace', 'refused', 403],
          [world.admin.id, 'createOrganizationTeam', 'refused', 400],
          [world.outsider.id, 'createSpace', 'refused', 404],
        ].sort(),
      );
      const teams = await t.ctx.db.selectFrom('teams').select('id').where('title', '=', 'T').execute();
      assert.equal(teams.length, 0, 'the refused write changed nothing');
    });

    it('commits the entry with the write: a write whose entry cannot be written is not made', async () => {
      const spaces = async () => (await t.ctx.db.selectFrom('spaces').select('id').execute()).length;
      const count = await spaces();
      await t.ctx.db.schema.alterTable('audit_log').renameTo('audit_log_away').execute();
      try {
        const reply = await world.admin.api.post(`/v1/orgs/${world.organizationId}/spaces`, { title: 'Unrecorded' });
        assert.equal(reply.status, 500);
      } finally {
        await t.ctx.db.schema.alterTable('audit_log_away').renameTo('audit_log').execute();
      }
      assert.equal(await spaces(), count, 'the space was rolled back with its entry');
    });

    it('filters by user, token, operation, outcome, object and time, and walks pages with a cursor', async () => {
      const all = await entries();
      const space = await postSpace(t.clock, world.members.create, world.organizationId, { title: 'Filtered' });
      const byUser = await entries(`?userId=${world.members.create.id}`);
      assert.deepEqual(byUser.map((e) => e.objects.created), [space.id]);
      assert.equal((await entries(`?tokenId=${await tokenIdOf(world.members.create.id)}`)).length, 1);
      assert.ok((await entries('?operation=createSpace')).every((e) => e.operation === 'createSpace'));
      assert.ok((await entries('?outcome=refused')).length >= 3);
      assert.ok((await entries('?outcome=refused')).every((e) => e.outcome === 'refused'));
      assert.deepEqual((await entries(`?objectId=${space.id}`)).map((e) => e.id), [byUser[0].id]);
      const at = t.clock.now().toISOString();
      assert.deepEqual((await entries(`?from=${encodeURIComponent(at)}`)).map((e) => e.id), [byUser[0].id]);
      assert.equal((await entries(`?to=${encodeURIComponent(at)}`)).length, all.length);
      const seen: string[] = [];
      let page: string | undefined;
      do {
        const reply = await world.admin.api.get(`${logUrl}?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
        assert.equal(reply.status, 200);
        assert.equal(reply.body.count, all.length + 1);
        seen.push(...reply.body.items.map((e: { id: string }) => e.id));
        page = reply.body.next?.page;
      } while (page);
      assert.deepEqual(seen, (await entries()).map((e) => e.id), 'every entry once, newest first');
      const first = await world.admin.api.get(`${logUrl}?limit=1`);
      assertError(await world.admin.api.get(`${logUrl}?limit=1&outcome=refused&page=${encodeURIComponent(first.body.next.page)}`), 400, 'cursor');
      assertError(await world.admin.api.get(`${logUrl}?outcome=maybe`), 400, 'outcome');
      assertError(await world.admin.api.get(`${logUrl}?from=yesterday`), 400, 'from');
    });

    it('exports the log as JSON lines, oldest first, with the same filters', async () => {
      const reply = await t.app.inject({ method: 'GET', url: `${logUrl}/export`, headers: { authorization: `Bearer ${world.admin.token}` } });
      assert.equal(reply.statusCode, 200);
      assert.match(String(reply.headers['content-type']), /^application\/x-ndjson/);
      const lines = reply.body.trimEnd().split('\n').map((line) => JSON.parse(line));
      assert.deepEqual(lines.map((e) => e.id), (await entries()).map((e) => e.id).reverse());
      const refused = await t.app.inject({ method: 'GET', url: `${logUrl}/export?outcome=refused`, headers: { authorization: `Bearer ${world.admin.token}` } });
      assert.ok(refused.body.trimEnd().split('\n').every((line) => JSON.parse(line).outcome === 'refused'));
    });

    it('lets only administrators read it: other roles and guests get 403, outsiders 404', async () => {
      for (const [name, user] of cast(world)) {
        if (name === 'admin') continue;
        const status = name === 'outsider' ? 404 : 403;
        assertError(await user.api.get(logUrl), status);
        assertError(await user.api.get(`${logUrl}/export`), status);
      }
      const theirs = await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/audit-log`);
      assert.equal(theirs.status, 200);
      assert.ok(theirs.body.items.every((e: { actor: { userId: string } }) => e.actor.userId === world.outsider.id), 'each organization sees its own writes only');
    });

    it('never holds a secret: tokens, webhook secrets, passwords and credentials in URLs stay out', async () => {
      const hook = await world.admin.api.post(`/v1/orgs/${world.organizationId}/webhooks`, { url: 'http://127.0.0.1:9/hook', events: ['space.created'] });
      assert.equal(hook.status, 201);
      await world.admin.api.post(`/v1/orgs/${world.organizationId}/webhooks`, { url: 'http://quire:hunter2-password@127.0.0.1:9/hook', events: ['space.created'] });
      await world.admin.api.post(`/v1/orgs/${world.organizationId}/spaces?password=hunter2-password&token=${world.admin.token}`, { title: 'S', password: 'hunter2-password' });
      await world.admin.api.raw('PATCH', `/v1/orgs/${world.organizationId}/webhooks/${hook.body.id}`, { url: 'http://127.0.0.1:9/other' }, { 'x-api-key': 'hunter2-password' });
      const rotated = await world.admin.api.post(`/v1/orgs/${world.organizationId}/webhooks/${hook.body.id}/secret`);
      assert.equal(rotated.status, 200);
      const rows = JSON.stringify(await t.ctx.db.selectFrom('audit_log').selectAll().execute());
      for (const secret of [world.admin.token, world.members.create.token, hook.body.secret, rotated.body.secret, 'hunter2']) {
        assert.equal(rows.includes(secret), false, `"${secret.slice(0, 8)}…" is not in the audit log`);
      }
      assert.ok(rows.includes(hook.body.id), 'the webhook is named by its id');
    });

    it('keeps entries for the configured days: older ones are not shown, and the daily job removes them', async () => {
      const total = async () => (await t.ctx.db.selectFrom('audit_log').select('id').execute()).length;
      const stored = await total();
      assert.ok(stored > 0);
      t.clock.advance(31 * 24 * 3600 * 1000);
      await postSpace(t.clock, world.admin, world.organizationId, { title: 'Recent' });
      const shown = await entries();
      assert.equal(shown.length, 1, 'only the recent entry is shown');
      await scheduleAuditPrune(t.app.services);
      await runDueJobs(t.app.services, { workerId: 'test', limit: 50 });
      assert.equal(await total(), 1, 'the old entries are removed');
      const job = await t.ctx.db.selectFrom('jobs').selectAll().where('kind', '=', 'audit-log-prune').executeTakeFirstOrThrow();
      assert.equal(job.status, 'pending', 'the job stays scheduled');
      assert.equal(job.run_at, new Date(t.clock.now().getTime() + 24 * 3600 * 1000).toISOString());
    });
  });
}
