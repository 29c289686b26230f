import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { buildZip, dataUrl } from '../imports/helpers.ts';
import type { PageNode } from '../../src/content/nodes.ts';
import type { RevisionRoot } from '../../src/content/revisions.ts';
import { BUILD_PAUSE_EVERY, buildStats, buildTree, buildTreeInSteps, cachedTree, walkPages, type RevisionTree } from '../../src/content/tree.ts';
import { RevisionWriter } from '../../src/content/writer.ts';
import { indexSpace, WRITE_CHUNK, WRITE_CHUNK_CHARS, writeStats } from '../../src/search/indexer.ts';
import { runJobs } from '../git/helpers.ts';

/**
 * Issue 24, round three: what was left holding `/readyz` during a large import. The tree of a new revision
 * (paths, slugs and page files of every page) is built in steps with pauses for the event loop, and before
 * the transaction that commits an import, never inside it (SQLite serves every request through one
 * connection); the search index of a large import is written in transactions between which requests are
 * answered. These tests check that structure with a reader of `/readyz` that asks again at every turn of
 * the event loop (setImmediate): it is answered during a step of the work only if the work gave the loop
 * (and, on SQLite, the connection) back. No timing is asserted; scripts/readyz-probe.ts measures.
 */

const ENTRIES = 3_000;
// Each entry names a file of its own: a path named twice is one page and links to it (decision 0111), and these
// tests are about the work of many pages.
const bigSummary = (entries: number) => `# Summary\n\n${Array.from({ length: entries }, (_, i) => `* [P${i}](p${i}.md)`).join('\n')}\n`;
const pagesOf = (entries: number) => Array.from({ length: entries }, (_, i) => ({ name: `p${i}.md`, data: `# P${i}\n\nText of page ${i}.\n` }));

/** A root and nodes of `count` pages: groups at the top, documents nested three deep, titles that repeat (so slugs need suffixes). */
function nodesOf(count: number): { root: RevisionRoot; nodes: Map<string, PageNode> } {
  const nodes = new Map<string, PageNode>();
  const top: string[] = [];
  let made = 0;
  const make = (depth: number, type: 'group' | 'document'): string => {
    const id = `p${made++}`;
    const children: string[] = [];
    if (depth < 3) for (let i = 0; i < 4 && made < count; i++) children.push(make(depth + 1, 'document'));
    nodes.set(id, { id, type, title: `Page ${made % 7}`, children, ...(made % 5 === 0 ? { git: { path: `same/${made % 3}.md`, oid: '' } } : {}) } as PageNode);
    return id;
  };
  while (made < count) top.push(make(0, top.length % 2 === 0 ? 'group' : 'document'));
  return { root: { pages: top, files: [], reusableContents: [], variables: {} }, nodes };
}

/** What a tree says of each page: id, slug, path, file, parent, children. */
const shape = (tree: RevisionTree) => [...walkPages(tree.pages)].map((page) => [page.node.id, page.slug, page.path, page.file, page.parentId, page.pages.length].join('|'));

/** Runs `work` while a reader asks /readyz again at every turn of the event loop; calls `sample` at each answer. */
async function whileReadingEveryTurn(t: TestApp, work: () => Promise<void>, sample: () => void): Promise<void> {
  let running = true;
  const failures: string[] = [];
  const reader = (async () => {
    while (running) {
      const ready = await t.app.inject({ method: 'GET', url: '/readyz' });
      if (ready.statusCode !== 200) failures.push(`/readyz answered ${ready.statusCode}`);
      if (running) sample();
      await new Promise((resolve) => setImmediate(resolve));
    }
  })();
  try {
    await work();
  } finally {
    running = false;
    await reader;
  }
  assert.deepEqual(failures, []);
}

describe('a tree is built in steps', () => {
  it('builds the same tree as the one-pass build, pausing every BUILD_PAUSE_EVERY pages', async () => {
    const { root, nodes } = nodesOf(5_000);
    const before = buildStats.pauses;
    const stepwise = await buildTreeInSteps('r', root, nodes);
    assert.ok(buildStats.pauses - before >= Math.floor(5_000 / BUILD_PAUSE_EVERY), `paused ${buildStats.pauses - before} times`);
    assert.equal(stepwise.size, 5_000);
    assert.deepEqual(shape(stepwise), shape(buildTree('r', root, nodes)));
    assert.deepEqual([...stepwise.byPath.keys()], [...buildTree('r', root, nodes).byPath.keys()]);
  });

  it('refuses a tree deeper than a page may nest, in steps as in one pass', async () => {
    const nodes = new Map<string, PageNode>();
    for (let i = 0; i < 70; i++) nodes.set(`d${i}`, { id: `d${i}`, type: 'document', title: `D${i}`, children: i < 69 ? [`d${i + 1}`] : [] } as PageNode);
    const root: RevisionRoot = { pages: ['d0'], files: [], reusableContents: [], variables: {} };
    assert.throws(() => buildTree('deep', root, nodes), /deeper than 64 levels/);
    await assert.rejects(buildTreeInSteps('deep', root, nodes), /deeper than 64 levels/);
    assert.equal(buildStats.building, 0);
  });
});

for (const dialect of dialects) {
  describe(`large imports give the event loop and the database back [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    it('a writer written again without a change (an import: before its transaction, then in it) builds nothing more and caches the tree only then; a change writes a new root', async () => {
      const writer = RevisionWriter.empty(t.ctx);
      for (let i = 0; i < 50; i++) writer.addPage({ type: 'document', title: `P${i}`, markdown: `Text ${i}.` });
      const started = buildStats.builds;
      const first = await writer.write(t.ctx, { remember: false });
      assert.equal(buildStats.builds, started + 1, 'the first write built the new tree');
      assert.equal(cachedTree(first), undefined, 'a tree written before the commit is not cached yet');
      assert.equal(await writer.write(t.ctx), first);
      assert.equal(buildStats.builds, started + 1, 'the second write built no tree');
      assert.equal(cachedTree(first)?.size, 50, 'the commit cached the tree');
      writer.updatePage(writer.children()[0], { title: 'Changed' });
      const second = await writer.write(t.ctx);
      assert.notEqual(second, first);
      assert.equal(buildStats.builds, started + 2, 'a write after a change builds the new tree');
    });

    it('the index of long pages is written in transactions bounded by their text, not only by their rows', async () => {
      // WRITE_CHUNK + 10 pages of 20,000 characters each: two transactions by rows, three by text.
      const count = WRITE_CHUNK + 10;
      const pages = Array.from({ length: count }, (_, i) => ({ type: 'document' as const, title: `Long ${i}`, markdown: `Page ${i}. ${'word '.repeat(4_000)}` }));
      assert.ok(count * 20_000 > 2 * WRITE_CHUNK_CHARS);
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, pages);
      const before = writeStats.transactions;
      const report = await indexSpace(t.ctx, spaceId);
      assert.equal(report.written, count);
      // The first (marks the index as matching no root), at least three of rows, the last (records the root).
      assert.ok(writeStats.transactions - before >= 5, `${writeStats.transactions - before} transactions`);
      const indexed = await t.ctx.db.selectFrom('search_pages').select((eb) => eb.fn.countAll<number>().as('n')).where('space_id', '=', spaceId).executeTakeFirstOrThrow();
      assert.equal(Number(indexed.n), count);
    });

    it(`a zip import of a SUMMARY.md of ${ENTRIES.toLocaleString('en-US')} entries answers /readyz while it builds its tree and while it writes its index`, async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Intro', markdown: 'Hello.' }]);
      const zip = dataUrl('application/zip', buildZip([{ name: 'SUMMARY.md', data: bigSummary(ENTRIES) }, ...pagesOf(ENTRIES)]));
      let duringBuild = 0;
      let duringIndex = 0;
      let status = 0;
      await whileReadingEveryTurn(
        t,
        async () => {
          const reply = await world.members.edit.api.post(`/v1/spaces/${spaceId}/content/import`, { source: 'zip', url: zip });
          status = reply.status;
          await runJobs(t.ctx);
        },
        () => {
          if (buildStats.building > 0) duringBuild++;
          if (writeStats.chunkedWrites > 0) duringIndex++;
        },
      );
      assert.equal(status, 201);
      assert.ok(duringBuild > 0, '/readyz was answered while the tree of the import was being built');
      assert.ok(duringIndex > 0, '/readyz was answered between the transactions that write the index');
      const indexed = await t.ctx.db.selectFrom('search_pages').select((eb) => eb.fn.countAll<number>().as('n')).where('space_id', '=', spaceId).executeTakeFirstOrThrow();
      assert.equal(Number(indexed.n), ENTRIES + 1);
      const root = await t.ctx.db.selectFrom('spaces').innerJoin('revisions', 'revisions.id', 'spaces.revision_id').select('revisions.root').where('spaces.id', '=', spaceId).executeTakeFirstOrThrow();
      const recorded = await t.ctx.db.selectFrom('search_spaces').select('root_hash').where('space_id', '=', spaceId).executeTakeFirstOrThrow();
      assert.equal(recorded.root_hash, root.root, 'the index records the root it matches once every chunk is written');
    });
  });
}
