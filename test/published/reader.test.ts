import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setSpaceHead } from '../../src/content/head.ts';
import { renderStats } from '../../src/published/cache.ts';
import { RevisionWriter } from '../../src/content/writer.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { indexNow } from '../search/support.ts';
import { scheduleSpaceIndex } from '../../src/search/changes.ts';
import { addSection, addVariant, browse, createSite, guidePages, navTitles, patchSite, type SiteHandle } from './support.ts';

const PNG = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');

for (const dialect of dialects) {
  describe(`published reader [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let site: SiteHandle;
    let spaces: Record<'guides' | 'guidesV2' | 'api' | 'partners', string>;
    let variantPath: string;
    let apiPath: string;
    let partnersPath: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const org = world.organizationId;
      const make = async (title: string, pages: Parameters<typeof createSpaceWithPages>[2]) => (await createSpaceWithPages(t.ctx, org, pages, { title })).spaceId;
      spaces = {
        guides: await make('Version 1', guidePages('version one')),
        guidesV2: await make('Version 2', [{ type: 'document', title: 'Welcome to two', markdown: 'The second version of the guides.\n' }]),
        api: await make('API', [{ type: 'document', title: 'Endpoints', markdown: 'Every endpoint, with the walrus parameter.\n' }]),
        partners: await make('Partner space', [{ type: 'document', title: 'Partner program', markdown: 'Confidential pelican rebates for partners.\n' }]),
      };
      await editContent(t.ctx, spaces.guides, async (writer) => {
        await addFile(t.ctx, writer, { name: 'diagram.png', contentType: 'image/png', bytes: PNG });
      });
      for (const id of Object.values(spaces)) await scheduleSpaceIndex(t.ctx, id);
      site = await createSite(world.admin, org, { title: 'Acme Handbook', visibility: 'public', spaces: [spaces.guides] });
      const api = await addSection(world.admin, org, site.id, spaces.api, 'API Reference');
      apiPath = api.path;
      const sections = await world.admin.api.get(`/v1/orgs/${org}/sites/${site.id}/sections`);
      const main = sections.body.items.find((s: { id: string }) => s.id !== api.id);
      variantPath = (await addVariant(world.admin, org, site.id, spaces.guidesV2, main.id)).path;
      const partners = await addSection(world.admin, org, site.id, spaces.partners, 'Partner Zone');
      partnersPath = partners.path;
      await patchSite(world.admin, org, site.id, `/sections/${partners.id}`, { condition: 'visitor.claims.unsigned.partner === true' });
      await indexNow(t.ctx);
    });
    after(() => t.close());

    const get = (path: string, options?: Parameters<typeof browse>[2]) => browse(t.app, `${site.root}${path}`, options);

    it('renders the first page of the default variant at the site root, with navigation, tabs and variants', async () => {
      const page = await get('');
      assert.equal(page.status, 200);
      assert.match(String(page.headers['content-type']), /^text\/html/);
      assert.match(page.body, /<h1 class="page-title">Welcome<\/h1>/);
      assert.match(page.body, /<title>Welcome · Acme Handbook<\/title>/);
      assert.match(page.body, /<meta name="description" content="Start here with version one.">/);
      assert.match(page.body, new RegExp(`<link rel="canonical" href="http://quire.test${site.root}">`));
      assert.deepEqual(navTitles(page.body), ['Welcome', 'Getting started', 'Quickstart', 'Plain layout', 'Advanced topics', 'Tuning', 'Robots stay out']);
      assert.match(page.body, /<span class="toc-heading">Advanced topics<\/span>/, 'groups are headings');
      assert.match(page.body, /class="tab current"[^>]*>Acme Handbook</);
      assert.match(page.body, new RegExp(`href="${site.root}/${apiPath}"[^>]*>API Reference<`));
      assert.match(page.body, new RegExp(`href="${site.root}/${variantPath}">Version 2<`), 'the variant switcher links the other variant');
      assert.doesNotMatch(page.body, /Secret hidden page/);
      assert.doesNotMatch(page.body, /Partner Zone|Partner program/);
      assert.match(page.body, /<a href="#install">Install<\/a>/, 'the outline lists the headings');
      assert.match(page.body, /rel="next" href="[^"]*\/getting-started"/);
      assert.equal(page.headers['x-content-type-options'], 'nosniff');
      assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
      assert.doesNotMatch(String(page.headers['content-security-policy']), /script-src[^;]*unsafe/);
      assert.equal(page.headers['x-robots-tag'], undefined);
      assert.doesNotMatch(page.body, /name="robots"/);
      assert.doesNotMatch(page.body, /<script>/, 'no inline script');
    });

    it('renders nested pages with breadcrumbs, previous/next and resolved links and images', async () => {
      const page = await get('/getting-started/quickstart');
      assert.equal(page.status, 200);
      assert.match(page.body, /<nav class="breadcrumbs"[^>]*><ol>.*Getting started.*<\/ol><\/nav>/s);
      assert.match(page.body, /rel="prev" href="[^"]*\/getting-started"/);
      assert.match(page.body, /rel="next" href="[^"]*\/getting-started\/plain-layout"/);
      assert.match(page.body, /aria-current="page" class="current">Quickstart</);
      assert.match(page.body, /<details open><summary><a href="[^"]*\/getting-started"/, 'the branch of the current page is open');
      assert.match(page.body, new RegExp(`href="${site.root}"`), 'a link to the first page leads to the root');
      const image = /src="([^"]*~files[^"]*)"/.exec(page.body);
      assert.ok(image, 'the image points at the reader\'s file address');
      const file = await browse(t.app, image[1].replace(/&amp;/g, '&'));
      assert.equal(file.status, 200);
      assert.equal(file.headers['content-type'], 'image/png');
      const wrong = await browse(t.app, image[1].replace(/~files\/[^/]+/, '~files/nope'));
      assert.equal(wrong.status, 404);
      assert.match(String(wrong.headers['content-type']), /^text\/html/);
    });

    it('honours the layout options a page turns off', async () => {
      const page = await get('/getting-started/plain-layout');
      assert.equal(page.status, 200);
      assert.doesNotMatch(page.body, /class="page-outline"/);
      assert.doesNotMatch(page.body, /class="pagination"/);
      assert.doesNotMatch(page.body, /<p class="page-description">/);
      assert.match(page.body, /<h1 class="page-title">Plain layout<\/h1>/);
    });

    it('serves sections and variants at their paths, and groups lead to their first page', async () => {
      const api = await get(`/${apiPath}`);
      assert.equal(api.status, 200);
      assert.match(api.body, /<h1 class="page-title">Endpoints<\/h1>/);
      assert.match(api.body, /class="tab current"[^>]*>API Reference</);
      const v2 = await get(`/${variantPath}`);
      assert.equal(v2.status, 200);
      assert.match(v2.body, /<h1 class="page-title">Welcome to two<\/h1>/);
      assert.match(v2.body, /aria-current="true" class="current">Version 2</);
      const group = await get('/advanced-topics');
      assert.equal(group.status, 302);
      assert.equal(group.headers.location, `${site.root}/advanced-topics/tuning`);
    });

    it('opens a hidden page by its address, marked noindex, and lists it nowhere', async () => {
      const page = await get('/secret-hidden-page');
      assert.equal(page.status, 200);
      assert.match(page.body, /<meta name="robots" content="noindex">/);
      assert.equal(page.headers['x-robots-tag'], 'noindex');
      for (const path of ['/sitemap.xml', '/llms.txt', '/llms-full.txt', '/~search?q=zebra', '/~search.json?q=zebra']) {
        assert.doesNotMatch((await get(path)).body, /Secret hidden page|zebra content|secret-hidden-page/i, path);
      }
      const robots = await get('/robots-stay-out');
      assert.match(robots.body, /<meta name="robots" content="noindex">/);
    });

    it('answers unknown addresses with a 404 HTML page, never JSON', async () => {
      for (const path of [`${site.root}/no/such/page`, `${site.root}/~nothing`, `/sites/${world.organizationId}/no-such-site`, '/sites/nobody/nothing/at/all']) {
        const page = await browse(t.app, path);
        assert.equal(page.status, 404, path);
        assert.match(String(page.headers['content-type']), /^text\/html/, path);
        assert.match(page.body, /Page not found/);
      }
      const api = await browse(t.app, '/v1/no-such-route');
      assert.equal(api.status, 404);
      assert.match(String(api.headers['content-type']), /json/, 'routes outside sites keep the API\'s 404');
    });

    it('searches the site with and without JavaScript, linking into the right section', async () => {
      const html = await get('/~search?q=walrus');
      assert.equal(html.status, 200);
      assert.match(html.body, new RegExp(`<a class="search-result-title" href="${site.root}/${apiPath}">Endpoints</a>`));
      const json = JSON.parse((await get('/~search.json?q=tune')).body);
      assert.deepEqual(json.results.map((r: { url: string }) => r.url), [`${site.root}/advanced-topics/tuning`]);
      const none = JSON.parse((await get('/~search.json?q=pelican')).body);
      assert.deepEqual(none.results, [], 'a section hidden by its condition is not searched');
    });

    it('shows a conditional section only to visitors whose claims hold, everywhere', async () => {
      const anonymous = await get(`/${partnersPath}`);
      assert.equal(anonymous.status, 404);
      assert.doesNotMatch(anonymous.body, /Partner/);
      for (const path of ['/sitemap.xml', '/llms.txt', '/llms-full.txt', '/~search.json?q=pelican', '/~search?q=pelican', '']) {
        assert.doesNotMatch((await get(path)).body, /Partner|pelican rebates/i, path);
      }
      const partner = await get(`/${partnersPath}?visitor.partner=true`);
      assert.equal(partner.status, 200);
      assert.match(partner.body, /<h1 class="page-title">Partner program<\/h1>/);
      const cookie = partner.cookies.map((c) => c.pair).join('; ');
      assert.match(cookie, /quire_claims=/);
      const later = await get('/~search.json?q=pelican', { cookie });
      assert.equal(JSON.parse(later.body).results[0]?.title, 'Partner program', 'the claims are remembered for the next pages');
      assert.match((await get('/llms.txt', { cookie })).body, /Partner program/);
      const full = (await get('/llms-full.txt', { cookie })).body;
      assert.match(full, /# Partner program\n\nConfidential pelican rebates for partners\./, 'llms-full.txt holds every visible page whole');
      assert.match(full, /Source: http:\/\/quire\.test\/sites\/.*\.md/);
    });

    it('serves robots.txt, sitemap.xml, llms.txt and every page as Markdown', async () => {
      const robots = await get('/robots.txt');
      assert.equal(robots.body, `User-agent: *\nAllow: /\n\nSitemap: http://quire.test${site.root}/sitemap.xml\n`);
      const sitemap = await get('/sitemap.xml');
      assert.match(String(sitemap.headers['content-type']), /^application\/xml/);
      const locs = [...sitemap.body.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1].replace(`http://quire.test${site.root}`, ''));
      assert.deepEqual(locs, ['', '/getting-started', '/getting-started/quickstart', '/getting-started/plain-layout', '/advanced-topics/tuning', `/${variantPath}`, `/${apiPath}`]);
      const llms = await get('/llms.txt');
      assert.match(llms.body, /^# Acme Handbook\n\n## Acme Handbook › Version 1\n\n- \[Welcome\]\(http:\/\/quire\.test[^)]*\/welcome\.md\): Start here with version one\.\n/);
      assert.match(llms.body, /## API Reference\n\n- \[Endpoints\]/);
      const md = await get('/getting-started/quickstart.md');
      assert.equal(md.status, 200);
      assert.equal(md.headers['content-type'], 'text/markdown; charset=utf-8');
      assert.match(md.body, /^# Quickstart\n\n> Five minutes to the first page\.\n\nQuick steps/);
      const linked = await get('/getting-started/README.md');
      assert.match(linked.body, /^# Getting started/);
    });

    it('serves a page again from its cache, and answers 304 to a reader who has it', async () => {
      const first = await get('');
      const rendered = renderStats.rendered;
      assert.equal((await get('')).body, first.body);
      assert.equal(renderStats.rendered, rendered, 'the second request renders nothing');
      assert.equal(first.headers['cache-control'], 'public, no-cache');
      const again = await get('', { headers: { 'if-none-match': String(first.headers.etag) } });
      assert.equal(again.status, 304);
    });

    it('shows an edit of the content and a change of the structure at once', async () => {
      const before = await get('/getting-started');
      assert.match(before.body, /The basics of getting started/);
      // As the API writes: a new revision made current through setSpaceHead.
      const parent = await currentRevision(t.ctx, spaces.guides);
      const writer = await RevisionWriter.fromRevision(t.ctx, parent);
      const pageId = writer.children(null).find((id) => writer.page(id).title === 'Getting started')!;
      writer.updatePage(pageId, { markdown: 'Freshly edited basics.\n' });
      const { revisionId } = await writer.commit(t.ctx, { spaceId: spaces.guides, type: 'edits', parents: [parent] });
      await setSpaceHead(t.ctx, spaces.guides, revisionId);
      const rendered = renderStats.rendered;
      const edited = await get('/getting-started');
      assert.equal(renderStats.rendered, rendered + 1, 'the new revision is a new key');
      assert.match(edited.body, /Freshly edited basics/);
      assert.doesNotMatch(edited.body, /The basics of getting started/);

      const sections = await world.admin.api.get(`/v1/orgs/${world.organizationId}/sites/${site.id}/sections`);
      const api = sections.body.items.find((s: { path: string }) => s.path === apiPath);
      await patchSite(world.admin, world.organizationId, site.id, `/sections/${api.id}`, { title: 'Interfaces' });
      const renamed = await get('/getting-started');
      assert.match(renamed.body, />Interfaces</);
      assert.doesNotMatch(renamed.body, />API Reference</);
    });

    it('serves the site at the root of its hostname', async () => {
      await patchSite(world.admin, world.organizationId, site.id, '', { hostname: 'docs.acme.test' });
      const root = await browse(t.app, '/', { host: 'docs.acme.test' });
      assert.equal(root.status, 200);
      assert.match(root.body, /<link rel="canonical" href="http:\/\/docs\.acme\.test\/">/);
      assert.match(root.body, /href="\/getting-started"/);
      const nested = await browse(t.app, '/getting-started/quickstart', { host: 'docs.acme.test' });
      assert.equal(nested.status, 200);
      const missing = await browse(t.app, '/nope', { host: 'docs.acme.test' });
      assert.equal(missing.status, 404);
      assert.match(String(missing.headers['content-type']), /^text\/html/);
      const other = await browse(t.app, '/getting-started', { host: 'other.acme.test' });
      assert.equal(other.status, 404);
      assert.match(String(other.headers['content-type']), /json/);
    });

    it('serves its assets with immutable caching', async () => {
      const page = await get('');
      const css = /href="(\/~quire\/[^"]+\/site\.css)"/.exec(page.body)![1];
      const asset = await browse(t.app, css);
      assert.equal(asset.status, 200);
      assert.match(String(asset.headers['content-type']), /^text\/css/);
      assert.match(String(asset.headers['cache-control']), /immutable/);
      const js = /src="(\/~quire\/[^"]+\/search\.js)"/.exec(page.body)![1];
      assert.equal((await browse(t.app, js)).status, 200);
      const font = await browse(t.app, css.replace('site.css', 'fonts/KaTeX_Main-Regular.woff2'));
      assert.equal(font.status, 200);
    });
  });
}
