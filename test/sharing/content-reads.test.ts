import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI } from '@gitbook/api';
import { assertError, client, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/** Content reads: the API's information, contributors, page backlinks, reusable contents, documents by id. */
for (const dialect of dialects) {
  describe(`content reads [${dialect}]`, () => {
    let t: TestApp;
    let w: World;
    let api: GitBookAPI;
    let spaceId: string;
    let pages: Record<string, string>;
    before(async () => {
      t = await createTestApp(dialect);
      w = await createWorld(t.ctx, t.app, t.clock);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: w.members.read.token });
      ({ spaceId } = await createSpaceWithPages(t.ctx, w.organizationId, [
        { type: 'document', title: 'Start', markdown: 'See [the guide](guide.md) and [more](other.md).\n' },
        { type: 'document', title: 'Guide', markdown: 'A guide with **bold** text.\n' },
        { type: 'document', title: 'Other', markdown: 'Back to [the guide](guide.md#top).\n' },
      ]));
      await editContent(t.ctx, spaceId, (writer) => writer.putReusableContent({ id: 'setup', title: 'Setup', markdown: 'Install it first.\n' }));
      const listed = (await w.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string }>;
      pages = Object.fromEntries(listed.map((page) => [page.title, page.id]));
    });
    after(() => t.close());

    it('answers the API information to any token holder', async () => {
      assertError(await client(t.app).get('/v1/'), 401);
      const reply = await w.guest.api.get('/v1/');
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.match(reply.body.version, /^\d+\.\d+\.\d+/);
      assert.ok(!Number.isNaN(Date.parse(reply.body.build)));
      const info = await api.getApiInformation();
      assert.equal(info.data.version, reply.body.version);
    });

    it('lists the pages that link to a page, in the space and in a change request', async () => {
      const pageOf = (item: unknown) => (item as { page: { id: string } }).page.id;
      const backlinks = await api.spaces.listSpacePageBacklinks(spaceId, pages.Guide);
      assert.deepEqual(backlinks.data.items.map(pageOf).sort(), [pages.Start, pages.Other].sort());
      assert.equal((await api.spaces.listSpacePageBacklinks(spaceId, pages.Start)).data.count, 0);
      const cr = await w.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'x' });
      const inCr = await api.spaces.listChangeRequestPageBacklinks(spaceId, cr.body.id, pages.Other);
      assert.deepEqual(inCr.data.items.map(pageOf), [pages.Start]);
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/content/page/nope/backlinks`), 404, 'No page "nope"');
      assertError(await w.guest.api.get(`/v1/spaces/${spaceId}/content/page/${pages.Guide}/backlinks`), 404);
    });

    it('reads a reusable content in the space, a revision and a change request, and its document by id', async () => {
      const current = await api.spaces.getReusableContentById(spaceId, 'setup');
      assert.equal(current.data.title, 'Setup');
      const documentId = (current.data as { document?: string }).document!;
      const revision = (await w.admin.api.get(`/v1/spaces/${spaceId}`)).body.revision as string;
      assert.equal((await api.spaces.getReusableContentInRevisionById(spaceId, revision, 'setup')).data.id, 'setup');
      const cr = await w.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'y' });
      assert.equal((await api.spaces.getReusableContentInChangeRequestById(spaceId, cr.body.id, 'setup')).data.id, 'setup');
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/content/reusable-contents/missing`), 404, 'No reusable content "missing"');

      const document = await api.spaces.getDocumentById(spaceId, documentId);
      assert.equal(document.data.object, 'document');
      assert.match(JSON.stringify(document.data.nodes), /Install it first/);
      const page = (await w.members.read.api.get(`/v1/spaces/${spaceId}/content/page/${pages.Guide}`)).body;
      const guide = await api.spaces.getDocumentById(spaceId, page.documentId);
      assert.match(JSON.stringify(guide.data.nodes), /bold/);
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/documents/not-a-document`), 404, 'No document');
      const { spaceId: other } = await createSpaceWithPages(t.ctx, w.organizationId, [{ type: 'document', title: 'X', markdown: 'Elsewhere.\n' }]);
      const foreign = (await w.admin.api.get(`/v1/spaces/${other}/content/page/${(await w.admin.api.get(`/v1/spaces/${other}/content/pages`)).body.pages[0].id}`)).body.documentId;
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/documents/${foreign}`), 404, 'No document');

      const inRevision = await api.spaces.getPageDocumentInRevisionById(spaceId, revision, pages.Guide);
      assert.match(JSON.stringify(inRevision.data.nodes), /bold/);
    });

    it('answers a signed URL of the space as PDF, which serves the PDF without a token', async () => {
      const { data } = await api.spaces.getSpacePdf(spaceId, { page: pages.Guide, only: true });
      const url = new URL(data.url);
      assert.equal(url.pathname.startsWith(`/pdf/${spaceId}/`), true);
      assert.equal(url.searchParams.get('page'), pages.Guide);
      assertError(await w.members.read.api.get(`/v1/spaces/${spaceId}/pdf?page=nope`), 404);
      assertError(await w.guest.api.get(`/v1/spaces/${spaceId}/pdf`), 404);
      const pdf = await t.app.inject({ method: 'GET', url: `${url.pathname}${url.search}` });
      assert.equal(pdf.statusCode, 200, pdf.body.slice(0, 300));
      assert.equal(pdf.headers['content-type'], 'application/pdf');
    });

    it('lists the contributors of a change request with how many revisions each wrote (its first included)', async () => {
      const cr = await w.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'z' });
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
      for (const text of ['One.', 'Two.']) {
        t.clock.advance(1000);
        const reply = await w.members.edit.api.post(`${url}/content/page/${pages.Guide}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from(`${text}\n`).toString('base64')}` });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
      }
      const contributors = await api.spaces.getContributorsByChangeRequestId(spaceId, cr.body.id);
      assert.deepEqual(contributors.data.items.map((item) => [item.user.id, item.count]), [[w.members.edit.id, 3]]);
      assertError(await w.guest.api.get(`${url}/contributors`), 404);
    });
  });
}
