import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { browse, createSite, type SiteHandle } from './support.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

/** A page's cover, emoji and layout options, set through the API, as the published reader shows them. */
for (const dialect of dialects) {
  describe(`published page cover, emoji and layout [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let site: SiteHandle;
    let spaceId: string;
    let fileId: string;
    let pageId: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Welcome', markdown: '## First steps\n\nHello.\n' },
        { type: 'document', title: 'Next', markdown: 'More.\n' },
      ], { title: 'Guide' }));
      await editContent(t.ctx, spaceId, async (writer) => {
        fileId = await addFile(t.ctx, writer, { name: 'cover.png', contentType: 'image/png', bytes: PNG });
      });
      const content = await world.admin.api.get(`/v1/spaces/${spaceId}/content`);
      pageId = content.body.pages[0].id;
      site = await createSite(world.admin, world.organizationId, { title: 'Guide site', visibility: 'public', spaces: [spaceId] });
    });
    after(() => t.close());

    const patch = async (body: unknown) => {
      const reply = await world.admin.api.patch(`/v1/spaces/${spaceId}/content/page/${pageId}`, body);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body;
    };
    const read = async () => {
      const page = await browse(t.app, site.root);
      assert.equal(page.status, 200);
      return page.body;
    };

    it('shows a cover from the space files, hero or full width, and hides it when the layout turns it off', async () => {
      assert.doesNotMatch(await read(), /page-cover/);
      await patch({ cover: { ref: { kind: 'file', file: fileId } } });
      let html = await read();
      assert.match(html, /<figure class="page-cover page-cover-hero"><img src="[^"]*~files\/[^"]*cover\.png" alt=""><\/figure>/);
      await patch({ layout: { coverSize: 'full' } });
      assert.match(await read(), /page-cover page-cover-full/);
      await patch({ layout: { cover: false } });
      assert.doesNotMatch(await read(), /page-cover/);
      await patch({ layout: { cover: true }, cover: { ref: { kind: 'url', url: 'https://images.example.com/banner.jpg' } } });
      assert.match(await read(), /<img src="https:\/\/images\.example\.com\/banner\.jpg" alt="">/);
      await patch({ cover: { ref: { kind: 'url', url: 'javascript:alert(1)' } } }).catch(() => undefined);
      assert.doesNotMatch(await read(), /javascript:/, 'an unsafe address is never written into the page');
    });

    it('shows the emoji GitBook stores as code points as the character, in the title and the navigation', async () => {
      await patch({ emoji: '1f680' });
      const html = await read();
      assert.match(html, /<span class="page-emoji" aria-hidden="true">🚀<\/span> Welcome/);
      assert.match(html, /<span class="toc-emoji" aria-hidden="true">🚀<\/span>Welcome/);
      assert.doesNotMatch(html, /1f680/);
    });

    it('follows the layout toggles: title, description, table of contents, outline, pagination', async () => {
      await patch({ description: 'Start here.' });
      let html = await read();
      for (const part of ['class="page-title"', 'class="page-description"', 'class="toc"', 'class="pagination']) assert.ok(html.includes(part), part);
      await patch({ layout: { title: false, description: false, tableOfContents: false, pagination: false, outline: false } });
      html = await read();
      for (const part of ['class="page-title"', 'class="page-description"', 'class="toc"', 'class="pagination']) assert.ok(!html.includes(part), part);
      assert.match(html, /without-toc/);
      assert.match(html, /without-outline/);
    });
  });
}
