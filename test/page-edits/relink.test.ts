import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/**
 * Links between pages are relative paths between their files; a page created in Quire has a file named by
 * its path, so renaming or moving it moves its file. The links written to it, and its own, follow: only
 * the lines holding them change, and every link still points at the same page.
 */
for (const dialect of dialects) {
  describe(`page edits keep links when files move [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    const ids: Record<string, string> = {};
    const admin = () => world.admin.api;
    const markdownOf = async (id: string) => (await admin().get(`/v1/spaces/${spaceId}/content/page/${id}?format=markdown`)).body.markdown as string;
    const linkTarget = async (id: string) => {
      const document = (await admin().get(`/v1/spaces/${spaceId}/content/page/${id}`)).body.document;
      const link = document.nodes.flatMap((node: { nodes?: unknown[] }) => node.nodes ?? []).find((inline: { type?: string }) => inline.type === 'link');
      return link.data.ref;
    };

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId);
      await editContent(t.ctx, spaceId, (writer) => {
        ids.guides = writer.addPage({ type: 'document', title: 'Guides', markdown: 'All guides.\n' });
        ids.install = writer.addPage({ type: 'document', title: 'Install', markdown: 'Install it.\n\nBack to [the overview](overview.md).\n' });
        ids.overview = writer.addPage({ type: 'document', title: 'Overview', markdown: 'Intro.\n\nSee [installing](install.md) first.\n\nThe end.\n' });
      });
    });
    after(() => t.close());

    it('rewrites the links to a renamed page, and only those lines', async () => {
      const renamed = await admin().patch(`/v1/spaces/${spaceId}/content/page/${ids.install}`, { title: 'Setup' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      assert.equal(renamed.body.page.path, 'setup');
      assert.equal(await markdownOf(ids.overview), 'Intro.\n\nSee [installing](setup.md) first.\n\nThe end.\n');
      assert.deepEqual(await linkTarget(ids.overview), { kind: 'page', page: ids.install });
    });

    it('rewrites the links to a moved page and the moved page\'s own links', async () => {
      const moved = await admin().patch(`/v1/spaces/${spaceId}/content/page/${ids.install}`, { parent: ids.guides });
      assert.equal(moved.status, 200, JSON.stringify(moved.body));
      assert.equal(moved.body.page.path, 'guides/setup');
      assert.equal(await markdownOf(ids.overview), 'Intro.\n\nSee [installing](guides/setup.md) first.\n\nThe end.\n');
      assert.equal(await markdownOf(ids.install), 'Install it.\n\nBack to [the overview](../overview.md).\n');
      assert.deepEqual(await linkTarget(ids.overview), { kind: 'page', page: ids.install });
      assert.deepEqual(await linkTarget(ids.install), { kind: 'page', page: ids.overview });
    });

    it('follows a page whose slug gives way to a new sibling, and takes it back when that sibling is deleted', async () => {
      const created = await admin().post(`/v1/spaces/${spaceId}/content/pages`, { title: 'Setup', parent: ids.guides, position: 0 });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.path, 'guides/setup');
      assert.equal(await markdownOf(ids.overview), 'Intro.\n\nSee [installing](guides/setup-1.md) first.\n\nThe end.\n');
      assert.deepEqual(await linkTarget(ids.overview), { kind: 'page', page: ids.install });
      assert.equal((await admin().delete(`/v1/spaces/${spaceId}/content/page/${created.body.id}`)).status, 204);
      assert.equal(await markdownOf(ids.overview), 'Intro.\n\nSee [installing](guides/setup.md) first.\n\nThe end.\n');
      assert.deepEqual(await linkTarget(ids.overview), { kind: 'page', page: ids.install });
    });

    it('writes a document saved with a rename from the page\'s new file', async () => {
      const document = (await admin().get(`/v1/spaces/${spaceId}/content/page/${ids.install}`)).body.document;
      const saved = await admin().patch(`/v1/spaces/${spaceId}/content/page/${ids.install}`, { title: 'Installation', document });
      assert.equal(saved.status, 200, JSON.stringify(saved.body));
      assert.equal(await markdownOf(ids.install), 'Install it.\n\nBack to [the overview](../overview.md).\n');
      assert.equal(await markdownOf(ids.overview), 'Intro.\n\nSee [installing](guides/installation.md) first.\n\nThe end.\n');
    });
  });
}
