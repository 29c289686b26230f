import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ContentReferenceStatus, GitBookAPI, ImportContentSource } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { buildDocx, buildZip, dataUrl, PNG } from '../imports/helpers.ts';
import { startSite, type TestSite } from '../imports/server.ts';
import { indexNow } from '../search/support.ts';

/**
 * Issue-level check through the public client over real HTTP: every supported import source into a space
 * and into a page, then search and link analysis over what was imported, and the refusals.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: import, search, links [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let api: GitBookAPI;
    let site: TestSite;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_IMPORT_ALLOW_PRIVATE: '1' });
      world = await createWorld(t.ctx, t.app, t.clock);
      site = await startSite({
        '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
        '/': { type: 'text/html', body: '<html><head><title>Home</title></head><body><main><h1>Welcome</h1><p>See <a href="/setup">setup</a> and <a href="/private">private</a>.</p></main></body></html>' },
        '/setup': { type: 'text/html', body: '<html><body><main><h1>Setup</h1><p>Configure the proxy.</p><img src="/dot.png" alt="dot"></main></body></html>' },
        '/private': { type: 'text/html', body: '<html><body><h1>Secret</h1></body></html>' },
        '/dot.png': { type: 'image/png', body: PNG },
      });
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: world.members.edit.token });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    async function newSpace(title: string): Promise<string> {
      const admin = new GitBookAPI({ endpoint: `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`, authToken: world.admin.token });
      return (await admin.orgs.createSpace(world.organizationId, { title })).data.id;
    }

    async function titles(spaceId: string): Promise<string[]> {
      const walk = (pages: Array<{ title: string; pages?: unknown[] }>): string[] =>
        pages.flatMap((page) => [page.title, ...walk((page.pages ?? []) as Array<{ title: string; pages?: unknown[] }>)]);
      return walk((await api.spaces.listPages(spaceId)).data.pages);
    }

    it('imports each supported source into a space', async () => {
      const markdownSpace = await newSpace('Markdown');
      const md = await api.spaces.importContent(markdownSpace, {
        source: ImportContentSource.Markdown,
        url: dataUrl('text/markdown', '---\ndescription: How to start\n---\n# Quickstart\n\nInstall the **proxy** and run it.\n\n{% hint style="info" %}\nNode 20 is needed.\n{% endhint %}\n'),
      });
      assert.equal(md.status, 201);
      assert.deepEqual(await titles(markdownSpace), ['Quickstart']);

      const zipSpace = await newSpace('Zip');
      const zip = buildZip([
        { name: 'SUMMARY.md', data: '# Summary\n\n* [Introduction](README.md)\n\n## Guides\n\n* [Install](guides/install.md)\n* [Configure](guides/configure.md)\n' },
        { name: 'README.md', data: '# Introduction\n\nStart with [install](guides/install.md).\n\n![Diagram](assets/dot.png)\n' },
        { name: 'guides/install.md', data: '# Install\n\nRun the installer.\n' },
        { name: 'guides/configure.md', data: '# Configure\n\nSee [a missing page](nowhere.md).\n' },
        { name: 'assets/dot.png', data: PNG },
      ]);
      const zipped = await api.spaces.importContent(zipSpace, { source: ImportContentSource.Zip, url: dataUrl('application/zip', zip) });
      assert.equal(zipped.data.importedResources, 5, 'four pages (the Guides group is one) and one image');
      assert.deepEqual(await titles(zipSpace), ['Introduction', 'Guides', 'Install', 'Configure']);
      assert.equal((await api.spaces.listFiles(zipSpace)).data.items[0].name, 'dot.png');

      const htmlSpace = await newSpace('Html');
      await api.spaces.importContent(htmlSpace, { source: ImportContentSource.Html, url: `${site.origin}/setup` });
      assert.deepEqual(await titles(htmlSpace), ['Setup']);
      assert.equal((await api.spaces.listFiles(htmlSpace)).data.count, 1, 'the image was kept as a file');

      const webSpace = await newSpace('Website');
      await api.spaces.importContent(webSpace, { source: ImportContentSource.Website, url: `${site.origin}/` });
      const crawled = await titles(webSpace);
      assert.ok(crawled.includes('Welcome') && crawled.includes('Setup'), crawled.join(', '));
      assert.ok(!crawled.includes('Secret'), 'robots.txt is honoured');

      const docxSpace = await newSpace('Docx');
      await api.spaces.importContent(docxSpace, { source: ImportContentSource.Docx, url: dataUrl('application/vnd.openxmlformats-officedocument.wordprocessingml.document', buildDocx()) });
      assert.ok((await titles(docxSpace)).includes('Installation'));
    });

    it('imports into a page', async () => {
      const spaceId = await newSpace('Pages');
      await api.spaces.importContent(spaceId, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', '# Guide\n\nOld text.\n') });
      const pageId = (await api.spaces.listPages(spaceId)).data.pages[0].id;
      await api.spaces.importContentInPageById(spaceId, pageId, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', '# Guide\n\nNew text about tokens.\n') });
      const page = await api.spaces.getPageById(spaceId, pageId, { format: 'markdown' });
      assert.match((page.data as { markdown?: string }).markdown ?? '', /New text about tokens/);
    });

    it('finds imported content by title, heading and body, and reports broken links', async () => {
      const spaceId = await newSpace('Searchable');
      const zip = buildZip([
        { name: 'proxy.md', data: '# Proxy\n\nThe proxy forwards requests.\n' },
        { name: 'network.md', data: '# Network\n\n## Proxy settings\n\nSet the address.\n' },
        { name: 'faq.md', data: '# FAQ\n\nCan I use a proxy? Yes. See [nothing](missing.md).\n' },
      ]);
      await api.spaces.importContent(spaceId, { source: ImportContentSource.Zip, url: dataUrl('application/zip', zip) });
      await indexNow(t.ctx);
      const hits = await api.spaces.searchSpaceContent(spaceId, { query: 'proxy' });
      assert.deepEqual(hits.data.items.map((hit) => hit.title), ['Proxy', 'Network', 'FAQ'], 'title, then heading, then body');
      const prefix = await api.spaces.searchSpaceContent(spaceId, { query: 'forw' });
      assert.deepEqual(prefix.data.items.map((hit) => hit.title), ['Proxy']);
      const org = await api.orgs.searchOrganizationContent(world.organizationId, { query: 'proxy' });
      assert.ok(org.data.items.some((item) => item.id === spaceId));
      const broken = await api.spaces.listSpaceLinks(spaceId, { status: ContentReferenceStatus.Broken });
      assert.equal(broken.data.stats.broken.total, 1);
    });

    it('refuses bad imports with a clear 4xx and leaves the space unchanged', async () => {
      const spaceId = await newSpace('Guarded');
      const before = (await api.spaces.getCurrentRevision(spaceId)).data.id;
      await assert.rejects(api.spaces.importContent(spaceId, { source: ImportContentSource.Markdown, url: 'ftp://example.com/a.md' }), /must use http, https or data/);
      await assert.rejects(api.spaces.importContent(spaceId, { source: ImportContentSource.Notion, url: 'https://example.com/' }), /not supported/i);
      await assert.rejects(
        api.spaces.importContent(spaceId, { source: ImportContentSource.Zip, url: dataUrl('application/zip', buildZip([{ name: '../evil.md', data: 'x' }])) }),
        /unsafe path/,
      );
      await assert.rejects(
        api.spaces.importContent(spaceId, { source: ImportContentSource.Zip, url: dataUrl('application/zip', buildZip([{ name: 'README.md', data: '# Hi' }, { name: 'zeros.bin', data: Buffer.alloc(20 * 1024 * 1024) }])) }),
        /zip bomb/,
      );
      const reader = new GitBookAPI({ endpoint: `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`, authToken: world.members.read.token });
      await assert.rejects(reader.spaces.importContent(spaceId, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', '# x') }), /edit/i);
      assert.equal((await api.spaces.getCurrentRevision(spaceId)).data.id, before);
    });
  });

  describe(`the public client against Quire: import safety by default [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let api: GitBookAPI;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_BODY_LIMIT: '65536' });
      world = await createWorld(t.ctx, t.app, t.clock);
      api = new GitBookAPI({ endpoint: await t.app.listen({ host: '127.0.0.1', port: 0 }), authToken: world.admin.token });
    });
    after(() => t.close());

    it('refuses private addresses and oversized bodies, and changes nothing', async () => {
      const spaceId = (await api.orgs.createSpace(world.organizationId, { title: 'Safe' })).data.id;
      const before = (await api.spaces.getCurrentRevision(spaceId)).data.id;
      for (const url of ['http://127.0.0.1:9/a.md', 'http://169.254.169.254/latest/meta-data', 'http://localhost/a.md', 'http://[::1]/a.md', 'http://10.0.0.1/a.md']) {
        await assert.rejects(api.spaces.importContent(spaceId, { source: ImportContentSource.Markdown, url }), /QUIRE_IMPORT_ALLOW_PRIVATE/, url);
      }
      await assert.rejects(
        api.spaces.importContent(spaceId, { source: ImportContentSource.Markdown, url: dataUrl('text/markdown', 'x'.repeat(100_000)) }),
        /larger than this server accepts/,
      );
      assert.equal((await api.spaces.getCurrentRevision(spaceId)).data.id, before);
    });
  });
}
