import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, createSpaceWithPages, currentRevision } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { buildZip, dataUrl, PNG } from '../imports/helpers.ts';

interface Page {
  id: string;
  title: string;
  type: string;
  path?: string;
  description?: string;
  hidden?: boolean;
  target?: unknown;
  pages?: Page[];
}

const flatten = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
const outline = (pages: Page[]): unknown[] => pages.map((page) => (page.pages?.length ? [page.title, outline(page.pages)] : page.title));

for (const dialect of dialects) {
  describe(`POST /v1/spaces/{spaceId}/content/import [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const api = () => world.members.edit.api;
    const importInto = (spaceId: string, body: unknown, user = world.members.edit) => user.api.post(`/v1/spaces/${spaceId}/content/import`, body);
    const tree = async (spaceId: string): Promise<Page[]> => (await api().get(`/v1/spaces/${spaceId}/content/pages`)).body.pages;
    const markdownOf = async (spaceId: string, pageId: string): Promise<string> => (await api().get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown;
    const documentOf = async (spaceId: string, pageId: string): Promise<string> => JSON.stringify((await api().get(`/v1/spaces/${spaceId}/content/page/${pageId}`)).body.document);
    const byTitle = (pages: Page[], title: string): Page => flatten(pages).find((page) => page.title === title)!;

    it('imports one Markdown file from a data: URL as one page, honouring its front matter', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const before = await currentRevision(t.ctx, spaceId);
      const markdown = '---\ndescription: How to start\nhidden: true\nowner: docs-team\n---\n# Getting started\n\nInstall it, then *run* it.\n';
      const reply = await importInto(spaceId, { source: 'markdown', url: dataUrl('text/markdown', markdown) });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const revisionId = await currentRevision(t.ctx, spaceId);
      assert.deepEqual(reply.body, { revision: revisionId, importedResources: 1, totalResources: 1 });
      assert.equal(reply.headers.location, `/v1/spaces/${spaceId}/revisions/${revisionId}`);
      const revision = (await api().get(`/v1/spaces/${spaceId}/content`)).body;
      assert.deepEqual([revision.type, revision.parents], ['edits', [before]]);
      const [page] = revision.pages as Page[];
      assert.deepEqual([page.title, page.path, page.description, page.hidden], ['Getting started', 'getting-started', 'How to start', true]);
      assert.equal(await markdownOf(spaceId, page.id), '---\nowner: docs-team\n---\n\nInstall it, then *run* it.\n');

      const plain = await importInto(spaceId, { source: 'markdown', url: 'data:text/markdown,Plain%20text%20page.' });
      assert.equal(plain.status, 201);
      const second = (await tree(spaceId))[1];
      assert.equal(second.title, 'Imported page');
      assert.equal(await markdownOf(spaceId, second.id), 'Plain text page.');
    });

    it('imports a zip with SUMMARY.md and .gitbook.yaml: the tree, groups, page links and image files', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const zip = buildZip([
        { name: 'repo-main/', data: '' },
        { name: 'repo-main/.gitbook.yaml', data: 'root: ./docs/\nstructure:\n  readme: intro.md\n  summary: toc.md\n' },
        { name: 'repo-main/package.json', data: '{}' },
        { name: 'repo-main/docs/toc.md', data: '# Table of contents\n\n* [Welcome](intro.md)\n* [Guides](guides/README.md)\n  * [Install](guides/install.md)\n\n## Reference\n\n* [API](reference/api.md)\n* [Website](https://example.com)\n' },
        { name: 'repo-main/docs/intro.md', data: '# Welcome\n\nStart with [installing](guides/install.md#requirements), see ![the logo](.gitbook/assets/logo.png).\n' },
        { name: 'repo-main/docs/guides/README.md', data: 'All guides. Back to [the start](../intro.md).\n' },
        { name: 'repo-main/docs/guides/install.md', data: '# Install\n\n## Requirements\n\nRead [the API](../reference/api.md) and get [the sheet](../files/sheet.pdf).\n' },
        { name: 'repo-main/docs/reference/api.md', data: '# API\n\nEndpoints.\n' },
        { name: 'repo-main/docs/draft.md', data: '# Not in the summary\n' },
        { name: 'repo-main/docs/.gitbook/assets/logo.png', data: PNG },
        { name: 'repo-main/docs/files/sheet.pdf', data: '%PDF-1.4 tiny' },
        { name: 'repo-main/docs/files/unused.png', data: PNG },
      ]);
      const reply = await importInto(spaceId, { source: 'zip', url: dataUrl('application/zip', zip) });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      // 6 pages (Welcome, Guides, Install, the Reference group, API, the Website link) and 2 files; skipped:
      // draft.md, unused.png and package.json (outside the root).
      assert.deepEqual([reply.body.importedResources, reply.body.totalResources], [8, 11]);
      const pages = await tree(spaceId);
      assert.deepEqual(outline(pages), ['Welcome', ['Guides', ['Install']], ['Reference', ['API', 'Website']]]);
      assert.deepEqual(pages.map((page) => page.type), ['document', 'document', 'group']);
      assert.deepEqual(byTitle(pages, 'Website').target, { kind: 'url', url: 'https://example.com' });

      const install = byTitle(pages, 'Install');
      const reference = byTitle(pages, 'API');
      const welcome = byTitle(pages, 'Welcome');
      // A page read from a folder keeps its Markdown as written; its links resolve relative to its file.
      assert.equal(await markdownOf(spaceId, install.id), '## Requirements\n\nRead [the API](../reference/api.md) and get [the sheet](../files/sheet.pdf).\n');
      assert.deepEqual((install as { git?: { path: string } }).git?.path, 'guides/install.md');
      const installDocument = await documentOf(spaceId, install.id);
      assert.ok(installDocument.includes(`{"kind":"page","page":"${reference.id}"}`), installDocument);
      assert.ok(installDocument.includes(`{"kind":"file","file":"${await fileId(spaceId, 'sheet.pdf')}"}`), installDocument);
      const welcomeDocument = await documentOf(spaceId, welcome.id);
      assert.ok(welcomeDocument.includes(`{"kind":"anchor","anchor":"requirements","page":"${install.id}"}`), welcomeDocument);
      const guidesDocument = await documentOf(spaceId, byTitle(pages, 'Guides').id);
      assert.ok(guidesDocument.includes(`{"kind":"page","page":"${welcome.id}"}`), guidesDocument);
      assert.doesNotMatch(welcomeDocument + installDocument + guidesDocument, /"kind":"url","url":"[^"]*\.md/);

      const files = (await api().get(`/v1/spaces/${spaceId}/content/files`)).body.items;
      assert.deepEqual(files.map((file: { name: string; contentType: string }) => [file.name, file.contentType]), [['logo.png', 'image/png'], ['sheet.pdf', 'application/pdf']]);
      const logo = files.find((file: { name: string }) => file.name === 'logo.png');
      assert.ok(welcomeDocument.includes(`"file":"${logo.id}"`), 'the image is the imported file');
      const download = new URL(logo.downloadURL);
      const bytes = await t.app.inject({ method: 'GET', url: download.pathname + download.search });
      assert.equal(bytes.statusCode, 200);
      assert.ok(bytes.rawPayload.equals(PNG), 'the same bytes come back');
    });

    const fileId = async (spaceId: string, name: string): Promise<string> =>
      (await api().get(`/v1/spaces/${spaceId}/content/files`)).body.items.find((file: { name: string }) => file.name === name).id;

    it('without a summary, the folders and their README.md files give the tree', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const zip = buildZip([
        { name: 'README.md', data: '# Home\n\nSee [setup](guides/setup.md) and [the guides](guides/).\n' },
        { name: 'guides/README.md', data: '# All guides\n' },
        { name: 'guides/setup.md', data: '# Set up\n\n![diagram](img/diagram.png)\n' },
        { name: 'guides/2-advanced.md', data: 'No heading here.\n' },
        { name: 'guides/10-expert.md', data: '# Expert\n' },
        { name: 'guides/img/diagram.png', data: PNG },
        { name: 'faq.md', data: '# FAQ\n' },
        { name: 'api/reference/endpoints.md', data: '# Endpoints\n' },
        { name: '__MACOSX/._faq.md', data: 'junk' },
        { name: '.gitbook/includes/notice.md', data: 'A notice every page may include.\n' },
        { name: '.github/CONTRIBUTING.md', data: '# Contributing\n' },
      ]);
      const reply = await importInto(spaceId, { source: 'zip', url: dataUrl('application/zip', zip) });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const pages = await tree(spaceId);
      // Hidden folders hold no pages: .gitbook/includes become reusable contents, .github is left out.
      assert.deepEqual(outline(pages), ['Home', ['Api', [['Reference', ['Endpoints']]]], 'FAQ', ['All guides', ['2 advanced', 'Expert', 'Set up']]]);
      const home = byTitle(pages, 'Home');
      const homeDocument = await documentOf(spaceId, home.id);
      assert.ok(homeDocument.includes(`{"kind":"page","page":"${byTitle(pages, 'Set up').id}"}`), homeDocument);
      assert.ok(homeDocument.includes(`{"kind":"page","page":"${byTitle(pages, 'All guides').id}"}`), homeDocument);
      const setup = await documentOf(spaceId, byTitle(pages, 'Set up').id);
      assert.ok(setup.includes(`"file":"${await fileId(spaceId, 'diagram.png')}"`), setup);
      // The reusable content counts as imported; the page under .github as found and skipped.
      assert.deepEqual([reply.body.importedResources, reply.body.totalResources], [11, 13]);
    });

    it('into a page: one page replaces its body (title and children kept), several go under it', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { id: 'target', type: 'document', title: 'Target', markdown: 'Old body.\n', pages: [{ id: 'child', type: 'document', title: 'Child' }] },
        { id: 'away', type: 'link', title: 'Away', target: { kind: 'url', url: 'https://example.com' } },
      ]);
      const one = await api().post(`/v1/spaces/${spaceId}/content/page/target/import`, { source: 'markdown', url: dataUrl('text/markdown', '---\ndescription: New\n---\n# Fresh\n\nNew body.\n') });
      assert.equal(one.status, 201, JSON.stringify(one.body));
      assert.deepEqual([one.body.importedResources, one.body.totalResources], [1, 1]);
      let pages = await tree(spaceId);
      assert.deepEqual(outline(pages), [['Target', ['Child']], 'Away']);
      assert.equal(pages[0].description, 'New');
      assert.equal(await markdownOf(spaceId, 'target'), 'New body.\n');

      const zip = buildZip([{ name: 'SUMMARY.md', data: '* [One](one.md)\n\n## Group\n\n* [Two](two.md)\n' }, { name: 'one.md', data: 'See [two](two.md).\n' }, { name: 'two.md', data: 'Two.\n' }]);
      const several = await api().post(`/v1/spaces/${spaceId}/content/page/target/import`, { source: 'zip', url: dataUrl('application/zip', zip) });
      assert.equal(several.status, 201, JSON.stringify(several.body));
      pages = await tree(spaceId);
      assert.deepEqual(outline(pages), [['Target', ['Child', 'One', ['Group', ['Two']]]], 'Away']);
      assert.equal(byTitle(pages, 'Group').type, 'document', 'a group under a page becomes a document');
      assert.ok((await documentOf(spaceId, byTitle(pages, 'One').id)).includes(`{"kind":"page","page":"${byTitle(pages, 'Two').id}"}`));
      assert.equal(await markdownOf(spaceId, 'target'), 'New body.\n');

      const md = dataUrl('text/markdown', 'x');
      assertError(await api().post(`/v1/spaces/${spaceId}/content/page/away/import`, { source: 'markdown', url: md }), 400, 'is a link');
      assertError(await api().post(`/v1/spaces/${spaceId}/content/page/ghost/import`, { source: 'markdown', url: md }), 404, 'No page "ghost"');
    });

    const snapshot = async () =>
      JSON.stringify([
        await t.ctx.db.selectFrom('spaces').select(['id', 'revision_id', 'updated_at']).orderBy('id').execute(),
        await t.ctx.db.selectFrom('revisions').select('id').orderBy('id').execute(),
      ]);

    it('refuses unsupported sources, bad schemes and bad bodies with a 400 that says why; nothing changes', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const before = await snapshot();
      for (const source of ['confluence', 'github-wiki', 'notion', 'google-docs']) {
        assertError(await importInto(spaceId, { source, url: 'https://example.com/x' }), 400, `Importing from "${source}" is not supported yet`);
      }
      assertError(await importInto(spaceId, { source: 'pdf', url: 'https://example.com/x' }), 400, '"source" must be one of');
      for (const url of ['ftp://example.com/docs.zip', 'file:///etc/passwd', 'javascript:alert(1)', 'gopher://example.com/']) {
        assertError(await importInto(spaceId, { source: 'zip', url }), 400, 'must use http, https or data');
      }
      assertError(await importInto(spaceId, { source: 'zip', url: 'docs.zip' }), 400, 'absolute URL');
      assertError(await importInto(spaceId, { source: 'zip' }), 400, 'missing the required member "url"');
      assertError(await importInto(spaceId, { source: 'zip', url: 'https://example.com', extra: 1 }), 400, '"extra"');
      assertError(await importInto(spaceId, { source: 'zip', url: 'data:application/zip;base64,%%%' }), 400, 'not valid base64');
      assertError(await importInto(spaceId, { source: 'zip', url: dataUrl('application/zip', 'not a zip at all') }), 400, 'not a readable zip');
      assertError(await importInto(spaceId, { source: 'zip', url: dataUrl('application/zip', buildZip([{ name: 'a.png', data: PNG }])) }), 400, 'no Markdown file');
      assertError(await importInto(spaceId, { source: 'markdown', url: dataUrl('text/markdown', PNG) }), 400, 'binary data');
      assertError(await importInto(spaceId, { source: 'docx', url: dataUrl('application/zip', buildZip([{ name: 'a.md', data: 'x' }])) }), 400, 'not a Word document');
      assert.equal(await snapshot(), before);
    });

    it('refuses private, loopback, link-local and metadata destinations without QUIRE_IMPORT_ALLOW_PRIVATE', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const before = await snapshot();
      const cases: Array<[string, string]> = [
        ['http://127.0.0.1:9/docs.md', 'loopback'],
        ['http://10.0.0.1/docs.md', 'private network'],
        ['http://192.168.1.20/docs.md', 'private network'],
        ['http://169.254.169.254/latest/meta-data/', 'link-local'],
        ['http://[::1]:9/docs.md', 'loopback'],
        ['http://[::ffff:127.0.0.1]:9/docs.md', 'loopback'],
        ['http://[fd00:ec2::254]/latest', 'unique-local'],
        ['http://100.100.100.200/latest', 'carrier-grade NAT'],
        ['http://localhost:9/docs.md', 'the address of "localhost"'],
      ];
      for (const [url, words] of cases) {
        const reply = await importInto(spaceId, { source: 'markdown', url });
        assertError(reply, 400, words);
        assert.match(reply.body.error.message, /QUIRE_IMPORT_ALLOW_PRIVATE=1/);
      }
      assert.equal(await snapshot(), before);
    });

    it('refuses hostile archives: traversal, absolute paths, zip bombs, too many entries, lying sizes; nothing changes', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const before = await snapshot();
      const zip = (entries: Parameters<typeof buildZip>[0]) => ({ source: 'zip', url: dataUrl('application/zip', buildZip(entries)) });
      assertError(await importInto(spaceId, zip([{ name: 'ok.md', data: '# Ok' }, { name: '../evil.md', data: 'x' }])), 400, 'unsafe path ("../evil.md")');
      assertError(await importInto(spaceId, zip([{ name: 'docs/../../evil.md', data: 'x' }])), 400, 'unsafe path');
      assertError(await importInto(spaceId, zip([{ name: '/etc/cron.d/evil', data: 'x' }])), 400, 'unsafe path');
      assertError(await importInto(spaceId, zip([{ name: 'README.md', data: '# Hi' }, { name: 'zeros.bin', data: Buffer.alloc(20 * 1024 * 1024) }])), 400, 'zip bomb');
      assertError(await importInto(spaceId, zip([{ name: 'README.md', data: 'short', declaredSize: 2 }])), 400, 'not a readable zip');
      const many = Array.from({ length: 10_001 }, (_, i) => ({ name: `p${i}.md`, data: '', method: 'store' as const }));
      assertError(await importInto(spaceId, zip(many)), 400, 'holds 10001 entries; an import takes at most 10000');
      assertError(await importInto(spaceId, zip([{ name: 'README.md', data: '---\n: [broken\n---\nText' }])), 400, 'front matter of "README.md"');
      assert.equal(await snapshot(), before);
    });

    it('is refused with 423 while the space is locked, before fetching anything', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId, { editMode: 'locked' });
      const before = await snapshot();
      assertError(await importInto(spaceId, { source: 'markdown', url: dataUrl('text/markdown', '# Hi') }, world.admin), 423, 'locked');
      assertError(await importInto(spaceId, { source: 'markdown', url: 'http://127.0.0.1/x.md' }, world.admin), 423, 'locked');
      assert.equal(await snapshot(), before);
    });

    it('needs the edit level: read and comment get 403, a guest and an outsider 404', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const body = { source: 'markdown', url: dataUrl('text/markdown', '# Page') };
      for (const [name, user] of cast(world)) {
        const reply = await importInto(spaceId, body, user);
        if (['admin', 'create', 'review', 'edit'].includes(name)) assert.equal(reply.status, 201, `${name}: ${JSON.stringify(reply.body)}`);
        else if (name === 'read' || name === 'comment') assertError(reply, 403, 'edit level');
        else assertError(reply, 404, 'No space');
      }
      assert.equal((await tree(spaceId)).length, 4);
      const open = await createSpace(t.ctx, world.organizationId, { visibility: 'public' });
      assertError(await importInto(open, body, world.outsider), 403, 'edit level');
      assertError(await importInto('nope', body, world.admin), 404);
      assertError(await world.members.read.api.post(`/v1/spaces/${spaceId}/content/page/x/import`, body), 403, 'edit level');
    });
  });
}
