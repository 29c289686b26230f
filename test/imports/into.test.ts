import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree } from '../../src/content/tree.ts';
import { importInto, loadImport, prepareImport } from '../../src/imports/index.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { buildZip, dataUrl } from './helpers.ts';

for (const dialect of dialects) {
  describe(`importInto: any revision line [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const titles = async (revisionId: string) => {
      const revision = await findRevision(t.ctx, revisionId);
      return (await loadTree(t.ctx, revision!.root)).pages.map((page) => page.node.title);
    };

    it('writes one revision over the base it is given and moves no pointer', async () => {
      const { spaceId, revisionId: base } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Existing' }]);
      const result = await importInto(t.ctx, { baseRevisionId: base, spaceId, source: 'markdown', url: dataUrl('text/markdown', '# Imported\n\nText.') });
      assert.deepEqual([result.importedResources, result.totalResources], [1, 1]);
      assert.equal(await currentRevision(t.ctx, spaceId), base, 'the space still points where it did');
      const revision = await findRevision(t.ctx, result.revisionId);
      assert.deepEqual([revision?.spaceId, revision?.type, revision?.parents], [spaceId, 'edits', [base]]);
      assert.deepEqual(await titles(result.revisionId), ['Existing', 'Imported']);
    });

    it('a prepared import is laid again when the base moved on in the meantime', async () => {
      const { spaceId, revisionId: first } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'One' }]);
      const zip = buildZip([{ name: 'a.md', data: 'See [b](b.md).' }, { name: 'b.md', data: '# B' }]);
      const content = await loadImport(t.ctx, { source: 'zip', url: dataUrl('application/zip', zip) });
      const prepared = await prepareImport(t.ctx, content, { baseRevisionId: first, spaceId });
      const second = await editContent(t.ctx, spaceId, (writer) => void writer.addPage({ type: 'document', title: 'Two' }));
      const result = await importInto(t.ctx, { baseRevisionId: second, spaceId, prepared });
      assert.deepEqual((await findRevision(t.ctx, result.revisionId))?.parents, [second]);
      assert.deepEqual(await titles(result.revisionId), ['One', 'Two', 'A', 'B']);
      const reused = await importInto(t.ctx, { baseRevisionId: first, spaceId, prepared });
      assert.deepEqual(await titles(reused.revisionId), ['One', 'A', 'B']);
    });
  });
}
