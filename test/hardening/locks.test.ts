import assert from 'node:assert/strict';
import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { mergeRetries } from '../../src/modules/change-requests/merge-service.ts';

/**
 * The global lock order (docs/architecture.md, "Lock order") under load: comments, change-request merges,
 * imports into the space, page edits, comment deletes and the deletion of the space itself, all at once on
 * one space. No request may fail with a 5xx (a PostgreSQL deadlock, 40P01, would be one), and every write
 * acknowledged with a 2xx must be found afterwards (no lost update). On SQLite the same load runs through
 * its single writer.
 */

const dataUrl = (markdown: string) => `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}`;

/** Every reply seen, for the no-5xx check. */
type Log = Array<{ what: string; reply: Reply }>;

function assertNoServerError(log: Log): void {
  const failed = log.filter(({ reply }) => reply.status >= 500);
  assert.deepEqual(failed.map(({ what, reply }) => `${what}: ${reply.status} ${JSON.stringify(reply.body)}`), [], 'no 5xx (a deadlock is one)');
}

for (const dialect of dialects) {
  describe(`one space written from every side at once [${dialect}]`, { timeout: 240_000 }, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const api = () => world.admin.api;
    const ROUNDS = Number(process.env.QUIRE_LOCK_ROUNDS ?? 3);
    const WIDTH = 4;

    /** Sends a write; a 409 (another writer moved the head first) is retried, as a client would. */
    async function write(log: Log, what: string, send: () => Promise<Reply>): Promise<Reply> {
      let reply = await send();
      for (let attempt = 0; attempt < 20 && reply.status === 409; attempt++) reply = await send();
      log.push({ what, reply });
      return reply;
    }

    async function pageIds(spaceId: string): Promise<Map<string, string>> {
      const reply = await api().get(`/v1/spaces/${spaceId}/content/pages`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const ids = new Map<string, string>();
      const walk = (pages: Array<{ id: string; title: string; pages?: unknown[] }>) => {
        for (const page of pages) {
          ids.set(page.title, page.id);
          walk((page.pages ?? []) as typeof pages);
        }
      };
      walk(reply.body.pages);
      return ids;
    }

    const markdownOf = async (spaceId: string, pageId: string) => {
      const reply = await api().get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.markdown as string;
    };

    it('comments, merges, imports, page edits and comment deletes at once: no deadlock, no 5xx, nothing lost', async (test) => {
      const retriesBefore = mergeRetries.count;
      const titles = [...Array.from({ length: WIDTH }, (_, k) => `Edited ${k}`), ...Array.from({ length: WIDTH }, (_, k) => `Changed ${k}`)];
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, titles.map((title) => ({ type: 'document' as const, title, markdown: `${title}: first.\n` })));
      const ids = await pageIds(spaceId);
      const log: Log = [];
      const expectedBodies = new Map<string, string>();
      const postedComments: Array<{ url: string; id: string }> = [];
      const deletedComments = new Set<string>();
      const appended: string[] = [];
      const merged: string[] = [];

      for (let round = 0; round < ROUNDS; round++) {
        // Change requests, each editing its own page, opened; and comments to delete during the round.
        const changeRequests: string[] = [];
        for (let k = 0; k < WIDTH; k++) {
          const created = await api().post(`/v1/spaces/${spaceId}/change-requests`, { subject: `Round ${round} change ${k}` });
          assert.equal(created.status, 201, JSON.stringify(created.body));
          const url = `/v1/spaces/${spaceId}/change-requests/${created.body.id}`;
          const edit = await api().post(`${url}/content/page/${ids.get(`Changed ${k}`)}/import`, { source: 'markdown', url: dataUrl(`Changed ${k}: round ${round}.\n`) });
          assert.equal(edit.status, 201, JSON.stringify(edit.body));
          assert.equal((await api().patch(url, { status: 'open' })).status, 200);
          changeRequests.push(url);
        }
        const doomed: string[] = [];
        for (let k = 0; k < WIDTH; k++) {
          const posted = await api().post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: `Doomed ${round}.${k}` } });
          assert.equal(posted.status, 200, JSON.stringify(posted.body));
          doomed.push(posted.body.id);
        }

        const work: Array<Promise<unknown>> = [];
        let merging = WIDTH;
        for (let k = 0; k < WIDTH; k++) {
          const cr = changeRequests[k];
          work.push(
            write(log, `merge ${cr}`, () => api().post(`${cr}/merge`)).then((reply) => {
              merging--;
              if (reply.status === 200 && reply.body.result === 'merge') {
                merged.push(cr);
                expectedBodies.set(`Changed ${k}`, `Changed ${k}: round ${round}.`);
              }
            }),
          );
          // Comments on the change request for as long as the merges last: each insert holds a key-share lock
          // on the space's row and the change request's until it commits, which is when a merge wants them.
          work.push(
            (async () => {
              for (let n = 0; n < 40 && merging > 0; n++) {
                const url = n % 4 === 3 ? `/v1/spaces/${spaceId}/comments` : `${cr}/comments`;
                const reply = await write(log, `comment ${url}`, () => api().post(url, { body: { markdown: `Said in round ${round} on ${k}, ${n}` } }));
                if (reply.status === 200) postedComments.push({ url, id: reply.body.id });
              }
            })(),
          );
          // Page edits meanwhile move the space's head, so some merges must take their second, locking, attempt.
          work.push(
            (async () => {
              for (let n = 0; n < 10 && (n === 0 || merging > 0); n++) {
                const body = `Edited ${k}: round ${round}, ${n}.`;
                const reply = await write(log, `page edit ${k}`, () => api().post(`/v1/spaces/${spaceId}/content/page/${ids.get(`Edited ${k}`)}/import`, { source: 'markdown', url: dataUrl(`${body}\n`) }));
                if (reply.status === 201) expectedBodies.set(`Edited ${k}`, body);
              }
            })(),
          );
          work.push(
            write(log, `delete comment ${doomed[k]}`, () => api().delete(`/v1/spaces/${spaceId}/comments/${doomed[k]}`)).then((reply) => {
              if (reply.status === 204) deletedComments.add(doomed[k]);
            }),
          );
        }
        work.push(
          write(log, 'import into the space', () => api().post(`/v1/spaces/${spaceId}/content/import`, { source: 'markdown', url: dataUrl(`# Appendix ${round}\n\nAdded in round ${round}.\n`) })).then((reply) => {
            if (reply.status === 201) appended.push(`Appendix ${round}`);
          }),
        );
        work.push(write(log, 'new change request', () => api().post(`/v1/spaces/${spaceId}/change-requests`, { subject: `Opened during round ${round}` })));
        await Promise.all(work);
        assertNoServerError(log);
      }
      // How many merges took the second attempt, which holds the change request's row and then the space's.
      test.diagnostic(`${mergeRetries.count - retriesBefore} merges retried holding the rows`);

      // Every write was acknowledged (a 409 is retried above), and every acknowledged write is there.
      const refused = log.filter(({ reply }) => reply.status >= 300);
      assert.deepEqual(refused.map(({ what, reply }) => `${what}: ${reply.status} ${JSON.stringify(reply.body)}`), []);
      assert.equal(merged.length, ROUNDS * WIDTH, 'every change request merged');
      const after = await pageIds(spaceId);
      for (const [title, body] of expectedBodies) assert.match(await markdownOf(spaceId, after.get(title)!), new RegExp(body.replace(/[.]/g, '\\.')), `${title} holds its last write`);
      for (const title of appended) assert.ok(after.has(title), `${title} was imported`);
      for (const { url, id } of postedComments) assert.equal((await api().get(`${url}/${id}`)).status, 200, `comment ${id} is there`);
      for (const id of deletedComments) assert.equal((await api().get(`/v1/spaces/${spaceId}/comments/${id}`)).status, 404, `comment ${id} is gone`);
      // The open-comment counters moved once per acknowledged post and delete.
      const space = await api().get(`/v1/spaces/${spaceId}`);
      const spaceComments = postedComments.filter(({ url }) => url === `/v1/spaces/${spaceId}/comments`).length;
      const stored = await t.ctx.db.selectFrom('spaces').select('comments').where('id', '=', spaceId).executeTakeFirstOrThrow();
      assert.equal(stored.comments, spaceComments, JSON.stringify(space.body));
    });

    it('deleting the space while it is written: no 5xx, and once restored every acknowledged write is there', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, Array.from({ length: WIDTH }, (_, k) => ({ type: 'document' as const, title: `Page ${k}`, markdown: `Page ${k}: first.\n` })));
      const ids = await pageIds(spaceId);
      const log: Log = [];
      const changeRequests: string[] = [];
      for (let k = 0; k < WIDTH; k++) {
        const created = await api().post(`/v1/spaces/${spaceId}/change-requests`, { subject: `Change ${k}` });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        changeRequests.push(`/v1/spaces/${spaceId}/change-requests/${created.body.id}`);
      }
      const acknowledged: Array<() => Promise<void>> = [];
      const work: Array<Promise<unknown>> = [];
      for (let k = 0; k < WIDTH; k++) {
        work.push(
          write(log, `page edit ${k}`, () => api().post(`/v1/spaces/${spaceId}/content/page/${ids.get(`Page ${k}`)}/import`, { source: 'markdown', url: dataUrl(`Page ${k}: edited.\n`) })).then((reply) => {
            if (reply.status === 201) acknowledged.push(async () => assert.match(await markdownOf(spaceId, ids.get(`Page ${k}`)!), /edited/));
          }),
        );
        work.push(
          write(log, `comment ${k}`, () => api().post(`${changeRequests[k]}/comments`, { body: { markdown: `Comment ${k}` } })).then((reply) => {
            if (reply.status === 200) acknowledged.push(async () => assert.equal((await api().get(`${changeRequests[k]}/comments/${reply.body.id}`)).status, 200));
          }),
        );
        work.push(write(log, `merge ${k}`, () => api().post(`${changeRequests[k]}/merge`)));
        if (k === WIDTH / 2) work.push(write(log, 'delete the space', () => api().delete(`/v1/spaces/${spaceId}`)));
      }
      await Promise.all(work);
      assertNoServerError(log);
      // After the deletion a write is refused as not found (or conflicts, for a change request); nothing else.
      for (const { what, reply } of log) assert.ok([200, 201, 204, 205, 404, 409].includes(reply.status), `${what}: ${reply.status} ${JSON.stringify(reply.body)}`);
      assert.equal(log.find(({ what }) => what === 'delete the space')?.reply.status, 205);
      assert.equal((await api().post(`/v1/spaces/${spaceId}/restore`)).status, 200);
      for (const check of acknowledged) await check();
    });
  });
}

describe('the lock order is written down for every path that locks', () => {
  it('names in docs/architecture.md ("Lock order") every file that takes a row lock', () => {
    const root = join(import.meta.dirname, '..', '..');
    const docs = readFileSync(join(root, 'docs', 'architecture.md'), 'utf8');
    const section = docs.slice(docs.indexOf('## Lock order'), docs.indexOf('\n## ', docs.indexOf('## Lock order') + 1));
    assert.ok(section.length > 100, 'docs/architecture.md has a "Lock order" section');
    const files = (dir: string): string[] => readdirSync(dir).flatMap((name) => (statSync(join(dir, name)).isDirectory() ? files(join(dir, name)) : name.endsWith('.ts') ? [join(dir, name)] : []));
    // A row lock is taken by lockRows, or by a helper or loader option that wraps it.
    const locking = /\blockRows\(|\blockSpaceHead\(|\blockCommentCounter\(|\blockCollections\(|\blockOrganization\(|\{ lock: true \}|\{ lock \}|Comment\([^()]*,\s*true\)|lock \? lockRows/;
    const takers = files(join(root, 'src'))
      .map((file) => relative(root, file).split('\\').join('/'))
      .filter((file) => file !== 'src/db/locks.ts' && locking.test(readFileSync(join(root, file), 'utf8')));
    assert.ok(takers.length >= 10, `found the lock takers: ${takers.join(', ')}`);
    assert.deepEqual(takers.filter((file) => !section.includes(`\`${file}\``)), [], 'every file that locks rows is in the table');
  });
});
