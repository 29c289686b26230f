import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { getObject } from '../../src/content/objects.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree, walkPages } from '../../src/content/tree.ts';
import { assertError, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, currentRevision } from '../helpers/content-factory.ts';
import { inTransaction } from '../../src/context.ts';
import { setSpaceHead } from '../../src/content/head.ts';
import { RevisionWriter } from '../../src/content/writer.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { createGitTestApp, lastOperation, runJobs } from './helpers.ts';
import { runDueJobs } from '../../src/jobs/index.ts';
import { Receiver } from '../webhooks/receiver.ts';
import { PASSWORD, startGitServer, gitSync, type GitServer } from './server.ts';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { needs } from '../helpers/system.ts';

/**
 * Automatic Git Sync: PUT/GET/DELETE git/sync with the space's triggerGitSync; webhooks from
 * GitHub and GitLab (good and bad signatures), Quire's own pushes ignored; an export by itself after a
 * change request's merge (GITBOOK-n); a push and an edit at once merged; polling; a failing remote retried
 * with backoff until it recovers; credentials and secrets never shown.
 */
const REPO = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
  'install.md': '# Install\n\nRun the installer.\n',
};
const REF = 'refs/heads/main';

for (const dialect of dialects) {
  describe(`Automatic Git Sync [${dialect}]`, { skip: needs('git') }, () => {
    let t: TestApp;
    let world: World;
    let remote: GitServer;
    let receiver: Receiver;
    let counter = 0;
    const admin = () => world.admin.api;

    /** A fresh repository and a space imported from it, with an automatic sync set (its answer returned). */
    async function synced(direction: 'push' | 'pull' | 'both', extra: Record<string, unknown> = {}) {
      const name = `auto${++counter}`;
      remote.createRepo(name, REPO);
      const spaceId = await createSpace(t.ctx, world.organizationId);
      t.clock.advance(1000);
      assert.equal((await admin().post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url(name), ref: REF })).status, 204);
      await runJobs(t.ctx);
      assert.equal((await lastOperation(t.ctx, spaceId)).state, 'success');
      const put = await admin().put(`/v1/spaces/${spaceId}/git/sync`, { url: remote.url(name), ref: REF, direction, ...extra });
      assert.equal(put.status, 200, JSON.stringify(put.body));
      return { name, spaceId, sync: put.body as { id: string; webhook: { url: string; secret: string } } };
    }

    const pages = async (spaceId: string) => {
      const revision = (await findRevision(t.ctx, await currentRevision(t.ctx, spaceId)))!;
      return [...walkPages((await loadTree(t.ctx, revision.root)).pages)];
    };
    const bodyOf = async (spaceId: string, path: string) => {
      const page = (await pages(spaceId)).find((p) => p.node.git?.path === path)!;
      return getObject(t.ctx, page.node.body!);
    };

    function github(syncId: string, secret: string | null, payload: unknown, event = 'push') {
      const raw = JSON.stringify(payload);
      const headers: Record<string, string> = { 'content-type': 'application/json', 'x-github-event': event };
      if (secret !== null) headers['x-hub-signature-256'] = `sha256=${createHmac('sha256', secret).update(raw).digest('hex')}`;
      return t.app.inject({ method: 'POST', url: `/v1/git/webhooks/${syncId}`, headers, payload: raw });
    }
    function gitlab(syncId: string, token: string, payload: unknown) {
      return t.app.inject({ method: 'POST', url: `/v1/git/webhooks/${syncId}`, headers: { 'content-type': 'application/json', 'x-gitlab-event': 'Push Hook', 'x-gitlab-token': token }, payload: JSON.stringify(payload) });
    }
    const reply = (response: { statusCode: number; body: string }) => ({ status: response.statusCode, body: JSON.parse(response.body), headers: {} });

    function pushFile(name: string, path: string, text: string, message: string): string {
      const work = remote.clone(name);
      writeFileSync(join(work, path), text);
      return remote.push(work, message);
    }

    /** An edit of the space as the app makes one: a new revision made current through the head (its event told). */
    async function edit(spaceId: string, pageId: string, markdown: string): Promise<void> {
      const parent = await currentRevision(t.ctx, spaceId);
      const writer = await RevisionWriter.fromRevision(t.ctx, parent);
      writer.updatePage(pageId, { markdown });
      await inTransaction(t.ctx, async (tx) => {
        const { revisionId } = await writer.commit(tx, { spaceId, type: 'edits', parents: [parent] });
        assert.ok(await setSpaceHead(tx, spaceId, revisionId, { expected: parent }));
      });
    }

    /** Runs the jobs until no Git operation waits (one that waited for another is due a second later). */
    async function settle(): Promise<void> {
      for (let round = 0; round < 10; round++) {
        await runJobs(t.ctx);
        const waiting = await t.ctx.db.selectFrom('git_operations').select('id').where('state', 'in', ['pending', 'running']).execute();
        if (waiting.length === 0) return;
        t.clock.advance(1000);
      }
    }

    before(async () => {
      t = await createGitTestApp(dialect, { QUIRE_WEBHOOK_ALLOW_PRIVATE: '1', QUIRE_WEBHOOK_TIMEOUT_MS: '1000' });
      world = await createWorld(t.ctx, t.app, t.clock);
      remote = await startGitServer();
      receiver = await Receiver.start();
    });
    after(async () => {
      await t.close();
      await remote.close();
      await receiver.close();
    });

    it('sets, shows and stops a sync with the space\'s triggerGitSync: the webhook secret once, credentials never', async () => {
      remote.createRepo('roles', REPO);
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const body = { url: remote.url('roles'), ref: REF, direction: 'both' };
      const expected: Record<string, number> = { admin: 200, create: 200, review: 200, edit: 200, comment: 403, read: 403, guest: 404, outsider: 404 };
      for (const [role, user] of cast(world)) {
        const put = await user.api.put(`/v1/spaces/${spaceId}/git/sync`, body);
        const get = await user.api.get(`/v1/spaces/${spaceId}/git/sync`);
        if (expected[role] === 200) {
          assert.equal(put.status, 200, `${role}: ${JSON.stringify(put.body)}`);
          assert.equal(get.status, 200, role);
        } else {
          assertError(put, expected[role]);
          assertError(get, expected[role]);
          assertError(await user.api.delete(`/v1/spaces/${spaceId}/git/sync`), expected[role]);
        }
      }
      t.clock.advance(1000);
      const put = await admin().put(`/v1/spaces/${spaceId}/git/sync`, { ...body, rotateWebhookSecret: true, pollIntervalSeconds: 300, commitMessageTemplate: 'docs: {subject} (#{number})' });
      assert.equal(put.status, 200);
      assert.match(put.body.webhook.url, new RegExp(`/v1/git/webhooks/${put.body.id}$`));
      assert.ok(put.body.webhook.secret.length >= 32, 'a new secret is answered');
      assert.deepEqual([put.body.url, put.body.hasCredentials, put.body.ref, put.body.direction, put.body.pollIntervalSeconds, put.body.commitMessageTemplate, put.body.failures], [remote.url('roles', null), true, REF, 'both', 300, 'docs: {subject} (#{number})', 0]);
      const get = await world.members.edit.api.get(`/v1/spaces/${spaceId}/git/sync`);
      assert.equal(get.body.webhook.secret, undefined, 'the secret is shown once');
      assert.equal(get.body.id, put.body.id);
      const polls = async () => (await t.ctx.db.selectFrom('jobs').select('id').where('kind', '=', 'git-poll').where('status', '=', 'pending').where('singleton_key', '=', `git-poll:${put.body.id}`).execute()).length;
      assert.equal(await polls(), 1, 'polling scheduled');
      const again = await admin().put(`/v1/spaces/${spaceId}/git/sync`, { ...body, url: remote.url('roles', null) });
      assert.equal(again.body.webhook.secret, undefined, 'an update keeps the secret');
      assert.equal(again.body.hasCredentials, true, 'the same remote without credentials keeps them');
      assert.equal(await polls(), 0, 'polling stopped');
      for (const text of [JSON.stringify(put.body), JSON.stringify(get.body), JSON.stringify(again.body)]) assert.ok(!text.includes(PASSWORD), 'no credentials shown');
      const row = await t.ctx.db.selectFrom('git_auto_syncs').selectAll().where('space_id', '=', spaceId).executeTakeFirstOrThrow();
      assert.ok(!JSON.stringify(row).includes(PASSWORD) && !JSON.stringify(row).includes(put.body.webhook.secret), 'credentials and secret stored sealed');

      assertError(await admin().put(`/v1/spaces/${spaceId}/git/sync`, { ...body, url: 'file:///etc' }), 400);
      assertError(await admin().put(`/v1/spaces/${spaceId}/git/sync`, { ...body, direction: 'sideways' }), 400);
      assert.equal((await admin().delete(`/v1/spaces/${spaceId}/git/sync`)).status, 205);
      assertError(await admin().get(`/v1/spaces/${spaceId}/git/sync`), 404);
      assert.equal((await admin().delete(`/v1/spaces/${spaceId}/git/sync`)).status, 204);
      assertError(reply(await github(put.body.id, put.body.webhook.secret, { ref: REF, after: 'a'.repeat(40) })), 404);
    });

    it('imports a push announced by GitHub or GitLab with the right secret; refuses a missing or wrong one with 401 / 403', async () => {
      const { name, spaceId, sync } = await synced('both');
      t.clock.advance(1000);
      const push = pushFile(name, 'install.md', '# Install\n\nRun the installer, then restart.\n', 'Restart after installing');
      const event = { ref: REF, after: push, head_commit: { id: push, committer: { name: 'Dana Dev', email: 'dana@example.com' } } };
      assertError(reply(await github(sync.id, null, event)), 401, 'signed');
      assertError(reply(await github(sync.id, 'not-the-secret', event)), 403, 'does not match');
      const tampered = JSON.stringify({ ...event, ref: 'refs/heads/other' });
      const signature = `sha256=${createHmac('sha256', sync.webhook.secret).update(JSON.stringify(event)).digest('hex')}`;
      const forged = await t.app.inject({ method: 'POST', url: `/v1/git/webhooks/${sync.id}`, headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': signature }, payload: tampered });
      assertError(reply(forged), 403);
      assertError(reply(await gitlab(sync.id, 'wrong', event)), 403);
      assert.equal((await t.ctx.db.selectFrom('git_operations').select('id').where('space_id', '=', spaceId).execute()).length, 1, 'nothing scheduled by a refused event');

      assert.deepEqual(reply(await github(sync.id, sync.webhook.secret, {}, 'ping')).body, { result: 'pong' });
      // GitHub's form encoding: the signature covers the form body; the JSON is its `payload` field.
      const form = `payload=${encodeURIComponent(JSON.stringify({ ...event, ref: 'refs/heads/feature' }))}`;
      const formReply = await t.app.inject({ method: 'POST', url: `/v1/git/webhooks/${sync.id}`, headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${createHmac('sha256', sync.webhook.secret).update(form).digest('hex')}` }, payload: form });
      assert.deepEqual([formReply.statusCode, JSON.parse(formReply.body).reason], [200, 'A push to refs/heads/feature, not to the synced refs/heads/main.']);
      const other = reply(await github(sync.id, sync.webhook.secret, { ...event, ref: 'refs/heads/feature' }));
      assert.deepEqual([other.status, other.body.result], [200, 'ignored']);
      const good = reply(await github(sync.id, sync.webhook.secret, event));
      assert.deepEqual([good.status, good.body], [202, { result: 'queued' }]);
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.deepEqual([operation.direction, operation.state, operation.commit], ['import', 'success', push]);
      assert.match(await bodyOf(spaceId, 'install.md'), /^Run the installer, then restart\.\n$/);

      t.clock.advance(1000);
      const second = pushFile(name, 'README.md', '# Welcome\n\nStart here, from GitLab.\n', 'From GitLab');
      const lab = reply(await gitlab(sync.id, sync.webhook.secret, { object_kind: 'push', ref: REF, after: second, checkout_sha: second }));
      assert.deepEqual([lab.status, lab.body.result], [202, 'queued']);
      await runJobs(t.ctx);
      assert.equal((await lastOperation(t.ctx, spaceId)).commit, second);
      assert.match(await bodyOf(spaceId, 'README.md'), /^Start here, from GitLab\.\n$/);
    });

    it('exports a change request\'s merge by itself as "GITBOOK-n: subject", authored by who merged, and ignores that push coming back', async () => {
      const { name, spaceId, sync } = await synced('both');
      const before = remote.head(name);
      const cr = await admin().post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Clarify the installer' });
      assert.equal(cr.status, 201, JSON.stringify(cr.body));
      const page = (await pages(spaceId)).find((p) => p.node.git?.path === 'install.md')!;
      const edited = await admin().post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/page/${page.node.id}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from('# Install\n\nRun the installer as root.\n').toString('base64')}` });
      assert.equal(edited.status, 201, JSON.stringify(edited.body));
      assert.equal(remote.head(name), before, 'a change request is not exported');
      t.clock.advance(1000);
      const merged = await admin().post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.deepEqual([operation.direction, operation.state], ['export', 'success'], operation.error ?? '');
      const head = remote.head(name);
      assert.notEqual(head, before);
      assert.equal(remote.log(name)[0].replace(/^\S+ [^<]*</, '<'), `<${world.admin.email}> | Quire | GITBOOK-${cr.body.number}: Clarify the installer`);
      assert.match(remote.files(name).get('install.md')!.toString('utf8'), /as root/);
      assert.equal(remote.diff(name, before, head, '--name-only').trim(), 'install.md');

      // The push Quire made comes back as an event: ignored, by its commit and by its committer.
      const count = async () => (await t.ctx.db.selectFrom('git_operations').select('id').where('space_id', '=', spaceId).execute()).length;
      const operations = await count();
      const own = reply(await github(sync.id, sync.webhook.secret, { ref: REF, after: head }));
      assert.deepEqual([own.status, own.body.result], [200, 'ignored']);
      const byCommitter = reply(await github(sync.id, sync.webhook.secret, { ref: REF, after: 'b'.repeat(40), head_commit: { committer: { name: 'Quire', email: 'quire@localhost' } } }));
      assert.equal(byCommitter.body.result, 'ignored');
      await runJobs(t.ctx);
      assert.equal(await count(), operations, 'no operation for Quire\'s own push');
      assert.equal(remote.log(name).length, 2, 'no echo commit');
    });

    for (const order of ['edit first', 'push announced first'] as const) {
      it(`merges a push and an edit made at the same time (${order}; the existing three-way merge): both reach both sides`, async () => {
        const { name, spaceId, sync } = await synced('both');
        t.clock.advance(1000);
        const push = pushFile(name, 'README.md', '# Welcome\n\nStart here, edited in Git.\n', 'Edit in Git');
        const page = (await pages(spaceId)).find((p) => p.node.git?.path === 'install.md')!;
        const announce = async () => assert.equal(reply(await github(sync.id, sync.webhook.secret, { ref: REF, after: push })).status, 202);
        if (order === 'push announced first') {
          // The push's import is recorded (its git-sync job, the only job due, runs), then the space is edited
          // before that import runs.
          await announce();
          assert.equal((await runDueJobs(t.ctx, { workerId: 'git-test', limit: 1 })).claimed, 1);
          t.clock.advance(1000);
          await edit(spaceId, page.node.id, '# Install\n\nRun the installer, edited in Quire.\n');
        } else {
          // The edit is exported while the branch has moved; the push's event comes afterwards.
          await edit(spaceId, page.node.id, '# Install\n\nRun the installer, edited in Quire.\n');
          await settle();
          t.clock.advance(1000);
          await announce();
        }
        await settle();
        const states = (await t.ctx.db.selectFrom('git_operations').select(['direction', 'state', 'error']).where('space_id', '=', spaceId).orderBy('created_at').execute()).map((row) => `${row.direction}:${row.state}${row.error ? ` ${row.error}` : ''}`);
        assert.ok(states.every((state) => state.endsWith(':success')), states.join(', '));
        if (order === 'edit first') {
          // The edit's export came first: it merged the pushed tip into the space and exported on top of it;
          // the push's import then found the branch in step (the commit of the last sync) and imported nothing.
          assert.deepEqual(states.slice(1), ['export:success', 'import:success']);
        } else {
          // The push's import found edits not yet exported: it ran as the export (merge, then push), and is
          // listed as one; the edit's export then had nothing left to do.
          assert.deepEqual(states.slice(1), ['export:success', 'export:success']);
        }
        const files = remote.files(name);
        assert.equal(files.get('README.md')!.toString('utf8'), '# Welcome\n\nStart here, edited in Git.\n');
        assert.match(files.get('install.md')!.toString('utf8'), /edited in Quire/);
        assert.match(await bodyOf(spaceId, 'README.md'), /^Start here, edited in Git\.\n$/);
        assert.match(await bodyOf(spaceId, 'install.md'), /edited in Quire/);
        assert.equal(remote.log(name).length, 3, 'the Git commit, then one export on top of it');
      });
    }

    it('retries a failed automatic export with exponential backoff, reports it, and succeeds once the remote is back', async () => {
      const { name, spaceId } = await synced('push');
      const hook = await admin().post(`/v1/orgs/${world.organizationId}/webhooks`, { url: receiver.url, events: ['git_sync.completed'] });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const before = remote.head(name);
      remote.down = true;
      try {
        const page = (await pages(spaceId)).find((p) => p.node.git?.path === 'install.md')!;
        t.clock.advance(1000);
        await edit(spaceId, page.node.id, '# Install\n\nRun the installer twice.\n');
        await runJobs(t.ctx);
        let sync = (await admin().get(`/v1/spaces/${spaceId}/git/sync`)).body;
        const failed = await lastOperation(t.ctx, spaceId);
        assert.deepEqual([failed.direction, failed.state], ['export', 'failure']);
        assert.equal(sync.failures, 1);
        assert.ok(sync.lastError && !sync.lastError.includes(PASSWORD));
        assert.equal(Date.parse(sync.nextRetryAt) - t.clock.now().getTime(), 30_000);
        assert.equal(await runJobs(t.ctx), 0, 'nothing before the retry is due');
        t.clock.advance(30_000);
        await runJobs(t.ctx);
        sync = (await admin().get(`/v1/spaces/${spaceId}/git/sync`)).body;
        assert.equal(sync.failures, 2);
        assert.equal(Date.parse(sync.nextRetryAt) - t.clock.now().getTime(), 60_000, 'the wait doubles');
        const listed = (await admin().get(`/v1/spaces/${spaceId}/git/operations`)).body.items as Array<{ state: string; error?: string }>;
        assert.deepEqual(listed.slice(0, 2).map((item) => item.state), ['failure', 'failure']);
        assert.ok(!JSON.stringify(listed).includes(PASSWORD));
        // Reported to the organization's webhooks: git_sync.completed with the failure, once per attempt.
        const told = await t.ctx.db.selectFrom('webhook_deliveries').select('payload').where('webhook_id', '=', hook.body.id).where('event', '=', 'git_sync.completed').execute();
        const results = told.map((row) => JSON.parse(row.payload)).filter((payload) => JSON.stringify(payload).includes(spaceId)).map((payload) => JSON.stringify(payload).match(/"result":"(\w+)"/)?.[1]);
        assert.deepEqual(results, ['failure', 'failure']);
      } finally {
        remote.down = false;
      }
      t.clock.advance(60_000);
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.deepEqual([operation.direction, operation.state], ['export', 'success'], operation.error ?? '');
      assert.notEqual(remote.head(name), before);
      assert.match(remote.files(name).get('install.md')!.toString('utf8'), /twice/);
      const sync = (await admin().get(`/v1/spaces/${spaceId}/git/sync`)).body;
      assert.deepEqual([sync.failures, sync.lastError, sync.nextRetryAt], [0, undefined, undefined]);
      const stored = JSON.stringify(await t.ctx.db.selectFrom('jobs').select(['payload', 'last_error']).execute()) + JSON.stringify(await t.ctx.db.selectFrom('git_operations').select(['request', 'error']).execute());
      assert.ok(!stored.includes(PASSWORD), 'no credentials in jobs or operations');
    });

    it('polls a remote without webhooks: a new commit is imported at the next interval; a push-only sync does not import', async () => {
      const { name, spaceId } = await synced('pull', { pollIntervalSeconds: 60 });
      const push = pushFile(name, 'install.md', '# Install\n\nPolled.\n', 'Polled change');
      t.clock.advance(60_000);
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.deepEqual([operation.direction, operation.state, operation.commit], ['import', 'success', push]);
      assert.match(await bodyOf(spaceId, 'install.md'), /^Polled\.\n$/);
      // Nothing new: the next poll schedules nothing.
      const count = (await t.ctx.db.selectFrom('git_operations').select('id').where('space_id', '=', spaceId).execute()).length;
      t.clock.advance(60_000);
      await runJobs(t.ctx);
      assert.equal((await t.ctx.db.selectFrom('git_operations').select('id').where('space_id', '=', spaceId).execute()).length, count);
      // A pull-only sync does not export Quire's edits.
      const page = (await pages(spaceId)).find((p) => p.node.git?.path === 'install.md')!;
      t.clock.advance(1000);
      await edit(spaceId, page.node.id, '# Install\n\nLocal.\n');
      await runJobs(t.ctx);
      assert.equal(remote.head(name), push);
      void readFileSync;
      void gitSync;
    });
  });
}
