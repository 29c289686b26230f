import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI } from '@gitbook/api';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { createSpace } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { createGitTestApp, lastOperation, runJobs } from './helpers.ts';
import { PASSWORD, startGitServer, type GitServer } from './server.ts';
import { needs } from '../helpers/system.ts';

/**
 * The Git group of the API: who may trigger a sync (each role, a guest, an outsider), what git/info says
 * before and after one, the refusals of remotes Quire does not connect to, and the whole round through
 * the public client 0.130.0 against a real repository served over smart HTTP.
 */
const REPO = {
  'README.md': '# Welcome\n\nStart here.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Install](install.md)\n',
  'install.md': '---\ndescription: How to install.\n---\n\n# Install\n\nRun the installer.\n',
};

for (const dialect of dialects) {
  describe(`Git Sync API [${dialect}]`, { skip: needs('git') }, () => {
    let t: TestApp;
    let world: World;
    let remote: GitServer;
    before(async () => {
      t = await createGitTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      remote = await startGitServer();
      remote.createRepo('docs', REPO);
      remote.createRepo('matrix', REPO);
    });
    after(async () => {
      await t.close();
      await remote.close();
    });

    it('lets the edit level and above trigger imports and exports; others are refused (403) or not told the space exists (404)', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const expected: Record<string, number> = { admin: 204, create: 204, review: 204, edit: 204, comment: 403, read: 403, guest: 404, outsider: 404 };
      for (const [name, user] of cast(world)) {
        const body = { url: remote.url('matrix'), ref: 'refs/heads/main' };
        const imported = await user.api.post(`/v1/spaces/${spaceId}/git/import`, body);
        const exported = await user.api.post(`/v1/spaces/${spaceId}/git/export`, { ...body, commitMessage: 'Sync' });
        const removed = await user.api.delete(`/v1/spaces/${spaceId}/git/legacy-installation`);
        for (const reply of [imported, exported]) {
          if (expected[name] === 204) assert.equal(reply.status, 204, `${name}: ${JSON.stringify(reply.body)}`);
          else assertError(reply, expected[name]);
        }
        if (expected[name] === 204) assert.equal(removed.status, 204, name);
        else assertError(removed, expected[name]);
        const space = await user.api.get(`/v1/spaces/${spaceId}`);
        if (space.status === 200) assert.equal(space.body.permissions.triggerGitSync, expected[name] === 204, name);
      }
      const operations = await t.ctx.db.selectFrom('git_operations').select('direction').where('space_id', '=', spaceId).execute();
      assert.equal(operations.length, 8, 'four roles, one import and one export each');
    });

    it('answers 404 for git/info before any sync, to every reader', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      for (const role of ['admin', 'read'] as const) assertError(await world.members[role].api.get(`/v1/spaces/${spaceId}/git/info`), 404, 'not synced');
      assertError(await world.outsider.api.get(`/v1/spaces/${spaceId}/git/info`), 404);
    });

    it('refuses remotes that are not http(s), bad refs and folders leaving the repository, with 400', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const api = world.members.edit.api;
      for (const url of ['ssh://git@github.com/org/repo.git', 'file:///etc', 'git@github.com:org/repo.git', 'ext::sh -c touch% /tmp/pwned', 'git://example.com/repo.git']) {
        assertError(await api.post(`/v1/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main' }), 400);
      }
      assertError(await api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs'), ref: '--upload-pack=evil' }), 400, 'ref');
      assertError(await api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs'), ref: 'refs/heads/main', repoProjectDirectory: '../outside' }), 400);
      assertError(await api.post(`/v1/spaces/${spaceId}/git/export`, { url: remote.url('docs'), ref: 'refs/heads/main' }), 400, 'commitMessage');
    });

    it('runs import, info, revision metadata, export and removal through the public client', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const api = new GitBookAPI({ endpoint: address, authToken: world.members.edit.token });
      const url = remote.url('docs');
      const imported = await api.spaces.importGitRepository(spaceId, { url, ref: 'refs/heads/main', repoCommitURL: 'https://git.example.com/docs/commit' });
      assert.equal(imported.status, 204);
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'success', operation.error ?? '');

      const info = await api.spaces.getSpaceGitInfo(spaceId);
      assert.equal(info.data.repoName, 'docs');
      assert.ok(info.data.url && !info.data.url.includes(PASSWORD), 'no credentials in git/info');
      const space = await api.spaces.getSpaceById(spaceId);
      assert.equal(space.data.gitSync?.repoName, 'docs');

      const revision = await api.spaces.getCurrentRevision(spaceId);
      assert.equal(revision.data.git?.oid, remote.head('docs'));
      assert.equal(revision.data.git?.createdByGitBook, false);
      assert.equal(revision.data.git?.url, `https://git.example.com/docs/commit/${remote.head('docs')}`);
      assert.deepEqual(revision.data.pages.map((page) => [page.title, page.type === 'document' ? page.git?.path : undefined]), [['Welcome', 'README.md'], ['Install', 'install.md']]);
      const bare = await api.spaces.getCurrentRevision(spaceId, { metadata: false });
      assert.equal(bare.data.git, undefined);
      assert.equal(bare.data.pages[0].type === 'document' ? bare.data.pages[0].git : undefined, undefined);

      // Nothing changed: the export makes no commit.
      const before = remote.head('docs');
      t.clock.advance(1000);
      assert.equal((await api.spaces.exportToGitRepository(spaceId, { url, ref: 'refs/heads/main', commitMessage: 'Nothing to say' })).status, 204);
      await runJobs(t.ctx);
      assert.equal((await lastOperation(t.ctx, spaceId)).state, 'success');
      assert.equal(remote.head('docs'), before);

      const operations = await world.members.read.api.get(`/v1/spaces/${spaceId}/git/operations`);
      assert.equal(operations.status, 200);
      assert.deepEqual(operations.body.items.map((item: { direction: string; state: string }) => `${item.direction}:${item.state}`), ['export:success', 'import:success']);
      assert.ok(!JSON.stringify(operations.body).includes(PASSWORD), 'no credentials in operations');
      const row = await t.ctx.db.selectFrom('git_syncs').select(['url', 'credentials']).where('space_id', '=', spaceId).executeTakeFirstOrThrow();
      assert.ok(!row.url.includes(PASSWORD) && !row.credentials?.includes(PASSWORD), 'credentials stored sealed');

      const removed = await api.spaces.deleteLegacyGitInstallation(spaceId);
      assert.equal(removed.status, 205);
      assertError(await world.members.edit.api.get(`/v1/spaces/${spaceId}/git/info`), 404);
      assert.equal((await world.members.edit.api.delete(`/v1/spaces/${spaceId}/git/legacy-installation`)).status, 204);
    });

    it('runs again an operation whose worker stopped mid-way (left running): no partial revision, then success', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const start = (await t.ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow()).revision_id;
      assert.equal((await world.members.edit.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs'), ref: 'refs/heads/main' })).status, 204);
      // The state a killed worker leaves: the operation marked running at its content stage, nothing written.
      await t.ctx.db.updateTable('git_operations').set({ state: 'running', stage: 'content_process' }).where('space_id', '=', spaceId).execute();
      assert.equal((await t.ctx.db.selectFrom('revisions').select('id').where('space_id', '=', spaceId).execute()).length, 1);
      assert.equal((await t.ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow()).revision_id, start);
      await runJobs(t.ctx);
      const operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'success', operation.error ?? '');
      assert.equal((await t.ctx.db.selectFrom('revisions').select('id').where('space_id', '=', spaceId).execute()).length, 2, 'one revision, written once');
    });

    it('fails an operation with a clear message on a wrong password or a missing branch, leaving the space as it was', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const head = async () => (await t.ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow()).revision_id;
      const start = await head();
      const api = world.members.edit.api;
      assert.equal((await api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs', 'writer:wrong'), ref: 'refs/heads/main' })).status, 204);
      await runJobs(t.ctx);
      let operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'failure');
      assert.ok(!operation.error?.includes('wrong'), 'the password is not in the error');
      assert.match(operation.error ?? '', /credentials/);
      assert.equal(await head(), start);
      t.clock.advance(1000);
      assert.equal((await api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs'), ref: 'refs/heads/gone' })).status, 204);
      await runJobs(t.ctx);
      operation = await lastOperation(t.ctx, spaceId);
      assert.equal(operation.state, 'failure');
      assert.match(operation.error ?? '', /does not exist/);
      assert.equal(await head(), start);
    });
  });
}

for (const dialect of dialects) {
  describe(`Git Sync and the address guard [${dialect}]`, { skip: needs('git') }, () => {
    it('refuses a remote on a private address when it is given (import, export, sync) unless QUIRE_IMPORT_ALLOW_PRIVATE is set, and again when the job connects', async () => {
      const dataDir = mkdtempSync(join(tmpdir(), 'quire-git-guard-'));
      const t = await createTestApp(dialect, { QUIRE_DATA_DIR: dataDir });
      const remote = await startGitServer();
      try {
        remote.createRepo('docs', REPO);
        const world = await createWorld(t.ctx, t.app, t.clock);
        const spaceId = await createSpace(t.ctx, world.organizationId);
        const api = world.admin.api;
        const attempts: Array<[string, () => Promise<Reply>]> = [
          ['import', () => api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs'), ref: 'refs/heads/main' })],
          ['export', () => api.post(`/v1/spaces/${spaceId}/git/export`, { url: remote.url('docs'), ref: 'refs/heads/main', commitMessage: 'x' })],
          ['sync', () => api.put(`/v1/spaces/${spaceId}/git/sync`, { url: remote.url('docs'), ref: 'refs/heads/main', direction: 'pull' })],
          ['import from a name of 127.0.0.1', () => api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs').replace('127.0.0.1', 'localhost'), ref: 'refs/heads/main' })],
        ];
        for (const [what, attempt] of attempts) {
          const reply = await attempt();
          assert.equal(reply.status, 400, `${what}: ${JSON.stringify(reply.body)}`);
          assertError(reply, 400, 'Git remote');
        }
        // A reader of the space is refused for their role before the address is looked at.
        assertError(await world.members.read.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs'), ref: 'refs/heads/main' }), 403);
        assert.equal((await t.ctx.db.selectFrom('git_operations').select('id').where('space_id', '=', spaceId).execute()).length, 0, 'no operation recorded');
        assert.equal((await api.get(`/v1/spaces/${spaceId}/git/sync`)).status, 404, 'no sync recorded');
        // The address is checked again when the job connects: an operation accepted while private
        // addresses were allowed fails once they are not.
        const config = t.ctx.config as { importAllowPrivate: boolean };
        config.importAllowPrivate = true;
        assert.equal((await api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('docs'), ref: 'refs/heads/main' })).status, 204);
        config.importAllowPrivate = false;
        await runJobs(t.ctx);
        const operation = await lastOperation(t.ctx, spaceId);
        assert.equal(operation.state, 'failure');
        assert.match(operation.error ?? '', /Git remote/);
        assert.ok(!remote.requests.length, 'git never connected');
      } finally {
        await t.close();
        await remote.close();
        rmSync(dataDir, { recursive: true, force: true });
      }
    });
  });
}
