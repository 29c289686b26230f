import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { gzipSync } from 'node:zlib';
import { contrast, readableOn } from '../../src/published/theme.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { addVariant, browse, createSite, type SiteHandle } from './support.ts';

describe('theme colours', () => {
  it('keeps a readable primary colour and darkens or lightens one that is not', () => {
    assert.equal(readableOn('#0b63ce', 'light'), '#0b63ce');
    for (const color of ['#ffff00', '#a3e635', '#ffffff', '#777777']) assert.ok(contrast(readableOn(color, 'light'), '#ffffff') >= 4.5, color);
    for (const color of ['#000080', '#1e3a8a', '#000000', '#C2410C']) assert.ok(contrast(readableOn(color, 'dark'), '#0d1117') >= 4.5, color);
  });
});

for (const dialect of dialects) {
  describe(`a branded site [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let site: SiteHandle;
    let siteSpaceId: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Welcome', description: 'The start.', markdown: 'Hello.\n\n```js\nconst a = 1;\n```\n' },
        { type: 'document', title: 'Next', markdown: 'More.\n' },
      ]);
      site = await createSite(world.admin, world.organizationId, { title: 'Brand Docs', visibility: 'public', spaces: [spaceId] });
      siteSpaceId = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/sites/${site.id}/site-spaces`)).body.items[0].id;
      const other = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Start', markdown: 'Version two.\n' }, { type: 'document', title: 'Next', markdown: 'The next page, in version two.\n' }], { title: 'Version two' });
      variantPath = (await addVariant(world.admin, world.organizationId, site.id, other.spaceId)).path;
      twoSpaceId = other.spaceId;
    });
    let twoSpaceId: string;
    let variantPath: string;
    after(() => t.close());

    const customize = async (patch: Record<string, unknown>) => {
      const current = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/sites/${site.id}/customization`)).body;
      const reply = await world.admin.api.put(`/v1/orgs/${world.organizationId}/sites/${site.id}/customization`, { ...current, ...patch });
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
    };

    it('serves the defaults: the toggle, the light theme, Quire\'s colours, social tags and breadcrumbs', async () => {
      const page = await browse(t.app, `${site.root}`);
      assert.equal(page.status, 200);
      assert.match(page.body, /<html lang="en" data-theme="light" data-toggle="on" style="--q-brand-light:#346ddb;--q-brand-dark:#[0-9a-f]{6};/);
      assert.match(page.body, /<script src="\/~quire\/[^/]+\/theme\.js"><\/script>\n<link rel="stylesheet"/, 'the theme script runs before the stylesheets, without defer');
      assert.match(page.body, /class="theme-toggle"/);
      assert.match(page.body, /<meta property="og:title" content="Welcome">/);
      assert.match(page.body, /<meta name="twitter:card" content="summary">/);
      assert.match(page.body, /"@type":"BreadcrumbList"/);
      assert.match(page.body, /data-page="[^"]+" data-space="[^"]+" data-site-space="[^"]+"/);
      assert.doesNotMatch(page.body, /page-feedback/, 'feedback is off by default');
      assert.match(page.body, /Published with Quire/);
      assert.doesNotMatch(page.body, /<style/);
    });

    it('serves the site\'s default theme with the toggle on, and the toggle stays', async () => {
      const current = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/sites/${site.id}/customization`)).body;
      await customize({ themes: { default: 'dark', toggeable: true } });
      const dark = await browse(t.app, `${site.root}`);
      assert.match(dark.body, /<html lang="en" data-theme="dark" data-toggle="on"/);
      assert.match(dark.body, /class="theme-toggle"/);
      await customize({ themes: { default: 'light', toggeable: true } });
      const light = await browse(t.app, `${site.root}`);
      assert.match(light.body, /<html lang="en" data-theme="light" data-toggle="on"/);
      assert.notEqual(dark.body, light.body, 'the default theme reaches the page');
      await customize({ themes: current.themes });
    });

    it('applies the customization at once: colours, logo, title, footer, fixed theme, feedback; a site space override changes only its pages', async () => {
      await customize({
        title: 'Brand Handbook',
        styling: { ...(await world.admin.api.get(`/v1/orgs/${world.organizationId}/sites/${site.id}/customization`)).body.styling, primaryColor: { light: '#ffff00', dark: '#000080' }, font: 'Merriweather' },
        header: { preset: 'default', logo: { light: 'https://cdn.example.com/light.svg', dark: 'https://cdn.example.com/dark.svg' }, links: [{ title: 'Home', to: { kind: 'url', url: 'https://example.com' }, links: [] }] },
        footer: { groups: [{ title: 'More', links: [{ title: 'Blog', to: { kind: 'url', url: 'https://example.com/blog' } }] }], copyright: '© Brand' },
        themes: { default: 'dark', toggeable: false },
        feedback: { enabled: true },
        trademark: { enabled: false },
        favicon: { emoji: '📘' },
      });
      const page = await browse(t.app, `${site.root}`);
      const light = /--q-brand-light:(#[0-9a-f]{6})/.exec(page.body)![1];
      const dark = /--q-brand-dark:(#[0-9a-f]{6})/.exec(page.body)![1];
      assert.ok(contrast(light, '#ffffff') >= 4.5 && contrast(dark, '#0d1117') >= 4.5, 'colours readable in both themes');
      assert.match(page.body, /<html lang="en" data-theme="dark" data-toggle="off"/);
      assert.doesNotMatch(page.body, /class="theme-toggle"/);
      assert.match(page.body, /--q-font:&quot;Merriweather&quot;|--q-font:Merriweather/);
      assert.match(page.body, /<img class="site-logo logo-light" src="https:\/\/cdn\.example\.com\/light\.svg" alt="Brand Handbook" width="160" height="32">/);
      assert.match(page.body, /<a class="header-link" href="https:\/\/example\.com">Home<\/a>/);
      assert.match(page.body, /<p class="footer-copyright">© Brand<\/p>/);
      assert.match(page.body, /Blog<\/a>/);
      assert.doesNotMatch(page.body, /Published with Quire/);
      assert.match(page.body, /<form class="page-feedback" data-feedback>/);
      assert.match(page.body, /<link rel="icon" href="data:image\/svg\+xml,/);
      assert.match(page.body, /<title>Welcome · Brand Handbook<\/title>/);

      const override = await world.admin.api.patch(`/v1/orgs/${world.organizationId}/sites/${site.id}/site-spaces/${siteSpaceId}/customization`, { footer: { copyright: '© Space' } });
      assert.equal(override.status, 200);
      const overridden = await browse(t.app, `${site.root}/next`);
      assert.match(overridden.body, /© Space/);
      const missing = await browse(t.app, `${site.root}/nothing-here`);
      assert.match(missing.body, /© Brand/, 'pages outside any site space keep the site\'s footer');
    });

    it('lands the variant switcher on the same page in the other variant, or on its start', async () => {
      const next = await browse(t.app, `${site.root}/next`);
      assert.match(next.body, new RegExp(`href="${site.root}/${variantPath}/next">Version two<`));
      const welcome = await browse(t.app, `${site.root}/welcome`);
      assert.match(welcome.body, new RegExp(`href="${site.root}/${variantPath}">Version two<`));
    });

    it('serves a public space at its own published address, and nothing of a private one', async () => {
      const space = await world.admin.api.get(`/v1/spaces/${twoSpaceId}`);
      assert.equal((await browse(t.app, new URL(space.body.urls.published ?? `http://quire.test/s/${twoSpaceId}`).pathname)).status, 404, 'private');
      const patched = await world.admin.api.patch(`/v1/spaces/${twoSpaceId}`, { visibility: 'public' });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      const published = new URL(patched.body.urls.published).pathname;
      const start = await browse(t.app, published);
      assert.equal(start.status, 200);
      assert.match(start.body, /<h1 class="page-title">Start<\/h1>/);
      const next = await browse(t.app, `${published}/next`);
      assert.match(next.body, /<h1 class="page-title">Next<\/h1>/);
      assert.match((await browse(t.app, `${published}/next.md`)).body, /^# Next/);
      assert.equal((await browse(t.app, `${published}/nothing`)).status, 404);
      assert.equal((await browse(t.app, '/s/no-such-space')).status, 404);
    });

    it('keeps a warm page light: its HTML, CSS and scripts under 100 KB compressed', async () => {
      const page = await browse(t.app, `${site.root}`);
      const assets = [...page.body.matchAll(/(?:href|src)="(\/~quire\/[^"]+\.(?:css|js))"/g)].map((m) => m[1]);
      assert.ok(assets.length >= 5, `assets: ${assets.join(', ')}`);
      let total = gzipSync(page.body).length;
      for (const asset of assets) total += gzipSync((await browse(t.app, asset)).body).length;
      assert.ok(total < 100 * 1024, `${total} bytes compressed`);
      // Images have their dimensions: the logo's box is fixed (no layout shift while it loads).
      assert.match(page.body, /<img class="site-logo logo-light"[^>]* width="160" height="32">/);
    });

    it('records the reader\'s beacons (page views, searches, feedback) with nothing personal', async () => {
      const page = await browse(t.app, `${site.root}`);
      const pageId = /data-page="([^"]+)"/.exec(page.body)![1];
      const post = (body: unknown) => t.app.inject({ method: 'POST', url: `${site.root}/~insights`, headers: { 'content-type': 'application/json', 'user-agent': 'PelicanBrowser/2' }, payload: JSON.stringify(body) });
      assert.equal((await post({ type: 'page_view', page: pageId, siteSpace: siteSpaceId, path: site.root })).statusCode, 204);
      assert.equal((await post({ type: 'search_type_query', query: 'nothing matches this', results: 0, siteSpace: siteSpaceId })).statusCode, 204);
      assert.equal((await post({ type: 'page_post_feedback', rating: 'bad', page: pageId, siteSpace: siteSpaceId })).statusCode, 204);
      assert.equal((await post({ type: 'page_post_feedback', rating: 'terrible' })).statusCode, 204, 'malformed beacons are dropped quietly');
      const broken = await t.app.inject({ method: 'POST', url: `${site.root}/~insights`, headers: { 'content-type': 'application/json' }, payload: '{broken' });
      assert.equal(broken.statusCode, 400);
      const rows = await t.ctx.db.selectFrom('site_insight_events').selectAll().orderBy('type').execute();
      assert.deepEqual(rows.map((r) => r.type), ['page_post_feedback', 'page_view', 'search_type_query']);
      assert.ok(rows.every((r) => !JSON.stringify(r).includes('PelicanBrowser') && !JSON.stringify(r).includes('127.0.0.1')));
      const empty = await world.admin.api.post(`/v1/orgs/${world.organizationId}/sites/${site.id}/insights/events/aggregate`, {
        range: 'last7Days',
        groupBy: [{ column: 'eventSearchQuery' }],
        where: [{ column: 'eventType', values: ['search_type_query'] }, { column: 'eventSearchResultsCount', values: [0] }],
      });
      assert.equal(empty.status, 200, JSON.stringify(empty.body));
      assert.deepEqual(empty.body.columns[0].values, ['nothing matches this'], 'searches without results are easy to find');
      assert.equal((await t.app.inject({ method: 'GET', url: `${site.root}/~insights` })).statusCode, 404);
    });
  });
}
