import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { NodeReader, SideDiff, settle } from '../../src/content/merge/diff.ts';
import { collectPages } from '../../src/content/merge/pages.ts';
import { loadTree, type RevisionTree } from '../../src/content/tree.ts';
import type { RevisionWriter } from '../../src/content/writer.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, manyPages } from '../helpers/content-factory.ts';
import { createWorld } from '../helpers/factories.ts';
import { branch, rootOf } from './helpers.ts';

function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

/**
 * The lazy diff against whole trees: for every page that either side touched, the version the diff found
 * on each side (absent, or node hash and parent) is the one the whole tree holds; every page it did not
 * touch has the same hash and parent in all three trees (or is in none).
 */
for (const dialect of dialects) {
  describe(`merge of revisions: the lazy diff [${dialect}]`, () => {
    let t: TestApp;
    let org: string;
    before(async () => {
      t = await createTestApp(dialect);
      org = (await createWorld(t.ctx, t.app)).organizationId;
    });
    after(() => t.close());

    it('finds exactly what whole trees find, for random edits (moves, removals, additions) of a 120-page space', async () => {
      const { spaceId, revisionId: base } = await createSpaceWithPages(t.ctx, org, manyPages(120));
      const random = generator(dialect === 'sqlite' ? 42 : 43);
      const pick = <T>(items: T[]) => items[Math.floor(random() * items.length)];
      const edit = (side: string, round: number) => (w: RevisionWriter) => {
        const count = 1 + Math.floor(random() * 10);
        for (let i = 0; i < count; i++) {
          const all = (function walk(parent: string | null): string[] {
            return w.children(parent).flatMap((id) => [id, ...walk(id)]);
          })(null);
          const id = pick(all);
          const kind = pick(['body', 'title', 'add', 'add-move', 'move', 'move', 'remove'] as const);
          try {
            if (kind === 'body') w.updatePage(id, { markdown: `${side} ${round} ${i}` });
            if (kind === 'title') w.updatePage(id, { title: `${side} ${round} ${i}` });
            if (kind === 'add') w.addPage({ id: `${side}-${round}-${i}`, type: 'document', title: 'Added' }, { parent: random() < 0.2 ? null : id });
            if (kind === 'add-move') {
              const added = w.addPage({ id: `${side}-${round}-${i}`, type: 'document', title: 'Holder' }, { parent: random() < 0.5 ? null : pick(all) });
              w.movePage(id, { parent: added });
            }
            if (kind === 'move') w.movePage(id, { parent: random() < 0.2 ? null : pick(all), index: Math.floor(random() * 4) });
            if (kind === 'remove' && all.length > 60) w.removePage(id);
          } catch (error) {
            if (!/inside itself/.test(String(error))) throw error;
          }
        }
      };
      const version = (tree: RevisionTree, id: string) => {
        const page = tree.byId.get(id);
        return page ? { hash: page.hash, parent: page.parentId } : undefined;
      };
      for (let round = 0; round < 40; round++) {
        const ours = await branch(t.ctx, spaceId, base, edit('ours', round));
        const theirs = await branch(t.ctx, spaceId, base, edit('theirs', round));
        const [b, o, th] = await Promise.all([base, ours, theirs].map(async (revision) => loadTree(t.ctx, await rootOf(t.ctx, revision))));
        const reader = new NodeReader();
        const diffs = [new SideDiff(reader, b.root, o.root), new SideDiff(reader, b.root, th.root)];
        await settle(t.ctx, reader, diffs);
        const entries = collectPages(diffs[0], diffs[1]);
        const shape = (placed: { hash: string; parent: string | null } | undefined) => placed && { hash: placed.hash, parent: placed.parent };
        for (const entry of entries.values()) {
          assert.deepEqual(shape(entry.base), version(b, entry.id), `round ${round}: base of ${entry.id}`);
          assert.deepEqual(shape(entry.ours), version(o, entry.id), `round ${round}: ours of ${entry.id}`);
          assert.deepEqual(shape(entry.theirs), version(th, entry.id), `round ${round}: theirs of ${entry.id}`);
        }
        // A page the diff did not touch is the same on the side, or went with a page above it that the side removed.
        const removedWithAncestor = (side: 'ours' | 'theirs', id: string) => {
          for (let at = b.byId.get(id)?.parentId ?? null; at !== null; at = b.byId.get(at)?.parentId ?? null) {
            const entry = entries.get(at);
            if (entry && entry.base && !entry[side]) return true;
          }
          return false;
        };
        for (const id of new Set([...b.byId.keys(), ...o.byId.keys(), ...th.byId.keys()])) {
          if (entries.has(id)) continue;
          for (const [side, tree] of [['ours', o], ['theirs', th]] as const) {
            if (version(tree, id) === undefined && removedWithAncestor(side, id)) continue;
            assert.deepEqual(version(tree, id), version(b, id), `round ${round}: ${id} untouched by ${side}`);
          }
        }
        assert.ok(reader.read < b.size, `round ${round}: read ${reader.read} nodes`);
      }
    });
  });
}
