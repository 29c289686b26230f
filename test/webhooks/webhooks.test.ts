import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runDueJobs } from '../../src/jobs/queue.ts';
import { DELIVERY_ATTEMPTS, deliveryBackoffMs } from '../../src/modules/webhooks/delivery-job.ts';
import { SIGNATURE_HEADER, signatureHeader, verifySignature } from '../../src/modules/webhooks/signature.ts';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, postSpace, type World } from '../helpers/factories.ts';
import { Receiver } from './receiver.ts';

for (const dialect of dialects) {
  describe(`webhooks [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let receiver: Receiver;
    let orgUrl: string;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_WEBHOOK_ALLOW_PRIVATE: '1', QUIRE_WEBHOOK_TIMEOUT_MS: '1000' });
      world = await createWorld(t.ctx, t.app, t.clock);
      receiver = await Receiver.start();
      orgUrl = `/v1/orgs/${world.organizationId}`;
    });
    after(async () => {
      await receiver.close();
      await t.close();
    });

    const register = async (events: string[], url = receiver.url) => {
      const reply = await world.admin.api.post(`${orgUrl}/webhooks`, { url, events, description: 'CI' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return reply.body as { id: string; secret: string };
    };
    const runJobs = () => runDueJobs(t.app.services, { workerId: 'test', limit: 50 });
    const deliveries = async (webhookId: string) => {
      const reply = await world.admin.api.get(`${orgUrl}/webhooks/${webhookId}/deliveries`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.items as Array<Record<string, any>>;
    };
    const remove = async (id: string) => assert.equal((await world.admin.api.delete(`${orgUrl}/webhooks/${id}`)).status, 205);

    it('lets an admin register, read, change and delete a webhook; the secret is shown once and stored sealed', async () => {
      const created = await world.admin.api.post(`${orgUrl}/webhooks`, { url: receiver.url, events: ['space.created', 'comment.posted'] });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.match(created.body.secret, /^whsec_[A-Za-z0-9_-]{43}$/);
      assert.equal(created.body.object, 'webhook');
      assert.deepEqual(created.body.events, ['space.created', 'comment.posted']);
      assert.equal(created.body.active, true);
      const id = created.body.id;
      const stored = await t.ctx.db.selectFrom('webhooks').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.ok(!stored.secret.includes(created.body.secret), 'the secret is stored sealed');
      assert.equal(t.ctx.secrets.decrypt(stored.secret).toString('utf8'), created.body.secret);
      const read = await world.admin.api.get(`${orgUrl}/webhooks/${id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.secret, undefined, 'never shown again');
      const listed = await world.admin.api.get(`${orgUrl}/webhooks`);
      assert.deepEqual(listed.body.items.map((w: { id: string }) => w.id), [id]);
      assert.equal(JSON.stringify(listed.body).includes(created.body.secret), false);
      const changed = await world.admin.api.patch(`${orgUrl}/webhooks/${id}`, { events: ['site.published'], active: false, description: null });
      assert.equal(changed.status, 200, JSON.stringify(changed.body));
      assert.deepEqual([changed.body.events, changed.body.active, changed.body.description], [['site.published'], false, null]);
      const rotated = await world.admin.api.post(`${orgUrl}/webhooks/${id}/secret`);
      assert.equal(rotated.status, 200, JSON.stringify(rotated.body));
      assert.match(rotated.body.secret, /^whsec_/);
      assert.notEqual(rotated.body.secret, created.body.secret);
      const resealed = await t.ctx.db.selectFrom('webhooks').select('secret').where('id', '=', id).executeTakeFirstOrThrow();
      assert.equal(t.ctx.secrets.decrypt(resealed.secret).toString('utf8'), rotated.body.secret);
      assert.equal((await world.admin.api.delete(`${orgUrl}/webhooks/${id}`)).status, 205);
      assert.equal((await world.admin.api.delete(`${orgUrl}/webhooks/${id}`)).status, 204);
      assertError(await world.admin.api.get(`${orgUrl}/webhooks/${id}`), 404, 'No webhook');
    });

    it('refuses bad input with a message that names it', async () => {
      const post = (body: unknown) => world.admin.api.post(`${orgUrl}/webhooks`, body);
      assertError(await post({ url: receiver.url }), 400, '"events"');
      assertError(await post({ url: receiver.url, events: [] }), 400, '"events"');
      assertError(await post({ url: receiver.url, events: ['space.exploded'] }), 400, 'events');
      assertError(await post({ url: 'not a url', events: ['space.created'] }), 400, '"url"');
      assertError(await post({ url: 'ftp://example.com/x', events: ['space.created'] }), 400, 'http or https');
      assertError(await post({ url: 'http://user:pw@127.0.0.1/x', events: ['space.created'] }), 400, 'user name or password');
      assertError(await world.admin.api.patch(`${orgUrl}/webhooks/nope`, { active: true }), 404);
      assert.equal((await world.admin.api.get(`${orgUrl}/webhooks`)).body.count, 0);
    });

    it('lets only administrators manage webhooks: other roles and guests get 403, outsiders 404', async () => {
      const hook = await register(['space.created']);
      for (const [name, user] of cast(world)) {
        if (name === 'admin') continue;
        const status = name === 'outsider' ? 404 : 403;
        assertError(await user.api.get(`${orgUrl}/webhooks`), status);
        assertError(await user.api.post(`${orgUrl}/webhooks`, { url: receiver.url, events: ['space.created'] }), status);
        assertError(await user.api.get(`${orgUrl}/webhooks/${hook.id}`), status);
        assertError(await user.api.patch(`${orgUrl}/webhooks/${hook.id}`, { active: false }), status);
        assertError(await user.api.delete(`${orgUrl}/webhooks/${hook.id}`), status);
        assertError(await user.api.post(`${orgUrl}/webhooks/${hook.id}/secret`), status);
        assertError(await user.api.get(`${orgUrl}/webhooks/${hook.id}/deliveries`), status);
      }
      assertError(await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/webhooks/${hook.id}`), 404, 'No webhook');
      await remove(hook.id);
    });

    it('delivers a signed event to a real receiver; the receiver checks the signature and refuses replays', async () => {
      receiver.received.length = 0;
      receiver.behaviour = () => 200;
      const hook = await register(['space.created']);
      const other = await register(['site.published']);
      const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Handbook' });
      const [pending] = await deliveries(hook.id);
      assert.equal(pending.status, 'pending', 'the delivery is written with the space');
      assert.equal((await deliveries(other.id)).length, 0, 'a webhook gets only the events it asked for');
      await runJobs();
      assert.equal(receiver.received.length, 1);
      const [got] = receiver.received;
      assert.equal(got.method, 'POST');
      assert.equal(got.headers['content-type'], 'application/json');
      assert.equal(got.headers['x-quire-event'], 'space.created');
      assert.equal(got.headers['x-quire-delivery'], pending.id);
      assert.equal(got.headers['user-agent'], 'QuireWebhooks/1.0');
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const header = String(got.headers[SIGNATURE_HEADER]);
      assert.match(header, /^t=\d+,v1=[0-9a-f]{64}$/);
      assert.equal(verifySignature(hook.secret, header, got.body, now), true);
      assert.equal(verifySignature(other.secret, header, got.body, now), false, 'another secret does not verify');
      assert.equal(verifySignature(hook.secret, header, got.body.replace('Handbook', 'Handbooc'), now), false, 'a changed body does not verify');
      assert.equal(verifySignature(hook.secret, header, got.body, now + 3600), false, 'an old delivery replayed an hour later is refused');
      const body = JSON.parse(got.body);
      assert.deepEqual(Object.keys(body).sort(), ['createdAt', 'data', 'event', 'id', 'organizationId']);
      assert.equal(body.event, 'space.created');
      assert.equal(body.organizationId, world.organizationId);
      assert.deepEqual(body.data, { actorId: world.admin.id, spaceId: space.id, title: 'Handbook' });
      assert.equal(got.body.includes(world.admin.email), false, 'no e-mail in a payload');
      const [done] = await deliveries(hook.id);
      assert.deepEqual([done.status, done.attempts, done.responseStatus, done.lastError, done.nextAttemptAt], ['succeeded', 1, 200, null, null]);
      assert.deepEqual(done.payload, body);
      await runJobs();
      assert.equal(receiver.received.length, 1, 'a delivered event is not sent again');
      await remove(hook.id);
      await remove(other.id);
    });

    it('tells only the webhooks of the organization where the event happened, and none that is turned off', async () => {
      receiver.received.length = 0;
      const hook = await register(['space.created', 'space.updated', 'space.deleted']);
      const elsewhere = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/webhooks`, { url: receiver.url, events: ['space.created'] });
      assert.equal(elsewhere.status, 201);
      const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Ours' });
      t.clock.advance(1000);
      assert.equal((await world.admin.api.patch(`/v1/spaces/${space.id}`, { title: 'Ours, renamed' })).status, 200);
      t.clock.advance(1000);
      assert.equal((await world.admin.api.delete(`/v1/spaces/${space.id}`)).status, 205);
      await runJobs();
      await world.admin.api.patch(`${orgUrl}/webhooks/${hook.id}`, { active: false });
      await postSpace(t.clock, world.admin, world.organizationId, { title: 'Unheard' });
      await runJobs();
      assert.deepEqual(receiver.received.map((r) => [r.headers['x-quire-event'], JSON.parse(r.body).data.title]), [
        ['space.created', 'Ours'],
        ['space.updated', 'Ours, renamed'],
        ['space.deleted', 'Ours, renamed'],
      ]);
      const theirs = await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/webhooks/${elsewhere.body.id}/deliveries`);
      assert.equal(theirs.body.count, 0);
      await remove(hook.id);
    });

    it('retries after 500s with a growing wait, and records every attempt in the delivery log', async () => {
      receiver.received.length = 0;
      receiver.behaviour = (index) => (index < 2 ? 500 : 200);
      const hook = await register(['space.created']);
      await postSpace(t.clock, world.admin, world.organizationId);
      await runJobs();
      let [delivery] = await deliveries(hook.id);
      assert.deepEqual([delivery.status, delivery.attempts, delivery.responseStatus], ['pending', 1, 500]);
      assert.match(delivery.lastError, /answered 500/);
      assert.equal(delivery.nextAttemptAt, new Date(t.clock.now().getTime() + deliveryBackoffMs(1)).toISOString());
      await runJobs();
      assert.equal(receiver.received.length, 1, 'not sent again before its time');
      t.clock.advance(deliveryBackoffMs(1));
      await runJobs();
      [delivery] = await deliveries(hook.id);
      assert.deepEqual([delivery.status, delivery.attempts, delivery.responseStatus], ['pending', 2, 500]);
      t.clock.advance(deliveryBackoffMs(2));
      await runJobs();
      [delivery] = await deliveries(hook.id);
      assert.deepEqual([delivery.status, delivery.attempts, delivery.responseStatus, delivery.lastError], ['succeeded', 3, 200, null]);
      assert.equal(receiver.received.length, 3);
      assert.equal(new Set(receiver.received.map((r) => r.body)).size, 1, 'every attempt sends the same body');
      assert.ok(deliveryBackoffMs(2) > deliveryBackoffMs(1));
      await remove(hook.id);
    });

    it('stops an attempt at a receiver that never answers, and gives up after a day of retries', async () => {
      receiver.received.length = 0;
      receiver.behaviour = () => 'hang';
      const hook = await register(['space.created']);
      await postSpace(t.clock, world.admin, world.organizationId);
      const first = t.clock.now().getTime();
      let last = first;
      for (let attempt = 1; attempt <= DELIVERY_ATTEMPTS; attempt++) {
        const report = await runJobs();
        assert.equal(report.claimed, 1, `attempt ${attempt} runs`);
        last = t.clock.now().getTime();
        const [delivery] = await deliveries(hook.id);
        assert.equal(delivery.attempts, attempt);
        assert.equal(delivery.responseStatus, null);
        assert.match(delivery.lastError, /took too long/);
        assert.equal(delivery.status, attempt === DELIVERY_ATTEMPTS ? 'failed' : 'pending');
        t.clock.advance(deliveryBackoffMs(attempt));
      }
      assert.equal(receiver.received.length, DELIVERY_ATTEMPTS);
      const hours = (last - first) / 3_600_000;
      assert.ok(hours >= 24 && hours < 26, `retried for ${hours} hours`);
      assert.equal((await runJobs()).claimed, 0, 'nothing more is tried');
      await remove(hook.id);
    });

    it('treats a slow answer as a failure and succeeds on the retry', async () => {
      receiver.received.length = 0;
      receiver.behaviour = (index) => (index === 0 ? 'hang' : 204);
      const hook = await register(['space.created']);
      await postSpace(t.clock, world.admin, world.organizationId);
      await runJobs();
      t.clock.advance(deliveryBackoffMs(1));
      await runJobs();
      const [delivery] = await deliveries(hook.id);
      assert.deepEqual([delivery.status, delivery.attempts, delivery.responseStatus], ['succeeded', 2, 204]);
      await remove(hook.id);
    });

    it('is told of change requests opened and merged, comments posted and sites published', async () => {
      receiver.received.length = 0;
      receiver.behaviour = () => 200;
      const hook = await register(['change_request.opened', 'change_request.merged', 'comment.posted', 'site.published']);
      const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Guide' });
      t.clock.advance(1000);
      const cr = await world.admin.api.post(`/v1/spaces/${space.id}/change-requests`, { subject: 'Edits' });
      assert.equal(cr.status, 201, JSON.stringify(cr.body));
      t.clock.advance(1000);
      const comment = await world.admin.api.post(`/v1/spaces/${space.id}/comments`, { body: { markdown: 'Looks good' } });
      assert.equal(comment.status, 200, JSON.stringify(comment.body));
      t.clock.advance(1000);
      const merged = await world.admin.api.post(`/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      t.clock.advance(1000);
      const site = await world.admin.api.post(`${orgUrl}/sites`, {});
      assert.equal(site.status, 201, JSON.stringify(site.body));
      assert.equal((await world.admin.api.post(`${orgUrl}/sites/${site.body.id}/publish`)).status, 200);
      assert.equal((await world.admin.api.post(`${orgUrl}/sites/${site.body.id}/publish`)).status, 200, 'publishing again is no event');
      await runJobs();
      const told = receiver.received.map((r) => JSON.parse(r.body)).sort((a, b) => (a.createdAt < b.createdAt ? -1 : 1));
      assert.deepEqual(
        told.map((e) => [e.event, e.data]),
        [
          ['change_request.opened', { actorId: world.admin.id, spaceId: space.id, changeRequestId: cr.body.id, number: cr.body.number }],
          ['comment.posted', { actorId: world.admin.id, spaceId: space.id, changeRequestId: null, commentId: comment.body.id }],
          ['change_request.merged', { actorId: world.admin.id, spaceId: space.id, changeRequestId: cr.body.id, number: cr.body.number, revisionId: merged.body.revision }],
          ['site.published', { actorId: world.admin.id, siteId: site.body.id }],
        ],
      );
      await remove(hook.id);
    });

    it('verifies a signature made by the documented recipe', () => {
      const body = '{"event":"space.created"}';
      const header = signatureHeader('whsec_test', 1_700_000_000, body);
      assert.equal(verifySignature('whsec_test', header, body, 1_700_000_100), true);
      assert.equal(verifySignature('whsec_test', header, body, 1_700_000_000 + 301), false);
      assert.equal(verifySignature('whsec_test', 'v1=abc', body, 1_700_000_000), false);
      assert.equal(verifySignature('whsec_test', undefined, body, 1_700_000_000), false);
    });
  });

  describe(`webhooks to private addresses [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    it('refuses loopback, private and link-local receivers unless the operator allows them', async () => {
      for (const url of ['http://127.0.0.1:9/hook', 'http://10.1.2.3/hook', 'http://169.254.169.254/latest', 'http://[::1]/hook', 'http://192.168.0.10/hook']) {
        assertError(await world.admin.api.post(`/v1/orgs/${world.organizationId}/webhooks`, { url, events: ['space.created'] }), 400, 'QUIRE_WEBHOOK_ALLOW_PRIVATE=1');
      }
      assert.equal((await world.admin.api.get(`/v1/orgs/${world.organizationId}/webhooks`)).body.count, 0);
    });

    it('refuses at delivery time too, when a stored receiver is no longer allowed', async () => {
      const now = t.clock.now().toISOString();
      await t.ctx.db
        .insertInto('webhooks')
        .values({ id: 'stored', organization_id: world.organizationId, url: 'http://127.0.0.1:9/hook', description: null, events: '["space.created"]', active: 1, secret: t.ctx.secrets.encrypt('whsec_x'), created_by: null, created_at: now, updated_at: now })
        .execute();
      await postSpace(t.clock, world.admin, world.organizationId);
      await runDueJobs(t.app.services, { workerId: 'test', limit: 50 });
      const [delivery] = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/webhooks/stored/deliveries`)).body.items;
      assert.equal(delivery.status, 'pending');
      assert.match(delivery.lastError, /loopback/);
    });
  });
}
