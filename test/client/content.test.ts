import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/**
 * The public client, over real HTTP, reads a space's content every way it can: the current revision,
 * pages, files, a page by id and by path in both formats, and a past revision. Every answer is validated
 * against the client's document by the test app.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: content [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let api: GitBookAPI;
    let spaceId: string;
    let firstRevision: string;
    let fileId = '';
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const created = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Getting started', markdown: '# Getting started\n\nInstall Quire, then run it.\n\n{% hint style="info" %}\nIt needs Node.js 20.\n{% endhint %}\n' },
        { type: 'group', title: 'Guides', pages: [{ type: 'document', title: 'Install', markdown: 'Run `npm install`.\n' }] },
      ]);
      spaceId = created.spaceId;
      firstRevision = created.revisionId;
      await editContent(t.ctx, spaceId, async (writer) => {
        fileId = await addFile(t.ctx, writer, { name: 'diagram.png', contentType: 'image/png', bytes: Buffer.from('not really a png') });
      });
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: world.members.read.token });
    });
    after(() => t.close());

    it('reads the current revision, its pages and its files', async () => {
      const revision = await api.spaces.getCurrentRevision(spaceId);
      assert.equal(revision.data.object, 'revision');
      assert.deepEqual(revision.data.pages.map((p) => p.title), ['Getting started', 'Guides']);
      const pages = await api.spaces.listPages(spaceId);
      assert.equal(pages.data.pages.length, 2);
      const files = await api.spaces.listFiles(spaceId);
      assert.deepEqual(files.data.items.map((f) => f.name), ['diagram.png']);
      const file = await api.spaces.getFileById(spaceId, fileId);
      const download = await fetch(file.data.downloadURL.replace('http://quire.test', `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`));
      assert.equal(download.status, 200);
      assert.equal(await download.text(), 'not really a png');
    });

    it('reads a page by id and by path, as Markdown and as a document', async () => {
      const revision = await api.spaces.getCurrentRevision(spaceId);
      const first = revision.data.pages[0];
      const markdown = await api.spaces.getPageById(spaceId, first.id, { format: 'markdown' });
      assert.match((markdown.data as { markdown?: string }).markdown ?? '', /\{% hint style="info" %\}/);
      const document = await api.spaces.getPageById(spaceId, first.id, { format: 'document' });
      const nodes = (document.data as { document?: { nodes: Array<{ type: string }> } }).document?.nodes ?? [];
      assert.ok(nodes.some((node) => node.type === 'hint'));
      const byPath = await api.spaces.getPageByPath(spaceId, 'guides/install');
      assert.equal(byPath.data.title, 'Install');
    });

    it('reads a past revision', async () => {
      const past = await api.spaces.getRevisionById(spaceId, firstRevision);
      assert.equal(past.data.id, firstRevision);
      assert.equal(past.data.files.length, 0, 'the file came in a later revision');
      const pages = await api.spaces.listPagesInRevisionById(spaceId, firstRevision);
      assert.equal(pages.data.pages.length, 2);
      const page = await api.spaces.getPageInRevisionById(spaceId, firstRevision, past.data.pages[0].id, { format: 'markdown' });
      assert.equal(page.data.title, 'Getting started');
      const files = await api.spaces.listFilesInRevisionById(spaceId, firstRevision);
      assert.equal(files.data.count, 0);
    });

    it('applies a template for an editor, and refuses a reader', async () => {
      const reader = api;
      await assert.rejects(reader.spaces.applyTemplateToSpace(spaceId, { id: 'knowledge-base' }), /edit/i);
      const editor = new GitBookAPI({ endpoint: `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`, authToken: world.members.edit.token });
      const applied = await editor.spaces.applyTemplateToSpace(spaceId, { id: 'knowledge-base' });
      assert.equal(applied.status, 201);
      const pages = await editor.spaces.listPages(spaceId);
      assert.ok(pages.data.pages.length > 2, 'the template added pages after the existing ones');
      assert.deepEqual(pages.data.pages.slice(0, 2).map((p) => p.title), ['Getting started', 'Guides']);
    });
  });
}
