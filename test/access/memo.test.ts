import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { AccessWrites, accessMemoStats, memoized, onAccessChanged } from '../../src/db/memo.ts';
import { buildApp } from '../../src/app.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext } from '../../src/context.ts';
import { migrateToLatest, openDatabase } from '../../src/db/database.ts';
import { createOrganization } from '../../src/modules/orgs/service.ts';
import { findOrCreateUser, issueApiToken } from '../../src/modules/users/service.ts';
import { addMember } from '../helpers/factories.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, postSpace, type World } from '../helpers/factories.ts';

/**
 * Access answered from memory (src/db/memo.ts) is forgotten when access changes: in the process that
 * changed it at once, and on PostgreSQL in every other serving process when the change's notification
 * arrives. A removed member is refused by both.
 */
for (const dialect of dialects) {
  describe(`access from memory, forgotten on change [${dialect}]`, () => {
    let t: TestApp;
    let w: World;
    let spaceId: string;
    before(async () => {
      t = await createTestApp(dialect);
      w = await createWorld(t.ctx, t.app, t.clock);
      spaceId = (await postSpace(t.clock, w.admin, w.organizationId, { title: 'Handbook' })).id;
    });
    after(() => t.close());

    it('in one process: a removed member is refused by the very next request', { skip: dialect !== 'sqlite' && 'on PostgreSQL, memory is used only with a listener (next test)' }, async () => {
      const member = w.members.read;
      assert.equal((await member.api.get(`/v1/orgs/${w.organizationId}`)).status, 200);
      const hits = accessMemoStats.hits;
      assert.equal((await member.api.get(`/v1/orgs/${w.organizationId}`)).status, 200);
      assert.equal((await member.api.get(`/v1/spaces/${spaceId}`)).status, 200);
      assert.equal((await member.api.get(`/v1/spaces/${spaceId}`)).status, 200);
      assert.ok(accessMemoStats.hits > hits, 'the second reads are answered from memory');
      assert.equal((await w.admin.api.delete(`/v1/orgs/${w.organizationId}/members/${member.id}`)).status, 205);
      assert.equal((await member.api.get(`/v1/orgs/${w.organizationId}`)).status, 404);
      assert.equal((await member.api.get(`/v1/spaces/${spaceId}`)).status, 404);
      // A change made by a job or a direct write (not a request) is seen too.
      const other = w.members.comment;
      assert.equal((await other.api.get(`/v1/orgs/${w.organizationId}`)).status, 200);
      assert.equal((await other.api.get(`/v1/orgs/${w.organizationId}`)).status, 200);
      await t.ctx.db.updateTable('members').set({ disabled: 1 }).where('user_id', '=', other.id).execute();
      assert.equal((await other.api.get(`/v1/orgs/${w.organizationId}`)).status, 404);
    });

    it('a read through a common table expression (an organization search) forgets nothing and tells no listener', { skip: dialect !== 'sqlite' && 'on PostgreSQL, memory is used only with a listener' }, async () => {
      const member = w.members.edit; // read and comment are removed by the test above
      let told = 0;
      const stop = onAccessChanged(() => told++);
      try {
        assert.equal((await member.api.get(`/v1/orgs/${w.organizationId}`)).status, 200);
        // The search reads the spaces the member may see through the chain of collections' default levels (a `with recursive`).
        assert.equal((await member.api.get(`/v1/orgs/${w.organizationId}/search?query=handbook`)).status, 200);
        const hits = accessMemoStats.hits;
        assert.equal((await member.api.get(`/v1/orgs/${w.organizationId}/search?query=handbook`)).status, 200);
        assert.ok(accessMemoStats.hits > hits, 'the second search finds the organization and the grants in memory');
        assert.equal(told, 0, 'no access change was announced');
      } finally {
        stop();
      }
    });

    it('across processes: another serving process refuses a removed member once the notification arrives', { skip: dialect !== 'postgres' && 'PostgreSQL only (SQLite has one serving process)' }, async () => {
      const peer: ChildProcess = spawn(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'memo-peer.ts')], {
        env: { ...process.env, PEER_SCHEMA: t.database.schema },
        stdio: ['pipe', 'pipe', 'inherit'],
      });
      try {
        const [line] = (await once(peer.stdout!, 'data')) as [Buffer];
        const base = `http://127.0.0.1:${Number(line.toString().trim())}`;
        const get = async (path: string, token?: string) =>
          (await fetch(`${base}${path}`, { headers: token ? { authorization: `Bearer ${token}` } : {} }));
        const hits = async () => ((await (await get('/memo-stats')).json()) as { hits: number }).hits;
        const member = w.members.edit;
        for (let i = 0; i < 3; i++) {
          assert.equal((await get(`/v1/orgs/${w.organizationId}`, member.token)).status, 200);
          assert.equal((await get(`/v1/spaces/${spaceId}`, member.token)).status, 200);
        }
        assert.ok((await hits()) >= 4, 'the other process answers access from memory');
        assert.equal((await w.admin.api.delete(`/v1/orgs/${w.organizationId}/members/${member.id}`)).status, 205);
        // The notification leaves at the commit; allow it its trip, then no request may be admitted.
        const deadline = Date.now() + 5000;
        let stale = 0;
        while ((await get(`/v1/orgs/${w.organizationId}`, member.token)).status === 200) {
          stale++;
          assert.ok(Date.now() < deadline, 'the other process still admits the removed member 5 s after the removal');
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
        assert.equal((await get(`/v1/orgs/${w.organizationId}`, member.token)).status, 404);
        assert.equal((await get(`/v1/spaces/${spaceId}`, member.token)).status, 404);
        assert.ok(stale <= 2, `answers from memory after the removal committed: ${stale}`);
      } finally {
        peer.stdin!.end();
        if (peer.exitCode === null) await once(peer, 'exit');
      }
    });
  });
}

describe('access from memory, SQLite file written by another process [sqlite]', () => {
  it('a member removed through another connection to the file (as the CLI would) is refused at once', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-memo-'));
    const url = `sqlite:${join(dir, 'quire.db')}`;
    const database = openDatabase(url);
    await migrateToLatest(database);
    const config = loadConfig({ QUIRE_LOG_LEVEL: 'error', QUIRE_PUBLIC_URL: 'http://quire.test', QUIRE_DATA_DIR: dir, QUIRE_RATE_LIMIT: '0' });
    const app = await buildApp({ config, database, masterKey: randomBytes(32), logger: false });
    const other = openDatabase(url);
    try {
      await app.ready();
      const ctx = createContext(app.services, null);
      const { organization } = await createOrganization(ctx, { title: 'Acme', ownerEmail: 'owner@acme.test' });
      const user = await findOrCreateUser(ctx, 'reader@acme.test', 'Reader');
      await addMember(ctx, organization.id, user.id, 'read');
      const token = await issueApiToken(ctx, user.id);
      const get = () => app.inject({ method: 'GET', url: `/v1/orgs/${organization.id}`, headers: { authorization: `Bearer ${token}` } });
      assert.equal((await get()).statusCode, 200);
      const hits = accessMemoStats.hits;
      assert.equal((await get()).statusCode, 200);
      assert.ok(accessMemoStats.hits > hits, 'the second read is answered from memory');
      await other.db.deleteFrom('members').where('user_id', '=', user.id).execute();
      assert.equal((await get()).statusCode, 404);
    } finally {
      await other.close();
      await app.close();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});


describe('which statements write access tables', () => {
  it('a data-modifying common table expression counts, one that reads does not', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-memo-'));
    const database = openDatabase(`sqlite:${join(dir, 'quire.db')}`);
    let told = 0;
    const stop = onAccessChanged(() => told++);
    try {
      await migrateToLatest(database);
      const db = database.db.withPlugin(new AccessWrites());
      const levels = db.selectFrom('collections').select('id').where('organization_id', '=', 'none');
      await db.with('levels', () => levels).selectFrom('levels').select('id').execute();
      await db.with('levels', () => levels).selectFrom('spaces').select('id').where('collection_id', 'in', (eb) => eb.selectFrom('levels').select('id')).execute();
      await db.with('levels', () => levels).updateTable('users').set({ display_name: 'x' }).where('id', 'in', (eb) => eb.selectFrom('levels').select('id')).execute();
      assert.equal(told, 0, 'reads through `with`, and a write of another table beside one, announce nothing');
      await db.with('gone', (q) => q.deleteFrom('members').where('user_id', '=', 'none').returning('user_id')).selectFrom('gone').selectAll().compile();
      assert.ok(told > 0, 'a delete of members inside a `with` is announced (compiled: SQLite runs no data-modifying `with`)');
    } finally {
      stop();
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('a list held in memory, bounded by its rows', () => {
  it('keeps answers up to maxRows in all, forgets them all past it, and never keeps a longer one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'quire-memo-'));
    const database = openDatabase(`sqlite:${join(dir, 'quire.db')}`);
    try {
      const asked: string[] = [];
      const rowsOf: Record<string, number> = { a: 2, b: 2, long: 5 };
      const list = memoized(
        async (_target, key: string) => {
          asked.push(key);
          return Array.from({ length: rowsOf[key] }, (_, i) => ({ i }));
        },
        { maxRows: 4 },
      );
      const target = { db: database.db, dialect: 'sqlite' as const };
      await list(target, 'a');
      await list(target, 'a');
      await list(target, 'b');
      await list(target, 'b');
      assert.deepEqual(asked, ['a', 'b'], 'two answers of two rows: both held');
      await list(target, 'long');
      await list(target, 'long');
      assert.deepEqual(asked, ['a', 'b', 'long', 'long'], 'five rows, more than the bound: never kept');
      await list(target, 'a');
      assert.deepEqual(asked, ['a', 'b', 'long', 'long'], 'and the others are still held');
      rowsOf.c = 2;
      await list(target, 'c');
      await list(target, 'a');
      assert.deepEqual(asked, ['a', 'b', 'long', 'long', 'c', 'a'], 'a third answer passes the bound: everything held before is forgotten');
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
