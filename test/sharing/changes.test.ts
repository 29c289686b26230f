import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI } from '@gitbook/api';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { lineDiff } from '../../src/content/changes.ts';

type Change = { type: string; page?: { id: string; title: string }; parent?: { before?: { id: string }; after?: { id: string } }; attributes?: Record<string, { before?: unknown; after?: unknown }>; diff?: string; file?: { name: string; downloadURL: string }; reusableContent?: { id: string }; variables?: Record<string, unknown> };

/** The changes of a change request and of a revision: pages, files, reusable contents, variables, with Markdown diffs. */
for (const dialect of dialects) {
  describe(`change request and revision changes [${dialect}]`, () => {
    let t: TestApp;
    let w: World;
    let api: GitBookAPI;
    before(async () => {
      t = await createTestApp(dialect);
      w = await createWorld(t.ctx, t.app, t.clock);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: w.members.read.token });
    });
    after(() => t.close());

    async function setup() {
      const { spaceId } = await createSpaceWithPages(t.ctx, w.organizationId, [
        { type: 'document', title: 'A', markdown: 'One.\n\nTwo.\n\nThree.\n' },
        { type: 'document', title: 'B', markdown: 'Bee.\n' },
        { type: 'document', title: 'C', markdown: 'Sea.\n', pages: [{ type: 'document', title: 'C1', markdown: 'Under sea.\n' }] },
      ]);
      const pages = (await w.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string; pages: Array<{ id: string }> }>;
      const id = (title: string) => pages.find((page) => page.title === title)!.id;
      return { spaceId, a: id('A'), b: id('B'), c: id('C'), c1: pages.find((page) => page.title === 'C')!.pages[0].id };
    }

    it('a revision: pages created, deleted (with what they held), moved and edited with a diff; files, reusable contents, variables', async () => {
      const { spaceId, a, b, c, c1 } = await setup();
      let fileId = '';
      const revisionId = await editContent(t.ctx, spaceId, async (writer) => {
        writer.updatePage(a, { title: 'A!', markdown: 'One.\n\nTwo, changed.\n\nThree.\n' });
        writer.removePage(c);
        writer.addPage({ type: 'document', title: 'D', markdown: 'New.\n' });
        writer.movePage(b, { parent: a });
        writer.putReusableContent({ id: 'setup', title: 'Setup', markdown: 'Install it.\n' });
        writer.setVariables({ version: '2.0' });
        fileId = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: 'png' });
      });
      const reply = await w.members.read.api.get(`/v1/spaces/${spaceId}/revisions/${revisionId}/changes?limit=100`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const changes = reply.body.changes as Change[];
      const of = (type: string) => changes.filter((change) => change.type === type);
      assert.deepEqual(of('page_created').map((change) => change.page!.title), ['D']);
      assert.deepEqual(of('page_deleted').map((change) => change.page!.id).sort(), [c, c1].sort());
      assert.deepEqual(of('page_moved').map((change) => [change.page!.id, change.parent!.before, change.parent!.after?.id]), [[b, undefined, a]]);
      const edited = of('page_edited');
      assert.equal(edited.length, 1);
      assert.deepEqual(edited[0].attributes!.title, { before: 'A', after: 'A!' });
      assert.ok(edited[0].attributes!.document);
      assert.equal(edited[0].diff, '@@ -1 +1 @@\n One.\n \n-Two.\n+Two, changed.\n \n Three.\n');
      assert.equal(of('file_created')[0].file!.name, 'logo.png');
      assert.match(of('file_created')[0].file!.downloadURL, new RegExp(`/files/${spaceId}/${fileId}`));
      assert.equal(of('reusable_content_created')[0].reusableContent!.id, 'setup');
      assert.deepEqual(of('variables_edited')[0].variables, { version: { after: '2.0' } });

      const limited = await w.members.read.api.get(`/v1/spaces/${spaceId}/revisions/${revisionId}/changes?limit=2`);
      assert.equal(limited.body.changes.length, 2);
      assert.equal(limited.body.more, changes.length - 2);
      assertError(await w.guest.api.get(`/v1/spaces/${spaceId}/revisions/${revisionId}/changes`), 404);
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/revisions/nope/changes`), 404, 'No revision "nope"');
    });

    it("a change request: only its own changes, not the space's since; a merge revision names it", async () => {
      const { spaceId, a, b } = await setup();
      const cr = await w.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Fix A' });
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
      const imported = await w.members.edit.api.post(`${url}/content/page/${a}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from('One.\n\nTwo.\n\nThree and more.\n').toString('base64')}` });
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(b, { markdown: 'Bee, edited in the space.\n' }));

      const changes = await api.spaces.getChangeRequestChanges(spaceId, cr.body.id);
      const list = changes.data.changes as Change[];
      assert.deepEqual(list.map((change) => [change.type, change.page?.id]), [['page_edited', a]]);
      assert.match(list[0].diff!, /-Three\.\n\+Three and more\.\n/);

      const merged = await w.members.review.api.post(`${url}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      const semantic = await api.spaces.getRevisionSemanticChanges(spaceId, merged.body.revision);
      assert.equal(semantic.data.mergedFrom?.id, cr.body.id);
      assert.deepEqual((semantic.data.changes as Change[]).map((change) => [change.type, change.page?.id]), [['page_edited', a]]);
    });

    it('writes line diffs with context and hunks', () => {
      assert.equal(lineDiff('a\n', 'a\n'), '');
      assert.equal(lineDiff('', 'new\n'), '@@ -1 +1 @@\n+new\n');
      const long = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`);
      const changed = long.map((line, i) => (i === 1 || i === 17 ? `${line}!` : line));
      const diff = lineDiff(`${long.join('\n')}\n`, `${changed.join('\n')}\n`);
      assert.equal(diff.split('\n').filter((line) => line.startsWith('@@')).length, 2);
      assert.ok(diff.includes('-line 2\n+line 2!\n'));
    });
  });
}
