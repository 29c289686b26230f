import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, currentRevision } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { buildDocx, dataUrl, PNG } from '../imports/helpers.ts';
import { html, startSite, type TestSite } from '../imports/server.ts';

interface Page {
  id: string;
  title: string;
  type: string;
  path?: string;
  description?: string;
  pages?: Page[];
}

const flatten = (pages: Page[]): Page[] => pages.flatMap((page) => [page, ...flatten(page.pages ?? [])]);
const outline = (pages: Page[]): unknown[] => pages.map((page) => (page.pages?.length ? [page.title, outline(page.pages)] : page.title));
const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

for (const dialect of dialects) {
  describe(`content import from the web and from Word documents [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let site: TestSite;
    before(async () => {
      // The test site lives on 127.0.0.1: this app may fetch from private addresses.
      t = await createTestApp(dialect, { QUIRE_IMPORT_ALLOW_PRIVATE: '1' });
      world = await createWorld(t.ctx, t.app, t.clock);
      site = await startSite({
        '/robots.txt': { type: 'text/plain', body: 'User-agent: *\nDisallow: /private\n' },
        '/': html(
          '<nav><a href="/from-nav">Menu</a></nav><main><h1>Welcome</h1><p>Read <a href="/guide/">the guide</a>, not <a href="/private/notes">the notes</a>, or <a href="https://elsewhere.example/">elsewhere</a>.</p><img src="/logo.png" alt="Logo"><img src="/missing.png" alt="Gone"><table><tr><th>Key</th><th>Value</th></tr><tr><td>a</td><td>1</td></tr></table></main>',
          '<title>Home | Example</title><meta name="description" content="The home page">',
        ),
        '/logo.png': { type: 'image/png', body: PNG },
        '/guide/': html('<h1>Guide</h1><p>Back <a href="/">home</a>; next <a href="/guide/steps#first">the steps</a>. <a href="/files/sheet.pdf">Sheet</a></p>'),
        '/guide/steps': html('<h1>Steps</h1><h2 id="first">First</h2><p>Then <a href="/guide/steps/more">more</a>.</p>'),
        '/guide/steps/more': html('<h1>More</h1><p>And <a href="/guide/steps/more/deepest">deeper still</a>.</p>'),
        '/guide/steps/more/deepest': html('<h1>Deepest</h1>'),
        '/private/notes': html('<h1>Private notes</h1>'),
        '/from-nav': html('<h1>Menu page</h1>'),
        '/moved': { location: '/guide/' },
        '/loop': { location: '/loop' },
        '/word.docx': { type: DOCX, body: buildDocx() },
        '/locked-out/': html('<h1>Nope</h1>'),
      });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    const api = () => world.members.edit.api;
    const importInto = (spaceId: string, body: unknown) => api().post(`/v1/spaces/${spaceId}/content/import`, body);
    const tree = async (spaceId: string): Promise<Page[]> => (await api().get(`/v1/spaces/${spaceId}/content/pages`)).body.pages;
    const markdownOf = async (spaceId: string, pageId: string): Promise<string> => (await api().get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown;
    const documentOf = async (spaceId: string, pageId: string): Promise<string> => JSON.stringify((await api().get(`/v1/spaces/${spaceId}/content/page/${pageId}`)).body.document);
    const files = async (spaceId: string) => (await api().get(`/v1/spaces/${spaceId}/content/files`)).body.items as Array<{ id: string; name: string; contentType: string; downloadURL: string }>;
    const download = async (url: string) => {
      const parsed = new URL(url);
      return (await t.app.inject({ method: 'GET', url: parsed.pathname + parsed.search })).rawPayload;
    };

    it('html: one page converted to Markdown, its image downloaded as a file, a missing image kept as a link', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const reply = await importInto(spaceId, { source: 'html', url: `${site.origin}/` });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.deepEqual([reply.body.importedResources, reply.body.totalResources], [2, 3]);
      const [page] = await tree(spaceId);
      assert.deepEqual([page.title, page.description], ['Welcome', 'The home page']);
      const [logo] = await files(spaceId);
      assert.deepEqual([logo.name, logo.contentType], ['logo.png', 'image/png']);
      assert.ok((await download(logo.downloadURL)).equals(PNG));
      assert.equal(
        await markdownOf(spaceId, page.id),
        `Read [the guide](${site.origin}/guide/), not [the notes](${site.origin}/private/notes), or [elsewhere](https://elsewhere.example/).\n\n` +
          `<figure><img src="files/${logo.id}" alt="Logo"><figcaption></figcaption></figure>\n<figure><img src="${site.origin}/missing.png" alt="Gone"><figcaption></figcaption></figure>\n\n| Key | Value |\n| --- | ----- |\n| a   | 1     |\n`,
      );
      assert.ok(!site.requests.includes('/from-nav'), 'navigation is left out, not followed');
    });

    it('html from a data: URL, with an inline data: image', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const page = `<html><head><title>Inline</title></head><body><p>Dot: <img src="${dataUrl('image/png', PNG)}" alt="dot"></p><ul><li>one</li><li>two</li></ul></body></html>`;
      const reply = await importInto(spaceId, { source: 'html', url: dataUrl('text/html', page) });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const [imported] = await tree(spaceId);
      assert.equal(imported.title, 'Inline');
      const [dot] = await files(spaceId);
      assert.equal(dot.contentType, 'image/png');
      assert.equal(await markdownOf(spaceId, imported.id), `Dot: ![dot](files/${dot.id})\n\n* one\n* two\n`);
    });

    it('website: crawls same-origin links breadth first, at most 3 links deep, honouring robots.txt; links become page links', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const reply = await importInto(spaceId, { source: 'website', url: `${site.origin}/` });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const pages = await tree(spaceId);
      assert.deepEqual(outline(pages), ['Welcome', ['Guide', [['Steps', ['More']]]]]);
      assert.ok(!site.requests.includes('/private/notes'), 'robots.txt is honoured');
      assert.ok(!site.requests.includes('/guide/steps/more/deepest'), 'the depth is bounded');
      // 4 pages + the logo; skipped: the notes (robots), the sheet (not a page), the deepest page (depth), the missing image.
      assert.deepEqual([reply.body.importedResources, reply.body.totalResources], [5, 9]);
      const [welcome, guide] = flatten(pages);
      const steps = flatten(pages).find((page) => page.title === 'Steps')!;
      const guideDocument = await documentOf(spaceId, guide.id);
      assert.ok(guideDocument.includes(`{"kind":"page","page":"${welcome.id}"}`), guideDocument);
      assert.ok(guideDocument.includes(`{"kind":"anchor","anchor":"first","page":"${steps.id}"}`), guideDocument);
      assert.match(await markdownOf(spaceId, welcome.id), /Read \[the guide\]\(guide\/README\.md\), not \[the notes\]\(http:\/\/127\.0\.0\.1:\d+\/private\/notes\)/);
    });

    it('website: a start page that robots.txt disallows, or that is not HTML, is refused', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const before = await currentRevision(t.ctx, spaceId);
      assertError(await importInto(spaceId, { source: 'website', url: `${site.origin}/private/notes` }), 400, 'robots.txt');
      assertError(await importInto(spaceId, { source: 'website', url: `${site.origin}/logo.png` }), 400, 'not an HTML page');
      assertError(await importInto(spaceId, { source: 'website', url: dataUrl('text/html', '<p>x</p>') }), 400, 'http or https start URL');
      assertError(await importInto(spaceId, { source: 'html', url: `${site.origin}/logo.png` }), 400, 'not an HTML page (it is "image/png")');
      assert.equal(await currentRevision(t.ctx, spaceId), before);
    });

    it('follows redirects, and refuses too many of them, a missing page and a dead host with a 400', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const moved = await importInto(spaceId, { source: 'html', url: `${site.origin}/moved` });
      assert.equal(moved.status, 201, JSON.stringify(moved.body));
      assert.equal((await tree(spaceId))[0].title, 'Guide');
      const before = await currentRevision(t.ctx, spaceId);
      assertError(await importInto(spaceId, { source: 'html', url: `${site.origin}/loop` }), 400, 'redirects more than 5 times');
      assertError(await importInto(spaceId, { source: 'markdown', url: `${site.origin}/nothing.md` }), 400, 'answered 404');
      assertError(await importInto(spaceId, { source: 'markdown', url: 'http://127.0.0.1:1/x.md' }), 400, 'connection was refused');
      assert.equal(await currentRevision(t.ctx, spaceId), before);
    });

    it('docx: headings of level 1 split pages; the embedded image becomes a file (over http and from data:)', async () => {
      for (const url of [`${site.origin}/word.docx`, dataUrl(DOCX, buildDocx())]) {
        const spaceId = await createSpace(t.ctx, world.organizationId);
        const reply = await importInto(spaceId, { source: 'docx', url });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        assert.deepEqual([reply.body.importedResources, reply.body.totalResources], [4, 4]);
        const pages = await tree(spaceId);
        assert.deepEqual(outline(pages), [url.startsWith('data:') ? 'Imported document' : 'Word', 'Installation', 'Usage']);
        const [image] = await files(spaceId);
        assert.equal(image.contentType, 'image/png');
        assert.ok((await download(image.downloadURL)).equals(PNG));
        assert.equal(await markdownOf(spaceId, pages[0].id), 'Written before any chapter.\n');
        assert.equal(await markdownOf(spaceId, pages[1].id), 'Run the installer.\n');
        assert.equal(await markdownOf(spaceId, pages[2].id), `## Details\n\nUse it daily.\n\n<figure><img src="files/${image.id}" alt="A dot"><figcaption></figcaption></figure>\n`);
      }
    });
  });
}
