import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { dialects } from '../helpers/app.ts';
import { createScratchDatabase, type ScratchDatabase } from '../helpers/scratch-database.ts';
import { runQuire, startQuire, type QuireProcess } from '../scale/cluster.ts';

/**
 * Crash safety: a real `bin/quire serve` under a write load (spaces, imports, page edits, change requests
 * edited and merged, comments, and the indexing jobs they cause) is killed with SIGKILL at a random moment,
 * started again, and checked:
 *
 * - every write that was acknowledged with a 2xx is there and intact;
 * - SQLite: `PRAGMA integrity_check` is ok and no foreign key is dangling;
 * - no revision is half-written: every revision a space or a change request points at can be read, with
 *   its page tree and every page's body;
 * - the job queue resumes: every job due is run to its end, none failed, and search finds what was
 *   imported.
 *
 * The moments are drawn from a seed, printed (QUIRE_CRASH_SEED=<seed> replays a run). A few rounds per
 * database in CI; QUIRE_CRASH_ROUNDS=50 for more.
 */

const ROUNDS = Number(process.env.QUIRE_CRASH_ROUNDS ?? 3);
const WORKERS = 4;

/** A small seeded generator (mulberry32), so a failing run can be replayed from its seed. */
function generator(seed: number) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const dataUrl = (markdown: string) => `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}`;

interface Reply {
  status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  body: any;
}

/** A JSON client of the current process; a request the crash cuts off rejects (it was never acknowledged). */
function clientOf(base: () => string, token: string) {
  const call = async (method: string, path: string, body?: unknown): Promise<Reply> => {
    const response = await fetch(base() + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    return { status: response.status, body: text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown = {}) => call('POST', path, body),
    patch: (path: string, body: unknown) => call('PATCH', path, body),
  };
}

/** What an acknowledged write left, checked after every restart. */
interface Acknowledged {
  what: string;
  check: (api: ReturnType<typeof clientOf>) => Promise<void>;
}

/** A word search can find, unique to one write. */
const word = (random: () => number) => `zq${Math.floor(random() * 36 ** 8).toString(36).padStart(8, '0')}`;

async function pagesOf(api: ReturnType<typeof clientOf>, content: string): Promise<Array<{ id: string; title: string }>> {
  const reply = await api.get(`${content}/pages`);
  assert.equal(reply.status, 200, `${content}/pages: ${JSON.stringify(reply.body)}`);
  const pages: Array<{ id: string; title: string }> = [];
  const walk = (list: Array<{ id: string; title: string; pages?: unknown[] }>) => {
    for (const page of list) {
      pages.push({ id: page.id, title: page.title });
      walk((page.pages ?? []) as typeof list);
    }
  };
  walk(reply.body.pages);
  return pages;
}

async function markdownOf(api: ReturnType<typeof clientOf>, content: string, pageId: string): Promise<string> {
  const reply = await api.get(`${content}/page/${pageId}?format=markdown`);
  assert.equal(reply.status, 200, `${content}/page/${pageId}: ${JSON.stringify(reply.body)}`);
  return reply.body.markdown as string;
}

/** Every page of a content (a space's current revision, or a change request's head) and its body can be read. */
async function readWhole(api: ReturnType<typeof clientOf>, content: string): Promise<number> {
  const pages = await pagesOf(api, content);
  for (const page of pages) await markdownOf(api, content, page.id);
  return pages.length;
}

for (const dialect of dialects) {
  describe(`SIGKILL under a write load, then restart [${dialect}]`, { timeout: 600_000 }, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'quire-crash-'));
    let database: ScratchDatabase | null = null;
    let databaseUrl = '';
    let env: Record<string, string>;
    let token: string;
    let organizationId: string;
    let quire: QuireProcess | null = null;

    /** Rows straight from the database, while the server runs (SQLite: a read-only connection beside it). */
    async function query<T>(text: string): Promise<T[]> {
      if (dialect === 'sqlite') {
        const db = new SQLite(join(dataDir, 'quire.db'), { readonly: true });
        try {
          return db.prepare(text).all() as T[];
        } finally {
          db.close();
        }
      }
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      try {
        return (await client.query(text)).rows as T[];
      } finally {
        await client.end();
      }
    }

    before(async () => {
      env = { QUIRE_DATA_DIR: dataDir, QUIRE_SECRET_KEY: randomBytes(32).toString('hex'), QUIRE_RATE_LIMIT: '0' };
      if (dialect === 'postgres') {
        database = await createScratchDatabase('crash');
        databaseUrl = database.url;
        env.QUIRE_DATABASE_URL = databaseUrl;
      }
      const init = runQuire(['init', '--org', 'Crash Docs', '--email', 'owner@example.com', '--json'], env);
      assert.equal(init.status, 0, init.stderr);
      ({ token, organization: organizationId } = JSON.parse(init.stdout));
    });

    after(async () => {
      if (quire && quire.child.exitCode === null) {
        quire.child.kill('SIGKILL');
        await quire.exited;
      }
      rmSync(dataDir, { recursive: true, force: true });
      await database?.drop();
    });

    it(`keeps every acknowledged write through ${ROUNDS} kills`, async (t) => {
      const seed = Number(process.env.QUIRE_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));
      t.diagnostic(`seed ${seed} (QUIRE_CRASH_SEED=${seed} replays it), ${ROUNDS} rounds`);
      console.log(`crash test [${dialect}]: seed ${seed}`);
      const random = generator(seed);
      const api = clientOf(() => quire!.base, token);
      const acknowledged: Acknowledged[] = [];
      const searchable = new Set<string>();
      const ack = (what: string, check: Acknowledged['check']) => acknowledged.push({ what, check });
      let killed = false;

      /** One writer: its own spaces, written one request after another, until the process dies. */
      async function writer(round: number, n: number, shared: string): Promise<number> {
        let writes = 0;
        const tag = `r${round}w${n}`;
        // Each writer draws from its own generator, so the seed replays its choices whatever the timing.
        const own = generator(seed * 31 + round * 7 + n);
        try {
          const created = await api.post(`/v1/orgs/${organizationId}/spaces`, { title: `Space ${tag}` });
          if (created.status !== 201) throw new Error(`create space: ${created.status} ${JSON.stringify(created.body)}`);
          const spaceId = created.body.id as string;
          ack(`space ${tag}`, async (a) => assert.equal((await a.get(`/v1/spaces/${spaceId}`)).body.title, `Space ${tag}`));
          const content = `/v1/spaces/${spaceId}/content`;
          const editable: Array<{ id: string; mark: string }> = [];
          for (let step = 0; !killed; step++) {
            const choice = own();
            const mark = word(own);
            if (choice < 0.3) {
              // An import into the space: a new page (imports are written as one revision, then indexed).
              const title = `Page ${tag}.${step}`;
              const reply = await api.post(`${content}/import`, { source: 'markdown', url: dataUrl(`# ${title}\n\nImported ${mark}.\n`) });
              if (reply.status !== 201) throw new Error(`import: ${reply.status} ${JSON.stringify(reply.body)}`);
              searchable.add(mark);
              ack(`import ${title}`, async (a) => {
                const page = (await pagesOf(a, content)).find((p) => p.title === title);
                assert.ok(page, `${title} is in space ${spaceId}`);
                assert.match(await markdownOf(a, content, page.id), new RegExp(`Imported ${mark}|Edited`));
              });
              const page = (await pagesOf(api, content)).find((p) => p.title === title);
              if (page) editable.push({ id: page.id, mark });
            } else if (choice < 0.45 && editable.length > 0) {
              // A page edit (each page is edited once, so what was acknowledged last is what must be there).
              const { id: pageId, mark: imported } = editable.shift()!;
              searchable.delete(imported); // the edit may replace it (if the request is cut off, it is unknown)
              const reply = await api.post(`${content}/page/${pageId}/import`, { source: 'markdown', url: dataUrl(`Edited ${mark}.\n`) });
              if (reply.status !== 201) throw new Error(`page edit: ${reply.status} ${JSON.stringify(reply.body)}`);
              searchable.add(mark);
              ack(`page edit ${pageId}`, async (a) => assert.match(await markdownOf(a, content, pageId), new RegExp(`Edited ${mark}`)));
            } else if (choice < 0.75) {
              // A change request: created, written to, opened, commented on, merged.
              const cr = await api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: `Change ${tag}.${step}` });
              if (cr.status !== 201) throw new Error(`change request: ${cr.status} ${JSON.stringify(cr.body)}`);
              const url = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
              ack(`change request ${tag}.${step}`, async (a) => assert.equal((await a.get(url)).body.subject, `Change ${tag}.${step}`));
              const title = `Proposed ${tag}.${step}`;
              const edit = await api.post(`${url}/content/import`, { source: 'markdown', url: dataUrl(`# ${title}\n\nProposed ${mark}.\n`) });
              if (edit.status !== 201) throw new Error(`change request import: ${edit.status} ${JSON.stringify(edit.body)}`);
              ack(`change request import ${title}`, async (a) => {
                const page = (await pagesOf(a, `${url}/content`)).find((p) => p.title === title);
                assert.ok(page, `${title} is in the change request`);
                assert.match(await markdownOf(a, `${url}/content`, page.id), new RegExp(`Proposed ${mark}`));
              });
              const comment = await api.post(`${url}/comments`, { body: { markdown: `Looks right ${mark}` } });
              if (comment.status !== 200) throw new Error(`comment: ${comment.status} ${JSON.stringify(comment.body)}`);
              ack(`change request comment ${comment.body.id}`, async (a) => assert.match(JSON.stringify((await a.get(`${url}/comments/${comment.body.id}`)).body), new RegExp(`Looks right ${mark}`)));
              const opened = await api.patch(url, { status: 'open' });
              if (opened.status !== 200) throw new Error(`open: ${opened.status} ${JSON.stringify(opened.body)}`);
              const merged = await api.post(`${url}/merge`);
              if (merged.status !== 200 || merged.body.result !== 'merge') throw new Error(`merge: ${merged.status} ${JSON.stringify(merged.body)}`);
              searchable.add(mark);
              ack(`merge ${title}`, async (a) => {
                assert.equal((await a.get(url)).body.status, 'merged');
                const page = (await pagesOf(a, content)).find((p) => p.title === title);
                assert.ok(page, `${title} was merged into space ${spaceId}`);
              });
            } else {
              // A comment in the discussion all writers share.
              const comment = await api.post(`/v1/spaces/${shared}/comments`, { body: { markdown: `Noted ${mark}` } });
              if (comment.status !== 200) throw new Error(`comment: ${comment.status} ${JSON.stringify(comment.body)}`);
              ack(`comment ${comment.body.id}`, async (a) => assert.match(JSON.stringify((await a.get(`/v1/spaces/${shared}/comments/${comment.body.id}`)).body), new RegExp(`Noted ${mark}`)));
            }
            writes++;
          }
        } catch (error) {
          // Cut off by the kill: that request was not acknowledged. Before the kill, nothing may fail.
          if (!killed) throw error;
        }
        return writes;
      }

      /** Everything the crash must not have broken. */
      async function verify(round: number): Promise<void> {
        for (const { what, check } of acknowledged) {
          await check(api).catch((error: Error) => assert.fail(`round ${round}, seed ${seed}: acknowledged ${what} is not intact: ${error.message}`));
        }
        // No half-written revision: every space's content and every change request's head reads whole.
        let pages = 0;
        const spaces = (await api.get(`/v1/orgs/${organizationId}/spaces?limit=1000`)).body.items as Array<{ id: string }>;
        for (const space of spaces) {
          pages += await readWhole(api, `/v1/spaces/${space.id}/content`);
          const changeRequests = (await api.get(`/v1/spaces/${space.id}/change-requests?limit=1000`)).body.items as Array<{ id: string }>;
          for (const cr of changeRequests) pages += await readWhole(api, `/v1/spaces/${space.id}/change-requests/${cr.id}/content`);
        }
        t.diagnostic(`round ${round}: ${acknowledged.length} acknowledged writes intact; ${spaces.length} spaces, ${pages} pages read whole`);
        // Every revision row a space or change request names exists (a dangling one would be half a write).
        const dangling = await query<{ id: string }>(`
          select s.id from spaces s left join revisions r on r.id = s.revision_id where r.id is null
          union all
          select c.id from change_requests c left join revisions r on r.id = c.revision where r.id is null`);
        assert.deepEqual(dangling, [], 'every head names a revision');
      }

      /** The queue resumes: every due job runs to its end (none left running by the dead process). */
      async function drained(round: number): Promise<void> {
        let open: Array<{ id: string; kind: string; status: string; locked_by: string | null }> = [];
        for (let wait = 0; wait < 120; wait++) {
          const now = new Date().toISOString();
          open = await query(`select id, kind, status, locked_by from jobs where status in ('pending', 'running') and run_at <= '${now}'`);
          if (open.length === 0) break;
          await sleep(250);
        }
        assert.deepEqual(open, [], `round ${round}, seed ${seed}: the jobs due after the restart run to their end`);
        const failed = await query<{ kind: string; last_error: string }>(`select kind, last_error from jobs where status = 'failed'`);
        assert.deepEqual(failed, [], 'no job failed');
        for (const token of searchable) {
          const found = await api.get(`/v1/orgs/${organizationId}/search?query=${token}`);
          assert.equal(found.status, 200, JSON.stringify(found.body));
          assert.ok(found.body.items.length > 0, `round ${round}, seed ${seed}: search finds ${token} once indexing resumed`);
        }
      }

      quire = await startQuire(env);
      const shared = await api.post(`/v1/orgs/${organizationId}/spaces`, { title: 'Shared discussion' });
      assert.equal(shared.status, 201, JSON.stringify(shared.body));
      for (let round = 1; round <= ROUNDS; round++) {
        killed = false;
        const moment = 200 + Math.floor(random() * 2300);
        const load = Array.from({ length: WORKERS }, (_, n) => writer(round, n, shared.body.id));
        await sleep(moment);
        // Every other round, the kill waits (a little) for a job to be running: the queue must survive that too.
        let during = 'a write';
        if (round % 2 === 0) {
          for (let poll = 0; poll < 150; poll++) {
            const running = await query<{ kind: string }>(`select kind from jobs where status = 'running'`);
            if (running.length > 0) {
              during = `a running ${running[0].kind} job`;
              break;
            }
            await sleep(10);
          }
        }
        killed = true;
        quire.child.kill('SIGKILL');
        await quire.exited;
        const writes = (await Promise.all(load)).reduce((a, b) => a + b, 0);
        t.diagnostic(`round ${round}: killed after ${moment} ms during ${during}, ${writes} writes acknowledged in the round`);
        if (dialect === 'sqlite') {
          // Opened read-write, as the next process will: the WAL is recovered first.
          const db = new SQLite(join(dataDir, 'quire.db'));
          try {
            assert.deepEqual(db.pragma('integrity_check'), [{ integrity_check: 'ok' }], `round ${round}, seed ${seed}: integrity_check`);
            assert.deepEqual(db.pragma('foreign_key_check'), [], `round ${round}, seed ${seed}: no dangling foreign key`);
          } finally {
            db.close();
          }
        }
        quire = await startQuire(env);
        await verify(round);
        await drained(round);
      }
      quire.child.kill('SIGTERM');
      assert.equal(await quire.exited, 0, quire.log.slice(-5).join('\n'));
    });
  });
}
