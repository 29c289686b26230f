import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mergeRevisions, mergeStats } from '../../src/content/merge/index.ts';
import { objectHash } from '../../src/content/objects.ts';
import { canonicalJson } from '../../src/content/revisions.ts';
import { loadTree } from '../../src/content/tree.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { createWorld } from '../helpers/factories.ts';
import { bodyOf, branch, conflicts, lines, merged, objectCount, replaceLine, scenario, smallTree } from './helpers.ts';

for (const dialect of dialects) {
  describe(`merge of revisions: settings, bodies, files, variables [${dialect}]`, () => {
    let t: TestApp;
    let org: string;
    before(async () => {
      t = await createTestApp(dialect);
      org = (await createWorld(t.ctx, t.app)).organizationId;
    });
    after(() => t.close());
    const setup = (ours: Parameters<typeof scenario>[3], theirs: Parameters<typeof scenario>[4]) => scenario(t.ctx, org, smallTree(), ours, theirs);

    it('a rename on one side and other settings on the other are all taken', async () => {
      const s = await setup((w) => w.updatePage('a1', { title: 'First', hidden: true }), (w) => w.updatePage('a1', { emoji: '🚀', description: 'About A1' }));
      const page = (await loadTree(t.ctx, merged(await s.merge()))).byId.get('a1')!;
      assert.equal(page.node.title, 'First');
      assert.equal(page.node.hidden, true);
      assert.equal(page.node.emoji, '🚀');
      assert.equal(page.node.description, 'About A1');
      assert.equal(page.path, 'a/first');
    });

    it('renamed differently on both sides is a "title" conflict; the same rename is none', async () => {
      const s = await setup((w) => w.updatePage('c', { title: 'Ours' }), (w) => w.updatePage('c', { title: 'Theirs' }));
      const [conflict] = conflicts(await s.merge());
      assert.deepEqual([conflict.kind, conflict.title, 'path' in conflict && conflict.path], ['title', 'Ours', 'ours']);
      assert.match(conflict.detail, /ours: "Ours", theirs: "Theirs"/);
      const u = await setup((w) => w.updatePage('c', { title: 'Same', emoji: '📘' }), (w) => w.updatePage('c', { title: 'Same', description: 'd' }));
      const page = (await loadTree(t.ctx, merged(await u.merge()))).byId.get('c')!;
      assert.deepEqual([page.node.title, page.node.emoji, page.node.description], ['Same', '📘', 'd']);
    });

    it('a setting changed differently on both sides is a "settings" conflict; layout options merge one by one', async () => {
      const s = await setup((w) => w.updatePage('b', { description: 'one' }), (w) => w.updatePage('b', { description: 'two' }));
      const [conflict] = conflicts(await s.merge());
      assert.equal(conflict.kind, 'settings');
      assert.match(conflict.detail, /"description"/);
      const u = await setup((w) => w.updatePage('b', { layout: { width: 'wide' } }), (w) => w.updatePage('b', { layout: { outline: false } }));
      assert.deepEqual((await loadTree(t.ctx, merged(await u.merge()))).byId.get('b')!.node.layout, { width: 'wide', outline: false });
      const v = await setup((w) => w.updatePage('b', { layout: { width: 'wide' }, hidden: true }), (w) => w.updatePage('b', { layout: { width: 'default', pagination: false } }));
      const found = conflicts(await v.merge());
      assert.deepEqual(found.map((c) => c.kind), ['settings']);
      assert.match(found[0].detail, /"layout.width"/);
    });

    it('a body changed on one side only is taken, without reading any body', async () => {
      const s = await setup((w) => w.updatePage('b1', { markdown: 'ours only' }), (w) => w.updatePage('a2', { title: 'A2!' }));
      const root = merged(await s.merge());
      assert.equal(await bodyOf(t.ctx, root, 'b1'), 'ours only');
      await s.merge();
      assert.equal(mergeStats.bodiesRead, 0);
    });

    it('non-overlapping edits of one body merge line by line', async () => {
      const base = lines('A1');
      const s = await setup(
        (w) => w.updatePage('a1', { markdown: replaceLine(base, 2, 'ours changed line 2') + '\nours appended' }),
        (w) => w.updatePage('a1', { markdown: replaceLine(replaceLine(base, 6, 'theirs changed line 6'), 8, 'theirs changed line 8') }),
      );
      const body = await bodyOf(t.ctx, merged(await s.merge()), 'a1');
      const expected = replaceLine(replaceLine(replaceLine(base, 2, 'ours changed line 2'), 6, 'theirs changed line 6'), 8, 'theirs changed line 8') + '\nours appended';
      assert.equal(body, expected);
    });

    it('overlapping edits of one body are a "body" conflict that names the lines; the same edit on both is none', async () => {
      const base = lines('A1');
      const s = await setup((w) => w.updatePage('a1', { markdown: replaceLine(base, 4, 'ours') }), (w) => w.updatePage('a1', { markdown: replaceLine(base, 4, 'theirs') }));
      const [conflict] = conflicts(await s.merge());
      assert.equal(conflict.kind, 'body');
      assert.ok('pageId' in conflict && conflict.pageId === 'a1');
      assert.equal('path' in conflict && conflict.path, 'a/a1');
      assert.match(conflict.detail, /line 4 of the common version/);
      const adjacent = await setup((w) => w.updatePage('a1', { markdown: replaceLine(base, 4, 'ours') }), (w) => w.updatePage('a1', { markdown: replaceLine(base, 5, 'theirs') }));
      assert.match(conflicts(await adjacent.merge())[0].detail, /lines 4–5/);
      const same = await setup(
        (w) => w.updatePage('a1', { markdown: replaceLine(base, 4, 'same') + '\nours' }),
        (w) => w.updatePage('a1', { markdown: replaceLine(replaceLine(base, 4, 'same'), 9, 'theirs') }),
      );
      assert.equal(await bodyOf(t.ctx, merged(await same.merge()), 'a1'), replaceLine(replaceLine(base, 4, 'same'), 9, 'theirs') + '\nours');
    });

    it('a body emptied on one side and edited on the other conflicts; emptied on both is empty', async () => {
      const s = await setup((w) => w.updatePage('c', { markdown: null }), (w) => w.updatePage('c', { markdown: replaceLine(lines('C'), 3, 'x') }));
      assert.equal(conflicts(await s.merge())[0].kind, 'body');
      const u = await setup((w) => w.updatePage('c', { markdown: null }), (w) => w.updatePage('c', { markdown: null, title: 'Empty' }));
      assert.equal(await bodyOf(t.ctx, merged(await u.merge()), 'c'), '');
    });

    it('files: added on either side are kept, removed on one side removed, renamed on one side renamed', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, org, smallTree());
      const base = await editContent(t.ctx, spaceId, async (w) => {
        await addFile(t.ctx, w, { id: 'f-gone', name: 'gone.txt', contentType: 'text/plain', bytes: 'gone' });
        await addFile(t.ctx, w, { id: 'f-keep', name: 'keep.txt', contentType: 'text/plain', bytes: 'keep' });
        await addFile(t.ctx, w, { id: 'f-both', name: 'both.txt', contentType: 'text/plain', bytes: 'both' });
      });
      const ours = await branch(t.ctx, spaceId, base, async (w) => {
        await addFile(t.ctx, w, { id: 'f-ours', name: 'ours.txt', contentType: 'text/plain', bytes: 'ours' });
        w.removeFile('f-gone');
        w.updateFile('f-keep', { name: 'kept.txt' });
      });
      const theirs = await branch(t.ctx, spaceId, base, async (w) => {
        await addFile(t.ctx, w, { id: 'f-theirs', name: 'theirs.txt', contentType: 'text/plain', bytes: 'theirs' });
        w.updateFile('f-keep', { git: { oid: 'abc', path: 'files/keep.txt' } });
      });
      const root = merged(await mergeRevisions(t.ctx, { base, ours, theirs }));
      const tree = await loadTree(t.ctx, root);
      assert.equal(objectHash('root', canonicalJson(tree.root)), root, 'the root object is canonical JSON');
      assert.deepEqual(
        tree.root.files.map((file) => [file.id, file.name]),
        [['f-keep', 'kept.txt'], ['f-both', 'both.txt'], ['f-ours', 'ours.txt'], ['f-theirs', 'theirs.txt']],
      );
      assert.deepEqual(tree.files.get('f-keep')!.git, { oid: 'abc', path: 'files/keep.txt' });

      // Changed differently on both sides, or deleted on one side and changed on the other: conflicts.
      const ours2 = await branch(t.ctx, spaceId, base, async (w) => {
        w.updateFile('f-both', { name: 'ours-name.txt' });
        w.removeFile('f-keep');
      });
      const theirs2 = await branch(t.ctx, spaceId, base, async (w) => {
        w.updateFile('f-both', { name: 'theirs-name.txt' });
        w.updateFile('f-keep', { name: 'renamed.txt' });
      });
      const before = await objectCount(t.ctx);
      const found = conflicts(await mergeRevisions(t.ctx, { base, ours: ours2, theirs: theirs2 }));
      assert.deepEqual(found.map((c) => [c.kind, 'fileId' in c ? c.fileId : '']).sort(), [['file', 'f-both'], ['file', 'f-keep']]);
      assert.match(found.find((c) => 'fileId' in c && c.fileId === 'f-keep')!.detail, /Ours deleted the file, theirs changed it/);
      assert.equal(await objectCount(t.ctx), before);
    });

    it('space variables merge key by key; the same key set differently is a "variable" conflict', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, org, smallTree());
      const base = await editContent(t.ctx, spaceId, (w) => w.setVariables({ version: '1.0', product: 'Quire', gone: 'x' }));
      const ours = await branch(t.ctx, spaceId, base, (w) => w.setVariables({ version: '2.0', product: 'Quire', gone: 'x', beta: true }));
      const theirs = await branch(t.ctx, spaceId, base, (w) => w.setVariables({ version: '1.0', product: 'Quire Docs', year: 2026 }));
      const root = merged(await mergeRevisions(t.ctx, { base, ours, theirs }));
      const tree = await loadTree(t.ctx, root);
      assert.equal(objectHash('root', canonicalJson(tree.root)), root);
      assert.deepEqual(tree.root.variables, { beta: true, product: 'Quire Docs', version: '2.0', year: 2026 });
      const conflicting = await branch(t.ctx, spaceId, base, (w) => w.setVariables({ version: '3.0', product: 'Quire', gone: 'x' }));
      const found = conflicts(await mergeRevisions(t.ctx, { base, ours, theirs: conflicting }));
      assert.deepEqual(found.map((c) => [c.kind, 'variable' in c ? c.variable : '']), [['variable', 'version']]);
    });

    it('page variables merge key by key too', async () => {
      const s = await setup((w) => w.updatePage('a', { variables: { plan: 'pro' } }), (w) => w.updatePage('a', { variables: { region: 'eu' } }));
      assert.deepEqual((await loadTree(t.ctx, merged(await s.merge()))).byId.get('a')!.node.variables, { plan: 'pro', region: 'eu' });
    });
  });
}
