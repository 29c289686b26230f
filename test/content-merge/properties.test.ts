import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mergeRevisions, mergeStats } from '../../src/content/merge/index.ts';
import { loadTree, walkPages } from '../../src/content/tree.ts';
import type { NewPage, RevisionWriter } from '../../src/content/writer.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld } from '../helpers/factories.ts';
import { bodyOf, branch, conflicts, lines, merged, objectCount, replaceLine, rootOf, scenario, smallTree } from './helpers.ts';

/** A small deterministic generator, so that a failure can be replayed from its seed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/** `sections` top-level pages, each with 3 children of 2 children: ids p0, p1, … in reading order; 10-line bodies. */
function tree(sections: number): NewPage[] {
  let n = 0;
  const page = (pages?: NewPage[]): NewPage => {
    const id = `p${n++}`;
    return { id, type: 'document', title: `Page ${id}`, markdown: lines(id), ...(pages ? { pages } : {}) };
  };
  return Array.from({ length: sections }, () => {
    const top = page([]);
    for (let i = 0; i < 3; i++) {
      const child = page([]);
      for (let j = 0; j < 2; j++) child.pages!.push(page());
      top.pages!.push(child);
    }
    return top;
  });
}

type Op = (writer: RevisionWriter) => void;
type SideName = 'ours' | 'theirs';

/**
 * Random edits that never overlap: every page belongs to ours, theirs, both ("shared": ours changes line 2
 * of its body, theirs line 8) or neither. A side changes a line of the body, renames, decorates, adds
 * under, removes (leaves) and moves (to the top level or under one of its own top-level pages, so that no
 * combination of moves makes a loop) only the pages it owns. Body edits are kept as lines, so that the
 * expected content (both sides' edits applied one after the other) can be written directly.
 */
function randomEdits(random: () => number, round: number): { ours: Op[]; theirs: Op[]; bodies: Map<string, Map<number, string>>; owner: Map<string, string> } {
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)];
  const ids = Array.from({ length: 50 }, (_, i) => `p${i}`);
  const position = (id: string) => Number(id.slice(1)) % 10;
  const top = new Set(ids.filter((id) => position(id) === 0));
  const leaf = (id: string) => [2, 3, 5, 6, 8, 9].includes(position(id));
  const owner = new Map(ids.map((id) => [id, pick(['ours', 'theirs', 'shared', 'none', 'none'] as const)]));
  const ops: Record<SideName, Op[]> = { ours: [], theirs: [] };
  const bodies = new Map<string, Map<number, string>>();
  const setLine = (id: string, line: number, text: string) => {
    const changed = bodies.get(id) ?? new Map<number, string>();
    changed.set(line, text);
    bodies.set(id, changed);
  };
  for (const side of ['ours', 'theirs'] as const) {
    const own = ids.filter((id) => owner.get(id) === side);
    const ownTop = own.filter((id) => top.has(id));
    for (const id of own) {
      const tag = `${side}-${round}-${id}`;
      if (leaf(id) && random() < 0.2) {
        ops[side].push((w) => w.removePage(id));
        continue;
      }
      const kind = pick(['body', 'body', 'rename', 'emoji', 'add', 'move'] as const);
      if (kind === 'body') setLine(id, 1 + Math.floor(random() * 10), tag);
      if (kind === 'rename') ops[side].push((w) => w.updatePage(id, { title: `Renamed ${tag}` }));
      if (kind === 'emoji') ops[side].push((w) => w.updatePage(id, { emoji: side === 'ours' ? '🟢' : '🔵', hidden: true }));
      if (kind === 'add') ops[side].push((w) => void w.addPage({ id: `new-${tag}`, type: 'document', title: `New ${tag}`, markdown: tag }, { parent: id }));
      if (kind === 'move' && !top.has(id)) {
        const to = random() < 0.3 || ownTop.length === 0 ? null : pick(ownTop);
        ops[side].push((w) => w.movePage(id, { parent: to }));
      }
    }
    for (const id of ids.filter((id) => owner.get(id) === 'shared')) setLine(id, side === 'ours' ? 2 : 8, `${side}-${round}-${id}`);
  }
  return { ...ops, bodies, owner };
}

/** The body of a page of the random tree with the given line changes. */
const bodyWith = (id: string, changes: Map<number, string>) => [...changes].reduce((text, [line, value]) => replaceLine(text, line, value), lines(id));

for (const dialect of dialects) {
  describe(`merge of revisions: properties [${dialect}]`, () => {
    let t: TestApp;
    let org: string;
    before(async () => {
      t = await createTestApp(dialect);
      org = (await createWorld(t.ctx, t.app)).organizationId;
    });
    after(() => t.close());

    it('is idempotent: the same merge twice gives the same root, and writes nothing the second time', async () => {
      const s = await scenario(t.ctx, org, smallTree(), (w) => w.updatePage('a1', { markdown: replaceLine(lines('A1'), 1, 'ours') }), (w) => w.updatePage('a1', { markdown: replaceLine(lines('A1'), 9, 'theirs') }));
      const first = merged(await s.merge());
      const count = await objectCount(t.ctx);
      assert.equal(merged(await s.merge()), first);
      assert.equal(await objectCount(t.ctx), count);
    });

    it('a conflicting merge writes nothing', async () => {
      const s = await scenario(
        t.ctx,
        org,
        smallTree(),
        (w) => {
          w.updatePage('a1', { markdown: 'ours' });
          w.addPage({ type: 'document', title: 'Extra', markdown: 'a new body' });
          w.updatePage('c', { title: 'C ours' });
        },
        (w) => {
          w.updatePage('a1', { markdown: 'theirs' });
          w.updatePage('c', { title: 'C theirs' });
        },
      );
      const before = await objectCount(t.ctx);
      assert.deepEqual(conflicts(await s.merge()).map((c) => c.kind).sort(), ['body', 'title']);
      assert.equal(await objectCount(t.ctx), before);
    });

    it('reads only the changed nodes and writes only what neither side has: a 200-page space', async () => {
      const s = await scenario(t.ctx, org, tree(20), (w) => w.updatePage('p13', { markdown: 'ours' }), (w) => w.updatePage('p157', { title: 'Theirs' }));
      const before = await objectCount(t.ctx);
      const root = merged(await s.merge());
      // Each side: the root lists, then the changed path (3 nodes) on both sides of the diff.
      if (process.env.QUIRE_TEST_LOG) console.log(`200 pages: ${mergeStats.nodesRead} nodes read`);
      assert.ok(mergeStats.nodesRead <= 12, `read ${mergeStats.nodesRead} nodes`);
      assert.equal(mergeStats.bodiesRead, 0);
      assert.equal(mergeStats.objectsWritten, 1, 'only the root object: each changed section is one side’s node');
      assert.equal((await objectCount(t.ctx)) - before, 1);
      assert.equal(await bodyOf(t.ctx, root, 'p13'), 'ours');

      // Both sides in one section: the section node is new too.
      const u = await scenario(t.ctx, org, tree(20), (w) => w.updatePage('p13', { markdown: 'ours' }), (w) => w.updatePage('p17', { title: 'Theirs' }));
      merged(await u.merge());
      assert.equal(mergeStats.objectsWritten, 2);
    });

    it('random non-overlapping edits of a 50-page tree always merge, into exactly both sides’ edits', async () => {
      const { spaceId, revisionId: base } = await createSpaceWithPages(t.ctx, org, tree(5));
      const random = generator(dialect === 'sqlite' ? 7 : 11);
      for (let round = 0; round < 30; round++) {
        const edits = randomEdits(random, round);
        const bodyOps = (side: SideName | 'both'): Op[] =>
          [...edits.bodies].flatMap(([id, changes]) => {
            const kept = new Map([...changes].filter(([, value]) => side === 'both' || value.startsWith(`${side}-`)));
            return kept.size > 0 ? [(w: RevisionWriter) => w.updatePage(id, { markdown: bodyWith(id, kept) })] : [];
          });
        const ours = await branch(t.ctx, spaceId, base, (w) => [...bodyOps('ours'), ...edits.ours].forEach((op) => op(w)));
        const theirs = await branch(t.ctx, spaceId, base, (w) => [...bodyOps('theirs'), ...edits.theirs].forEach((op) => op(w)));
        const both = await branch(t.ctx, spaceId, base, (w) => [...bodyOps('both'), ...edits.ours, ...edits.theirs].forEach((op) => op(w)));
        if (process.env.QUIRE_TEST_LOG) console.log(`round ${round}: ${edits.ours.length} + ${edits.theirs.length} edits, ${edits.bodies.size} bodies`);
        const result = await mergeRevisions(t.ctx, { base, ours, theirs });
        assert.equal(merged(result), await rootOf(t.ctx, both), `round ${round}: the merge holds exactly ours' edits and theirs'`);
        // The other way round it merges too (the same pages; siblings both sides added may come in another order).
        const reversed = await loadTree(t.ctx, merged(await mergeRevisions(t.ctx, { base, ours: theirs, theirs: ours })));
        const expected = await loadTree(t.ctx, await rootOf(t.ctx, both));
        assert.deepEqual(new Set(reversed.byId.keys()), new Set(expected.byId.keys()));
        for (const [id, page] of expected.byId) {
          const other = reversed.byId.get(id)!;
          assert.equal(other.hash === page.hash || other.node.children.length > 0, true, `round ${round}: page ${id}`);
          assert.equal(other.parentId, page.parentId);
          assert.equal(other.node.body, page.node.body);
          assert.equal(other.node.title, page.node.title);
        }
      }
    });

    it('random edits that may overlap never break the merge: conflicts write nothing, merges keep what both sides keep', async () => {
      const { spaceId, revisionId: base } = await createSpaceWithPages(t.ctx, org, tree(5));
      const random = generator(dialect === 'sqlite' ? 3 : 5);
      const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
      const edit = (side: string, round: number) => (w: RevisionWriter) => {
        for (let i = 0; i < 12; i++) {
          const all = (function walk(parent: string | null): string[] {
            return w.children(parent).flatMap((id) => [id, ...walk(id)]);
          })(null);
          const id = pick(all);
          const kind = pick(['body', 'title', 'emoji', 'add', 'move', 'move', 'remove'] as const);
          try {
            if (kind === 'body') w.updatePage(id, { markdown: replaceLine(lines(id), 1 + Math.floor(random() * 10), `${side} ${round} ${i}`) });
            if (kind === 'title') w.updatePage(id, { title: `${side} ${round} ${i}` });
            if (kind === 'emoji') w.updatePage(id, { emoji: pick(['🟢', '🔵']) });
            if (kind === 'add') w.addPage({ id: `${side}-${round}-${i}`, type: 'document', title: `Added ${i}` }, { parent: random() < 0.2 ? null : id, index: Math.floor(random() * 3) });
            if (kind === 'move') w.movePage(id, { parent: random() < 0.2 ? null : pick(all), index: Math.floor(random() * 3) });
            if (kind === 'remove' && all.length > 20) w.removePage(id);
          } catch (error) {
            if (!/inside itself/.test(String(error))) throw error;
          }
        }
      };
      let merges = 0;
      for (let round = 0; round < 25; round++) {
        const ours = await branch(t.ctx, spaceId, base, edit('ours', round));
        const theirs = await branch(t.ctx, spaceId, base, edit('theirs', round));
        const before = await objectCount(t.ctx);
        const result = await mergeRevisions(t.ctx, { base, ours, theirs });
        if (result.result === 'conflicts') {
          assert.ok(result.conflicts.length > 0);
          assert.equal(await objectCount(t.ctx), before, `round ${round}: a conflicting merge writes nothing`);
          continue;
        }
        merges++;
        const [o, th, m] = [await loadTree(t.ctx, await rootOf(t.ctx, ours)), await loadTree(t.ctx, await rootOf(t.ctx, theirs)), await loadTree(t.ctx, result.root)];
        let count = 0;
        for (const _page of walkPages(m.pages)) count++;
        assert.equal(count, m.size, `round ${round}: every page once`);
        for (const id of o.byId.keys()) if (th.byId.has(id)) assert.ok(m.byId.has(id), `round ${round}: ${id}, on both sides, is kept`);
        for (const id of m.byId.keys()) assert.ok(o.byId.has(id) || th.byId.has(id), `round ${round}: ${id} comes from a side`);
      }
      if (process.env.QUIRE_TEST_LOG) console.log(`overlapping random edits: ${merges} of 25 rounds merged`);
      assert.ok(merges > 0, 'some rounds merge');
    });
  });
}
