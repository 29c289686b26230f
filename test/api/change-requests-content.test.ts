import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, currentRevision, editContent } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { dataUrl } from '../imports/helpers.ts';

interface Page {
  id: string;
  title: string;
  path?: string;
  urls?: { app: string };
  pages?: Page[];
}

/**
 * The content of a change request mirrors the space's content reads (same shapes, the change request's
 * head), and imports into a change request move its head, never the space.
 */
for (const dialect of dialects) {
  describe(`change request content [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let crId: string;
    let cr: string;
    const ids: Record<string, string> = {};

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      await editContent(t.ctx, spaceId, async (writer) => {
        ids.logo = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: 'png bytes' });
        ids.intro = writer.addPage({ type: 'document', title: 'Intro', markdown: `# Welcome\n\nSee [install](install.md) and ![logo](files/${ids.logo}).\n` });
        ids.install = writer.addPage({ type: 'document', title: 'Install', markdown: '## Requirements\n\nNode.js 20.\n' });
      });
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Docs update' });
      crId = created.body.id;
      cr = `/v1/spaces/${spaceId}/change-requests/${crId}`;
    });
    after(() => t.close());

    const api = () => world.members.read.api;

    it('reads the change request\'s revision, pages, files and pages with the space\'s shapes', async () => {
      const space = (await api().get(`/v1/spaces/${spaceId}/content`)).body;
      const revision = await api().get(`${cr}/content`);
      assert.equal(revision.status, 200);
      const head = (await api().get(cr)).body.revision;
      assert.equal(revision.body.id, head);
      assert.equal(revision.body.object, 'revision');
      assert.deepEqual(revision.body.parents, [space.id]);
      assert.deepEqual(revision.body.pages.map((p: Page) => p.title), space.pages.map((p: Page) => p.title));
      assert.equal(revision.body.pages[0].urls.app, `http://quire.test${cr}/content/page/${ids.intro}`);
      const pages = await api().get(`${cr}/content/pages`);
      assert.deepEqual(pages.body.pages.map((p: Page) => p.path), ['intro', 'install']);
      const files = await api().get(`${cr}/content/files`);
      assert.deepEqual([files.body.count, files.body.items[0].name], [1, 'logo.png']);
      const file = await api().get(`${cr}/content/files/${ids.logo}`);
      assert.equal(file.body.name, 'logo.png');
      const download = await t.app.inject({ method: 'GET', url: file.body.downloadURL.replace('http://quire.test', '') });
      assert.equal(download.body, 'png bytes');
      const page = await api().get(`${cr}/content/page/${ids.install}?format=markdown`);
      assert.equal(page.body.markdown, '## Requirements\n\nNode.js 20.\n');
      const document = await api().get(`${cr}/content/page/${ids.install}`);
      assert.ok(document.body.document);
      const byPath = await api().get(`${cr}/content/path/install`);
      assert.equal(byPath.body.id, ids.install);
      // By number too.
      assert.equal((await api().get(`/v1/spaces/${spaceId}/change-requests/1/content/page/${ids.intro}`)).body.title, 'Intro');
      assertError(await api().get(`${cr}/content/page/missing`), 404, 'change request #1');
      assertError(await api().get(`${cr}/content/files/missing`), 404, 'change request #1');
      assertError(await api().get(`${cr}/content/path/nowhere`), 404);
      assertError(await api().get(`/v1/spaces/${spaceId}/change-requests/77/content`), 404);
    });

    it('lists the links of a page and the backlinks of a file, counting links the change request broke', async () => {
      const links = await api().get(`${cr}/content/page/${ids.intro}/links`);
      assert.equal(links.status, 200, JSON.stringify(links.body));
      assert.equal(links.body.count, 2);
      assert.deepEqual(links.body.stats, { total: 2, broken: { total: 0, changeRequest: 0 } });
      const backlinks = await api().get(`${cr}/content/files/${ids.logo}/backlinks`);
      assert.deepEqual(backlinks.body.items.map((l: { page: Page }) => l.page.title), ['Intro']);
      assert.equal(backlinks.body.items[0].page.urls.app, `http://quire.test${cr}/content/page/${ids.intro}`);
      assertError(await api().get(`${cr}/content/files/missing/backlinks`), 404);
      assertError(await api().get(`${cr}/content/page/missing/links`), 404);
      const all = await api().get(`${cr}/links`);
      assert.equal(all.status, 200);
      assert.equal(all.body.stats.total, 2);
    });

    it('imports into the change request: its head moves, the space does not', async () => {
      const other = await createSpace(t.ctx, world.organizationId);
      const made = (await world.members.edit.api.post(`/v1/spaces/${other}/change-requests`, {})).body;
      const url = `/v1/spaces/${other}/change-requests/${made.id}`;
      const spaceBefore = await currentRevision(t.ctx, other);
      const spaceRow = async () => (await world.admin.api.get(`/v1/spaces/${other}`)).body;
      const updatedBefore = (await spaceRow()).updatedAt;
      t.clock.advance(1000);
      const reply = await world.members.edit.api.post(`${url}/content/import`, { source: 'markdown', url: dataUrl('text/markdown', '# Getting started\n\nSee [the broken link](missing.md).\n') });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const after = (await api().get(url)).body;
      assert.equal(reply.body.revision, after.revision);
      assert.deepEqual([reply.body.importedResources, reply.body.totalResources], [1, 1]);
      assert.equal(reply.headers.location, `/v1/spaces/${other}/revisions/${after.revision}`);
      assert.ok(after.updatedAt > made.updatedAt);
      assert.equal(await currentRevision(t.ctx, other), spaceBefore, 'the space\'s content does not move');
      assert.equal((await spaceRow()).updatedAt, updatedBefore);
      assert.equal((await api().get(`/v1/spaces/${other}/content/pages`)).body.pages.length, 0);
      const pages = (await api().get(`${url}/content/pages`)).body.pages as Page[];
      assert.deepEqual(pages.map((p) => p.title), ['Getting started']);
      const revision = (await api().get(`${url}/content`)).body;
      assert.deepEqual(revision.parents, [made.revision]);
      // A link the change request broke.
      const links = (await api().get(`${url}/links`)).body;
      assert.deepEqual(links.stats.broken, { total: 1, changeRequest: 1 });
      assert.equal((await api().get(`${url}/links?brokenContext=change-request&status=broken`)).body.count, 1);

      // Into a page: one imported page replaces that page's body.
      const page = await world.members.edit.api.post(`${url}/content/page/${pages[0].id}/import`, { source: 'markdown', url: 'data:text/markdown,Replaced%20body.' });
      assert.equal(page.status, 201, JSON.stringify(page.body));
      const body = (await api().get(`${url}/content/page/${pages[0].id}?format=markdown`)).body;
      assert.deepEqual([body.title, body.markdown], ['Getting started', 'Replaced body.'], 'the imported source is kept as it was, without a newline added');
      assertError(await world.members.edit.api.post(`${url}/content/page/missing/import`, { source: 'markdown', url: 'data:text/markdown,x' }), 404, 'change request #1');
      assert.equal(await currentRevision(t.ctx, other), spaceBefore);
      // The import's own checks apply.
      assertError(await world.members.edit.api.post(`${url}/content/import`, { source: 'notion', url: 'https://example.com' }), 400, 'not supported');
      assertError(await world.members.edit.api.post(`${url}/content/import`, { source: 'markdown' }), 400, 'url');
      assertError(await world.members.edit.api.post(`${url}/content/import`, { source: 'markdown', url: 'ftp://example.com/x.md' }), 400);
    });

    it('lets only the edit level import, refuses locked spaces and archived change requests', async () => {
      const other = await createSpace(t.ctx, world.organizationId);
      const made = (await world.members.edit.api.post(`/v1/spaces/${other}/change-requests`, {})).body;
      const url = `/v1/spaces/${other}/change-requests/${made.id}`;
      const body = { source: 'markdown', url: 'data:text/markdown,Hello.' };
      for (const [role, user] of cast(world)) {
        const reply = await user.api.post(`${url}/content/import`, body);
        const read = await user.api.get(`${url}/content`);
        if (['admin', 'create', 'review', 'edit'].includes(role)) {
          assert.equal(reply.status, 201, role);
          assert.equal(read.status, 200, role);
        } else if (['comment', 'read'].includes(role)) {
          assertError(reply, 403, 'edit level');
          assert.equal(read.status, 200, role);
        } else {
          assertError(reply, 404);
          assertError(read, 404);
        }
      }
      await world.members.edit.api.patch(url, { status: 'archived' });
      assertError(await world.members.edit.api.post(`${url}/content/import`, body), 409, 'archived');
      await world.members.edit.api.patch(url, { status: 'open' });
      assert.equal((await world.members.edit.api.post(`${url}/content/import`, body)).status, 201);
      await world.admin.api.patch(`/v1/spaces/${other}`, { editMode: 'locked' });
      assertError(await world.members.edit.api.post(`${url}/content/import`, body), 423, 'locked');
      assert.equal((await api().get(`${url}/content`)).status, 200, 'a locked space\'s change requests can still be read');
    });
  });
}
