import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChangeRequestStatus, GitBookAPI, ImportContentSource } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { dataUrl } from '../imports/helpers.ts';

const BODY = 'Install the proxy.\n\nConfigure it.\n\nRun it.\n\nWatch the logs.\n';

/**
 * Issue-level check through the public client over real HTTP: a change request is created, edited by
 * import, updated after the space moved, and merged; a conflicting pair reports conflicts and changes
 * nothing. Every answer is validated against the client's document by the test app.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: change requests [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let editor: GitBookAPI;
    let reviewer: GitBookAPI;
    let spaceId: string;
    let pageIds: Record<string, string>;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const endpoint = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const admin = new GitBookAPI({ endpoint, authToken: world.admin.token });
      editor = new GitBookAPI({ endpoint, authToken: world.members.edit.token });
      reviewer = new GitBookAPI({ endpoint, authToken: world.members.review.token });
      spaceId = (await admin.orgs.createSpace(world.organizationId, { title: 'Handbook' })).data.id;
      for (const title of ['Install', 'Operate']) {
        await editor.spaces.importContent(spaceId, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', `# ${title}\n\n${BODY}`) });
      }
      const pages = (await editor.spaces.listPages(spaceId)).data.pages;
      pageIds = Object.fromEntries(pages.map((page) => [page.title, page.id]));
    });
    after(() => t.close());

    const markdown = async (read: Promise<{ data: unknown }>) => ((await read).data as { markdown?: string }).markdown;

    it('creates a change request, edits it by import, updates it after the space moved, and merges it', async () => {
      const created = await editor.spaces.createChangeRequest(spaceId, { subject: 'Better install guide' });
      assert.equal(created.status, 201);
      const cr = created.data;
      assert.deepEqual([cr.object, cr.number, cr.status, cr.outdated], ['change-request', 1, 'draft', false]);
      await editor.spaces.updateChangeRequestById(spaceId, cr.id, { status: 'open' });
      const open = await editor.spaces.listChangeRequestsForSpace(spaceId);
      assert.deepEqual(open.data.items.map((item) => item.id), [cr.id]);

      // Edited by import: a new page, and the body of an existing one (line 1).
      const imported = await editor.spaces.importContentInChangeRequest(spaceId, cr.id, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', '# Troubleshooting\n\nRestart it.\n') });
      assert.equal(imported.status, 201);
      const pageImport = await editor.spaces.importContentInChangeRequestPageById(spaceId, String(cr.number), pageIds.Install, {
        source: ImportContentSource.Markdown,
        url: dataUrl('text/markdown', BODY.replace('Install the proxy.', 'Install the proxy with npm.')),
      });
      assert.equal(pageImport.status, 201);
      const crPages = (await editor.spaces.listPagesInChangeRequest(spaceId, cr.id)).data.pages;
      assert.deepEqual(crPages.map((page) => page.title), ['Install', 'Operate', 'Troubleshooting']);
      assert.equal((await editor.spaces.listPages(spaceId)).data.pages.length, 2, 'the space\'s content did not move');
      assert.match((await markdown(editor.spaces.getPageInChangeRequestById(spaceId, cr.id, pageIds.Install, { format: 'markdown' }))) ?? '', /with npm/);

      // The space moves (the last line of Install): the change request is outdated until it is updated.
      await editor.spaces.importContentInPageById(spaceId, pageIds.Install, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', BODY.replace('Watch the logs.', 'Watch the logs closely.')) });
      assert.equal((await editor.spaces.getChangeRequestById(spaceId, cr.id)).data.outdated, true);
      const update = await editor.spaces.updateChangeRequest(spaceId, cr.id);
      assert.equal(update.data.result, 'update');
      const updated = (await editor.spaces.getChangeRequestById(spaceId, cr.id)).data;
      assert.deepEqual([updated.revision, updated.outdated], [update.data.revision, false]);
      const both = await markdown(editor.spaces.getPageInChangeRequestById(spaceId, cr.id, pageIds.Install, { format: 'markdown' }));
      assert.equal(both, BODY.replace('Install the proxy.', 'Install the proxy with npm.').replace('Watch the logs.', 'Watch the logs closely.'));

      // Merged by a reviewer (an editor may not).
      await assert.rejects(editor.spaces.mergeChangeRequest(spaceId, cr.id), /review level/);
      const merge = await reviewer.spaces.mergeChangeRequest(spaceId, cr.id);
      assert.equal(merge.data.result, 'merge');
      const space = (await editor.spaces.getSpaceById(spaceId)).data;
      assert.equal(space.revision, merge.data.revision);
      assert.deepEqual([space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft], [1, 0, 0]);
      const revision = (await editor.spaces.getCurrentRevision(spaceId)).data;
      assert.equal(revision.type, 'merge');
      assert.deepEqual(revision.pages.map((page) => page.title), ['Install', 'Operate', 'Troubleshooting']);
      assert.equal(await markdown(editor.spaces.getPageById(spaceId, pageIds.Install, { format: 'markdown' })), both);
      const merged = (await editor.spaces.getChangeRequestById(spaceId, cr.id)).data;
      assert.deepEqual([merged.status, merged.revisionMerged], ['merged', merge.data.revision]);
      const listed = await editor.spaces.listChangeRequestsForSpace(spaceId, { status: ChangeRequestStatus.Merged });
      assert.deepEqual(listed.data.items.map((item) => item.id), [cr.id]);
    });

    it('reports a conflicting pair and changes nothing', async () => {
      const first = (await editor.spaces.createChangeRequest(spaceId, { subject: 'First' })).data;
      const second = (await editor.spaces.createChangeRequest(spaceId, { subject: 'Second' })).data;
      for (const [cr, words] of [[first, 'Configure it once.'], [second, 'Configure it twice.']] as const) {
        await editor.spaces.importContentInChangeRequestPageById(spaceId, cr.id, pageIds.Operate, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', BODY.replace('Configure it.', words)) });
      }
      assert.equal((await reviewer.spaces.mergeChangeRequest(spaceId, first.id)).data.result, 'merge');
      const before = (await editor.spaces.getSpaceById(spaceId)).data;
      const secondBefore = (await editor.spaces.getChangeRequestById(spaceId, second.id)).data;
      const conflict = await reviewer.spaces.mergeChangeRequest(spaceId, second.id);
      assert.equal(conflict.data.result, 'conflicts');
      assert.equal(conflict.data.revision, secondBefore.revision);
      const conflicts = (conflict.data as { conflicts?: Array<{ pageId: string; title: string }> }).conflicts ?? [];
      assert.deepEqual(conflicts.map((c) => [c.pageId, c.title]), [[pageIds.Operate, 'Operate']]);
      const after = (await editor.spaces.getSpaceById(spaceId)).data;
      assert.deepEqual([after.revision, after.changeRequestsDraft], [before.revision, before.changeRequestsDraft]);
      assert.equal(await markdown(editor.spaces.getPageById(spaceId, pageIds.Operate, { format: 'markdown' })), BODY.replace('Configure it.', 'Configure it once.'));
      const secondAfter = (await editor.spaces.getChangeRequestById(spaceId, second.id)).data;
      assert.deepEqual([secondAfter.status, secondAfter.revision, secondAfter.outdated], ['draft', secondBefore.revision, true]);
      const update = await editor.spaces.updateChangeRequest(spaceId, second.id);
      assert.deepEqual([update.data.result, update.data.revision], ['conflicts', secondBefore.revision]);
    });
  });
}
