import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { browse, createSite } from '../published/support.ts';

/** Link pages that point to a page of the same content (`target: { kind: "page" }`), besides an address. */
for (const dialect of dialects) {
  describe(`link pages with a page target [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let installId: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      await editContent(t.ctx, spaceId, (writer) => {
        writer.addPage({ type: 'document', title: 'Intro', markdown: 'Hello.\n' });
        installId = writer.addPage({ type: 'document', title: 'Install', markdown: 'Run it.\n' });
      });
    });
    after(() => t.close());

    it('creates a link to a page, which the navigation of the reader follows once merged', async () => {
      const cr = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Link' });
      const base = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
      const link = await world.members.edit.api.post(`${base}/content/pages`, { title: 'Get started', type: 'link', target: { kind: 'page', page: installId } });
      assert.equal(link.status, 201, JSON.stringify(link.body));
      assert.equal(link.body.type, 'link');
      assert.deepEqual(link.body.target, { kind: 'page', page: installId });
      const url = await world.members.edit.api.post(`${base}/content/pages`, { title: 'Status', type: 'link', target: { kind: 'url', url: 'https://status.example.com/' } });
      assert.equal(url.status, 201, JSON.stringify(url.body));
      assert.equal(url.body.href, 'https://status.example.com/');
      assert.equal((await world.admin.api.post(`${base}/merge`)).status, 200);

      const site = await createSite(world.admin, world.organizationId, { title: 'Handbook', visibility: 'public', spaces: [spaceId] });
      const html = (await browse(t.app, site.root)).body;
      assert.match(html, /<a href="[^"]*\/install">Get started<\/a>/);
      assert.match(html, /<a href="https:\/\/status\.example\.com\/" class="toc-external"/);
    });

    it('refuses a link with both or neither, a target page that does not exist, and a target on another type', async () => {
      const cr = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Bad links' });
      const pages = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/pages`;
      const api = world.members.edit.api;
      assertError(await api.post(pages, { title: 'L', type: 'link' }), 400, /"href".*"target"/);
      assertError(await api.post(pages, { title: 'L', type: 'link', href: 'https://a.example/', target: { kind: 'page', page: installId } }), 400, 'not both');
      assertError(await api.post(pages, { title: 'L', type: 'link', target: { kind: 'page', page: 'nowhere' } }), 400, 'target.page');
      assertError(await api.post(pages, { title: 'L', type: 'link', target: { kind: 'space', space: spaceId } }), 400);
      assertError(await api.post(pages, { title: 'G', type: 'group', target: { kind: 'page', page: installId } }), 400, 'Only link pages');
    });

    it('points an existing link at another address or page with PATCH, refusing what a new link would refuse; readers may not', async () => {
      const cr = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Retarget' });
      const base = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
      const api = world.members.edit.api;
      const link = await api.post(`${base}/content/pages`, { title: 'Status', type: 'link', href: 'https://status.example.com/' });
      assert.equal(link.status, 201, JSON.stringify(link.body));
      const page = `${base}/content/page/${link.body.id}`;
      const toPage = await api.patch(page, { target: { kind: 'page', page: installId } });
      assert.equal(toPage.status, 200, JSON.stringify(toPage.body));
      assert.deepEqual(toPage.body.page.target, { kind: 'page', page: installId });
      assert.equal(toPage.body.page.href, undefined);
      const toUrl = await api.patch(page, { href: 'https://status.example.org/now' });
      assert.equal(toUrl.status, 200, JSON.stringify(toUrl.body));
      assert.deepEqual(toUrl.body.page.target, { kind: 'url', url: 'https://status.example.org/now' });
      assert.equal(toUrl.body.page.href, 'https://status.example.org/now');

      assertError(await api.patch(page, { href: 'not an address' }), 400);
      assertError(await api.patch(page, { href: 'https://a.example/', target: { kind: 'page', page: installId } }), 400, 'not both');
      assertError(await api.patch(page, { target: { kind: 'page', page: 'nowhere' } }), 400, 'target.page');
      assertError(await api.patch(page, { target: { kind: 'page', page: link.body.id } }), 400, 'itself');
      assertError(await api.patch(`${base}/content/page/${installId}`, { href: 'https://a.example/' }), 400, 'Only link pages');
      assertError(await world.members.read.api.patch(page, { href: 'https://a.example/' }), 403);
      assert.equal((await api.get(`${page}`)).body.href, 'https://status.example.org/now');
    });
  });
}
