import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mergeRevisions } from '../../src/content/merge/index.ts';
import type { NewPage } from '../../src/content/writer.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld } from '../helpers/factories.ts';
import { bodyOf, conflicts, merged, objectCount, outlineOf, replaceLine, rootOf, scenario, smallTree, lines } from './helpers.ts';

for (const dialect of dialects) {
  describe(`merge of revisions: pages [${dialect}]`, () => {
    let t: TestApp;
    let org: string;
    before(async () => {
      t = await createTestApp(dialect);
      org = (await createWorld(t.ctx, t.app)).organizationId;
    });
    after(() => t.close());
    const setup = (ours: Parameters<typeof scenario>[3], theirs: Parameters<typeof scenario>[4]) => scenario(t.ctx, org, smallTree(), ours, theirs);

    it('fast paths: theirs is the base → ours; ours is the base → theirs; the same content → ours; nothing written', async () => {
      const s = await setup((w) => w.updatePage('a', { title: 'A!' }), (w) => w.updatePage('a', { title: 'A!' }));
      const before = await objectCount(t.ctx);
      assert.equal(merged(await mergeRevisions(t.ctx, { base: s.base, ours: s.ours, theirs: s.base })), await rootOf(t.ctx, s.ours));
      assert.equal(merged(await mergeRevisions(t.ctx, { base: s.base, ours: s.base, theirs: s.theirs })), await rootOf(t.ctx, s.theirs));
      assert.equal(merged(await s.merge()), await rootOf(t.ctx, s.ours), 'the same edit on both sides has the same root hash');
      assert.equal(await rootOf(t.ctx, s.ours), await rootOf(t.ctx, s.theirs));
      assert.equal(await objectCount(t.ctx), before);
      await assert.rejects(mergeRevisions(t.ctx, { base: s.base, ours: 'nope', theirs: s.theirs }), /No revision "nope"/);
    });

    it('a page added on one side is added where that side put it', async () => {
      const s = await setup((w) => void w.addPage({ id: 'n', type: 'document', title: 'New', markdown: 'x' }, { parent: 'b', index: 0 }), (w) => w.updatePage('c', { title: 'C!' }));
      assert.equal(await outlineOf(t.ctx, merged(await s.merge())), 'A(A1 A2) B(New B1(B11)) C!');
    });

    it('pages added at the same place on both sides: ours first, then theirs', async () => {
      const s = await setup(
        (w) => {
          w.addPage({ id: 'o1', type: 'document', title: 'O1' }, { parent: 'a', index: 1 });
          w.addPage({ id: 'o2', type: 'document', title: 'O2' }, { parent: 'a', index: 2 });
        },
        (w) => void w.addPage({ id: 't1', type: 'document', title: 'T1' }, { parent: 'a', index: 1 }),
      );
      const root = merged(await s.merge());
      assert.equal(await outlineOf(t.ctx, root), 'A(A1 O1 O2 T1 A2) B(B1(B11)) C');
      assert.equal(merged(await s.merge()), root, 'deterministic');
    });

    it('a page added under a page the other side deleted is a conflict', async () => {
      const s = await setup((w) => w.removePage('b1'), (w) => void w.addPage({ id: 'n', type: 'document', title: 'Under B11' }, { parent: 'b11' }));
      const [conflict] = conflicts(await s.merge());
      assert.equal(conflict.kind, 'deleted-and-changed');
      assert.ok('pageId' in conflict && conflict.pageId === 'n');
      assert.match(conflict.detail, /Theirs added the page under “B11”, which ours deleted/);
    });

    it('a page removed on one side and unchanged on the other is removed, with its subtree', async () => {
      const s = await setup((w) => w.removePage('b'), (w) => w.updatePage('a1', { markdown: 'changed' }));
      const root = merged(await s.merge());
      assert.equal(await outlineOf(t.ctx, root), 'A(A1 A2) C');
      assert.equal(await bodyOf(t.ctx, root, 'a1'), 'changed');
    });

    it('removed on both sides, or removed on one side while the other moved another page out of it first', async () => {
      const s = await setup((w) => w.removePage('a2'), (w) => w.removePage('a2'));
      assert.equal(await outlineOf(t.ctx, merged(await s.merge())), 'A(A1) B(B1(B11)) C');
      const u = await setup(
        (w) => {
          w.movePage('b11', { parent: null });
          w.removePage('b');
        },
        (w) => w.updatePage('c', { emoji: '🚀' }),
      );
      assert.equal(await outlineOf(t.ctx, merged(await u.merge())), 'A(A1 A2) C B11');
    });

    it('a page removed on one side and changed (body, title or place) on the other is a conflict', async () => {
      for (const change of [
        (w: Parameters<Parameters<typeof setup>[0]>[0]) => w.updatePage('a1', { markdown: 'edited' }),
        (w: Parameters<Parameters<typeof setup>[0]>[0]) => w.updatePage('a1', { title: 'Renamed' }),
        (w: Parameters<Parameters<typeof setup>[0]>[0]) => w.movePage('a1', { parent: 'c' }),
      ]) {
        const s = await setup((w) => w.removePage('a1'), change);
        const found = conflicts(await s.merge());
        assert.deepEqual(found.map((c) => [c.kind, 'pageId' in c ? c.pageId : '']), [['deleted-and-changed', 'a1']]);
        assert.match(found[0].detail, /Ours deleted the page/);
      }
    });

    it('a page whose ancestor one side deleted while the other changed it is a conflict (the other pages go)', async () => {
      const s = await setup((w) => w.updatePage('b11', { markdown: 'deep edit' }), (w) => w.removePage('b'));
      const found = conflicts(await s.merge());
      assert.equal(found.length, 1);
      assert.ok('pageId' in found[0] && found[0].pageId === 'b11');
      assert.equal('path' in found[0] && found[0].path, 'b/b1/b11');
      assert.match(found[0].detail, /Theirs deleted the page \(or a page above it\); ours changed it/);
    });

    it('a page moved on one side is moved; an edit of it on the other side applies too', async () => {
      const s = await setup((w) => w.movePage('b11', { parent: 'a', index: 0 }), (w) => w.updatePage('b11', { markdown: replaceLine(lines('B11'), 3, 'edited by theirs') }));
      const root = merged(await s.merge());
      assert.equal(await outlineOf(t.ctx, root), 'A(B11 A1 A2) B(B1) C');
      assert.match(await bodyOf(t.ctx, root, 'b11'), /edited by theirs/);
    });

    it('moved to different parents on both sides is a conflict; to the same place, none', async () => {
      const s = await setup((w) => w.movePage('c', { parent: 'a' }), (w) => w.movePage('c', { parent: 'b' }));
      const [conflict] = conflicts(await s.merge());
      assert.equal(conflict.kind, 'moved');
      assert.match(conflict.detail, /ours under “A”, theirs under “B”/);
      const u = await setup((w) => w.movePage('c', { parent: 'a', index: 0 }), (w) => w.movePage('c', { parent: 'a', index: 0 }));
      assert.equal(await outlineOf(t.ctx, merged(await u.merge())), 'A(C A1 A2) B(B1(B11))');
    });

    it('reordered among the same siblings: one side → taken; both to different places → conflict', async () => {
      const s = await setup((w) => w.movePage('c', { parent: null, index: 0 }), (w) => void w.addPage({ id: 'n', type: 'document', title: 'N' }, { parent: null, index: 1 }));
      assert.equal(await outlineOf(t.ctx, merged(await s.merge())), 'C A(A1 A2) N B(B1(B11))');
      // Ours moves C to the top, theirs moves B to the end (the same list as moving C up one): both apply.
      const v = await setup((w) => w.movePage('c', { parent: null, index: 0 }), (w) => w.movePage('c', { parent: null, index: 1 }));
      assert.equal(await outlineOf(t.ctx, merged(await v.merge())), 'C A(A1 A2) B(B1(B11))');
      // Ours moves B to the top, theirs to the end: no order keeps both.
      const u = await setup((w) => w.movePage('b', { parent: null, index: 0 }), (w) => w.movePage('b', { parent: null, index: 2 }));
      const found = conflicts(await u.merge());
      assert.ok(found.length > 0 && found.every((c) => c.kind === 'moved'));
      assert.ok(found.every((c) => 'pageId' in c && ['a', 'b', 'c'].includes(c.pageId)));
    });

    it('moves that would put a page inside itself are a conflict', async () => {
      const s = await setup((w) => w.movePage('a', { parent: 'c' }), (w) => w.movePage('c', { parent: 'a' }));
      const found = conflicts(await s.merge());
      assert.deepEqual(found.map((c) => c.kind).sort(), ['moved', 'moved']);
      assert.deepEqual(found.map((c) => ('pageId' in c ? c.pageId : '')).sort(), ['a', 'c']);
    });

    it('a page moved into a page added on the same side, edited inside by the other side', async () => {
      const s = await setup(
        (w) => {
          w.addPage({ id: 'g', type: 'document', title: 'Guide' }, { parent: null, index: 0 });
          w.movePage('b', { parent: 'g' });
        },
        (w) => w.updatePage('b11', { title: 'B11 renamed' }),
      );
      assert.equal(await outlineOf(t.ctx, merged(await s.merge())), 'Guide(B(B1(B11 renamed))) A(A1 A2) C');
    });

    it('deep trees: edits, adds and moves in different branches six levels down', async () => {
      const chain = (prefix: string, depth: number): NewPage => ({
        id: `${prefix}${depth}`,
        type: 'document',
        title: `${prefix}${depth}`,
        markdown: lines(`${prefix}${depth}`),
        ...(depth < 6 ? { pages: [chain(prefix, depth + 1)] } : {}),
      });
      const s = await scenario(
        t.ctx,
        org,
        [chain('x', 1), chain('y', 1)],
        (w) => {
          w.updatePage('x6', { markdown: replaceLine(lines('x6'), 1, 'ours was here') });
          w.movePage('y6', { parent: 'x3' });
        },
        (w) => {
          w.updatePage('x6', { markdown: replaceLine(lines('x6'), 9, 'theirs was here') });
          w.addPage({ id: 'y7', type: 'document', title: 'y7' }, { parent: 'y5' });
        },
      );
      const root = merged(await s.merge());
      assert.equal(await outlineOf(t.ctx, root), 'x1(x2(x3(x4(x5(x6)) y6))) y1(y2(y3(y4(y5(y7)))))');
      const body = await bodyOf(t.ctx, root, 'x6');
      assert.match(body, /^ours was here\n/);
      assert.match(body, /\ntheirs was here\n/);
    });
  });
}
