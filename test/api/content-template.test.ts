import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { TEMPLATES } from '../../src/content/templates/index.ts';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';

interface Page {
  id: string;
  title: string;
  type: string;
  path?: string;
  target?: unknown;
  pages?: Page[];
}

const flatten = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);

for (const dialect of dialects) {
  describe(`POST /v1/spaces/{spaceId}/content/template [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const apply = (spaceId: string, body: unknown, user = world.members.edit) => user.api.post(`/v1/spaces/${spaceId}/content/template`, body);
    const tree = async (spaceId: string): Promise<Page[]> => (await world.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages;
    const snapshot = async () =>
      JSON.stringify([
        await t.ctx.db.selectFrom('spaces').select(['id', 'revision_id']).orderBy('id').execute(),
        await t.ctx.db.selectFrom('revisions').select('id').orderBy('id').execute(),
      ]);

    for (const id of ['product-docs', 'api-reference', 'knowledge-base']) {
      it(`applies "${id}" to an empty space: starter pages with bodies, in one new revision`, async () => {
        const spaceId = await createSpace(t.ctx, world.organizationId);
        const before = await currentRevision(t.ctx, spaceId);
        const reply = await apply(spaceId, { id });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        assert.equal(reply.body, undefined);
        const after = await currentRevision(t.ctx, spaceId);
        assert.notEqual(after, before);
        assert.equal(reply.headers.location, `/v1/spaces/${spaceId}/revisions/${after}`);
        const revision = (await world.admin.api.get(`/v1/spaces/${spaceId}/content`)).body;
        assert.deepEqual([revision.type, revision.parents], ['edits', [before]]);
        const pages = flatten(revision.pages);
        const documents = pages.filter((page) => page.type === 'document');
        assert.ok(documents.length >= 5, `${id} has ${documents.length} documents`);
        assert.equal(pages.filter((page) => page.type === 'link').length, 0, 'no slot filled, no link page');
        for (const page of documents) {
          const body = await world.admin.api.get(`/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`);
          assert.ok(body.body.markdown.length > 200, `${id} / ${page.title} has a real body`);
          // As a document too: every block of the starter pages fits the client's document model.
          const document = await world.admin.api.get(`/v1/spaces/${spaceId}/content/page/${page.id}`);
          assert.equal(document.status, 200);
          assert.ok(document.body.document.nodes.length > 2);
          const links = JSON.stringify(document.body.document).match(/"kind":"url","url":"[^"]*\.md"/g);
          assert.equal(links, null, `${id} / ${page.title}: every link to a page resolves`);
        }
        const count = await t.ctx.db.selectFrom('revisions').select((eb) => eb.fn.countAll<number>().as('n')).where('space_id', '=', spaceId).executeTakeFirstOrThrow();
        assert.equal(Number(count.n), 2);
      });
    }

    it('adds to a space that has content, never destroying anything; applied twice, it adds twice', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Overview', markdown: 'Mine.\n' }]);
      await editContent(t.ctx, spaceId, async (writer) => void (await addFile(t.ctx, writer, { name: 'keep.txt', contentType: 'text/plain', bytes: 'keep' })));
      const mine = (await tree(spaceId))[0];
      assert.equal((await apply(spaceId, { id: 'product-docs' })).status, 201);
      const once = await tree(spaceId);
      assert.deepEqual(once[0], mine, 'the existing page is untouched and first');
      assert.deepEqual(once.slice(1).map((p) => p.title), ['Getting started', 'Guides', 'Resources']);
      assert.equal((await apply(spaceId, { id: 'product-docs' })).status, 201);
      const twice = await tree(spaceId);
      assert.deepEqual(twice.slice(0, 4), once);
      assert.deepEqual(twice.slice(4).map((p) => p.path), ['getting-started-1', 'guides-1', 'resources-1']);
      assert.equal(flatten(twice).length, 1 + 2 * (flatten(once).length - 1));
      const mineAfter = await world.admin.api.get(`/v1/spaces/${spaceId}/content/page/${mine.id}?format=markdown`);
      assert.equal(mineAfter.body.markdown, 'Mine.\n');
      const files = await world.admin.api.get(`/v1/spaces/${spaceId}/content/files`);
      assert.deepEqual(files.body.items.map((f: { name: string }) => f.name), ['keep.txt']);
    });

    it('fills the template slots from params.contentRefs', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const refs = { website: { kind: 'url', url: 'https://example.com' }, changelog: { kind: 'space', space: 'other-space' } };
      assert.equal((await apply(spaceId, { id: 'product-docs', params: { contentRefs: refs } })).status, 201);
      const links = flatten(await tree(spaceId)).filter((page) => page.type === 'link');
      assert.deepEqual(links.map((link) => [link.title, link.target]), [['Changelog', refs.changelog], ['Website', refs.website]]);
      const api = await createSpace(t.ctx, world.organizationId);
      assert.equal((await apply(api, { id: 'api-reference', params: { contentRefs: { openapi: { kind: 'openapi', spec: 'petstore' } } } })).status, 201);
      const openapi = flatten(await tree(api)).find((page) => page.type === 'link');
      assert.deepEqual(openapi?.target, { kind: 'openapi', spec: 'petstore' });
    });

    it('accepts a page of the space in a slot, and refuses one that is not there', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ id: 'support-page', type: 'document', title: 'Support' }]);
      const ok = await apply(spaceId, { id: 'product-docs', params: { contentRefs: { support: { kind: 'page', page: 'support-page' } } } });
      assert.equal(ok.status, 201);
      assertError(await apply(spaceId, { id: 'product-docs', params: { contentRefs: { support: { kind: 'page', page: 'ghost' } } } }), 400, '"params.contentRefs.support" points at the page "ghost"');
    });

    it('names what fails validation, an unknown template, an unknown slot and a wrong kind; nothing changes', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const before = await snapshot();
      assertError(await apply(spaceId, {}), 400, 'missing the required member "id"');
      assertError(await apply(spaceId, { id: 42 }), 400, '"id"');
      assertError(await apply(spaceId, { id: 'blog' }), 400, '"id" names no template: "blog"');
      assertError(await apply(spaceId, { id: 'product-docs', colour: 'red' }), 400, '"colour"');
      assertError(await apply(spaceId, { id: 'product-docs', params: { contentRefs: { logo: { kind: 'url', url: 'https://x.test' } } } }), 400, '"params.contentRefs.logo" is not a slot');
      assertError(await apply(spaceId, { id: 'product-docs', params: { contentRefs: { website: { kind: 'space', space: 's' } } } }), 400, '"params.contentRefs.website" must be a content reference of kind "url"');
      assertError(await apply(spaceId, { id: 'product-docs', params: { contentRefs: { website: { kind: 'url' } } } }), 400, 'params.contentRefs.website');
      assertError(await apply(spaceId, { id: 'product-docs', params: { other: 1 } }), 400, '"params.other"');
      assert.equal(await snapshot(), before);
    });

    it('is refused while the space is locked', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId, { editMode: 'locked' });
      const before = await snapshot();
      assertError(await apply(spaceId, { id: 'knowledge-base' }, world.admin), 423, 'locked');
      assert.equal(await snapshot(), before);
    });

    it('needs the edit level: read and comment get 403, a guest and an outsider 404', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      for (const [name, user] of cast(world)) {
        const reply = await apply(spaceId, { id: 'knowledge-base' }, user);
        if (['admin', 'create', 'review', 'edit'].includes(name)) assert.equal(reply.status, 201, `${name}: ${JSON.stringify(reply.body)}`);
        else if (name === 'read' || name === 'comment') assertError(reply, 403, 'edit level');
        else assertError(reply, 404, 'No space');
      }
      const open = await createSpace(t.ctx, world.organizationId, { visibility: 'public' });
      assertError(await apply(open, { id: 'knowledge-base' }, world.outsider), 403, 'edit level');
      assertError(await apply('nope', { id: 'knowledge-base' }, world.admin), 404);
    });

    it('lists at least three templates, each with slots described', () => {
      assert.ok(TEMPLATES.size >= 3);
      for (const template of TEMPLATES.values()) assert.ok(Object.keys(template.slots).length > 0, template.id);
    });
  });
}
