import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CustomizationThemeMode, GitBookAPI, PageFeedbackRating, SiteInsightsEventType, SiteInsightsQueryRangePreset } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { indexNow } from '../search/support.ts';
import { scheduleSpaceIndex } from '../../src/search/changes.ts';
import { browse, createSite, type SiteHandle } from '../published/support.ts';

/**
 * The public client, over real HTTP, drives every operation of the reader's API: site customization (site
 * and site space), redirects, insights, site search and MCP servers. The test app validates every answer
 * against the client's document; the role matrix is checked on each group of operations.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: the reader's API [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let org: string;
    let site: SiteHandle;
    let spaceId: string;
    let api: GitBookAPI;
    let readerApi: GitBookAPI;
    let guestApi: GitBookAPI;
    let outsiderApi: GitBookAPI;
    let createApi: GitBookAPI;
    let siteSpaceId: string;
    let installId: string;

    const status = (error: unknown) => (error as { code?: number; statusCode?: number }).code ?? (error as { statusCode?: number }).statusCode;
    const refused = (code: number) => (error: unknown) => status(error) === code;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      org = world.organizationId;
      spaceId = (
        await createSpaceWithPages(
          t.ctx,
          org,
          [
            { type: 'document', title: 'Welcome', markdown: 'Welcome to the zeppelin handbook.\n' },
            { type: 'document', title: 'Install', markdown: 'Install the zeppelin with care.\n\n## Requirements\n\nA hangar.\n' },
            { type: 'document', title: 'Hidden notes', hidden: true, markdown: 'Secret zeppelin notes.\n' },
          ],
          { title: 'Handbook' },
        )
      ).spaceId;
      await scheduleSpaceIndex(t.ctx, spaceId);
      await indexNow(t.ctx);
      site = await createSite(world.admin, org, { title: 'Zeppelin Docs', visibility: 'public', spaces: [spaceId] });
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      const as = (token: string) => new GitBookAPI({ endpoint: address, authToken: token });
      api = as(world.admin.token);
      readerApi = as(world.members.read.token);
      createApi = as(world.members.create.token);
      guestApi = as(world.guest.token);
      outsiderApi = as(world.outsider.token);
      siteSpaceId = (await api.orgs.listSiteSpaces(org, site.id)).data.items[0]!.id;
      const tree = await t.ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirstOrThrow();
      assert.ok(tree.revision_id);
      const pages = (await api.spaces.listPages(spaceId)).data.pages;
      installId = pages.find((p) => p.title === 'Install')!.id;
    });
    after(() => t.close());

    it('reads and replaces a site\'s customization, and overrides it for one site space', async () => {
      const initial = (await readerApi.orgs.getSiteCustomizationById(org, site.id)).data;
      assert.equal(initial.styling.primaryColor.light, '#346DDB');
      assert.equal(initial.themes.toggeable, true);

      const updated = (
        await createApi.orgs.updateSiteCustomizationById(org, site.id, {
          ...initial,
          title: 'Zeppelin Handbook',
          styling: { ...initial.styling, primaryColor: { light: '#C2410C', dark: '#FB923C' } },
          header: { ...initial.header, logo: { light: 'https://cdn.example.com/logo-light.svg', dark: 'https://cdn.example.com/logo-dark.svg' } },
          footer: { groups: [], copyright: '© Zeppelin Inc.' },
          feedback: { enabled: true },
          themes: { default: CustomizationThemeMode.Dark, toggeable: true },
        })
      ).data;
      assert.equal(updated.styling.primaryColor.light, '#C2410C');
      assert.equal(updated.footer.copyright, '© Zeppelin Inc.');
      assert.equal((await api.orgs.getSiteCustomizationById(org, site.id)).data.header.logo?.dark, 'https://cdn.example.com/logo-dark.svg');

      // One site space: only what it overrides changes; null resets a part to the site's.
      const overridden = (await api.orgs.overrideSiteSpaceCustomizationById(org, site.id, siteSpaceId, { styling: { primaryColor: { light: '#15803D', dark: '#4ADE80' } } })).data;
      assert.equal(overridden.styling.primaryColor.light, '#15803D');
      assert.equal(overridden.footer.copyright, '© Zeppelin Inc.', 'the rest is the site\'s');
      assert.equal((await api.orgs.getSiteSpaceCustomizationById(org, site.id, siteSpaceId)).data.styling.primaryColor.dark, '#4ADE80');
      const reset = (await api.orgs.overrideSiteSpaceCustomizationById(org, site.id, siteSpaceId, { styling: { primaryColor: null } })).data;
      assert.equal(reset.styling.primaryColor.light, '#C2410C');

      // The published profile carries them.
      const profile = (await api.orgs.getPublishedContentSite(org, site.id)).data;
      assert.equal(profile.customizations.site.styling.primaryColor.light, '#C2410C');
      assert.equal(profile.customizations.siteSpaces[siteSpaceId]?.footer.copyright, '© Zeppelin Inc.');

      const removed = await api.orgs.deleteSiteSpaceCustomizationById(org, site.id, siteSpaceId);
      assert.equal(removed.status, 205);
      assert.equal((await api.orgs.deleteSiteSpaceCustomizationById(org, site.id, siteSpaceId)).status, 204);

      // Roles: members below create read but do not change; guests and outsiders see nothing.
      await assert.rejects(readerApi.orgs.updateSiteCustomizationById(org, site.id, initial), refused(403));
      await assert.rejects(readerApi.orgs.overrideSiteSpaceCustomizationById(org, site.id, siteSpaceId, { title: 'Nope' }), refused(403));
      await assert.rejects(guestApi.orgs.getSiteCustomizationById(org, site.id), refused(403));
      await assert.rejects(outsiderApi.orgs.getSiteCustomizationById(org, site.id), refused(404));
      await assert.rejects(api.orgs.getSiteSpaceCustomizationById(org, site.id, 'nope'), refused(404));
      // A colour that is not one is refused with the field named.
      const bad = await world.admin.api.put(`/v1/orgs/${org}/sites/${site.id}/customization`, { ...initial, styling: { ...initial.styling, primaryColor: { light: 'red', dark: '#000' } } });
      assert.equal(bad.status, 400);
      assert.match(bad.body.error.message, /primaryColor/);
    });

    it('manages redirects, resolves them, and the reader answers 301', async () => {
      const created = (await createApi.orgs.createSiteRedirect(org, site.id, { source: '/old/install', destination: { kind: 'site-page', siteSpaceId, pageId: installId } })).data;
      assert.equal(created.object, 'site-redirect');
      await assert.rejects(api.orgs.createSiteRedirect(org, site.id, { source: '/old/install', destination: { kind: 'site-space', siteSpaceId } }), refused(409));
      await assert.rejects(api.orgs.createSiteRedirect(org, site.id, { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'missing' } }), refused(404));
      t.clock.advance(1000);
      const second = (await api.orgs.createSiteRedirect(org, site.id, { source: '/start', destination: { kind: 'site-space', siteSpaceId } })).data;

      const list = (await readerApi.orgs.listSiteRedirects(org, site.id)).data;
      assert.deepEqual(list.items.map((r) => r.source), ['/old/install', '/start']);
      const resolved = (await readerApi.orgs.getSiteRedirectBySource(org, site.id, { source: '/old/install' })).data;
      assert.equal(resolved.redirect.id, created.id);
      assert.equal(resolved.target, `${site.url}/install`);
      await assert.rejects(api.orgs.getSiteRedirectBySource(org, site.id, { source: '/nothing' }), refused(404));

      const moved = await browse(t.app, `${site.root}/old/install`);
      assert.equal(moved.status, 301);
      assert.equal(moved.headers.location, `${site.root}/install`);
      const start = await browse(t.app, `${site.root}/start`);
      assert.equal(start.status, 301);

      const changed = (await api.orgs.updateSiteRedirectById(org, site.id, second.id, { source: '/begin' })).data;
      assert.equal(changed.source, '/begin');
      assert.equal((await browse(t.app, `${site.root}/start`)).status, 404);
      await assert.rejects(readerApi.orgs.deleteSiteRedirectById(org, site.id, second.id), refused(403));
      assert.equal((await api.orgs.deleteSiteRedirectById(org, site.id, second.id)).status, 205);
      assert.equal((await api.orgs.deleteSiteRedirectById(org, site.id, second.id)).status, 204);
      await assert.rejects(guestApi.orgs.listSiteRedirects(org, site.id), refused(403));
      await assert.rejects(outsiderApi.orgs.listSiteRedirects(org, site.id), refused(404));
    });

    it('sends an old page path to the page\'s new path after a rename', async () => {
      assert.equal((await browse(t.app, `${site.root}/install`)).status, 200);
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(installId, { title: 'Installation', slug: 'installation' }));
      const old = await browse(t.app, `${site.root}/install`);
      assert.equal(old.status, 301);
      assert.equal(old.headers.location, `${site.root}/installation`);
      const markdown = await browse(t.app, `${site.root}/install.md`);
      assert.equal(markdown.status, 301);
      assert.equal(markdown.headers.location, `${site.root}/installation.md`);
      assert.equal((await browse(t.app, `${site.root}/never-was`)).status, 404);
    });

    it('tracks events and aggregates them by page, query and feedback, without personal data', async () => {
      const location = { url: `${site.url}/install`, siteSection: null, siteSpace: siteSpaceId, siteShareKey: null, space: spaceId, revision: null, page: installId };
      const session = { visitorId: 'v', sessionId: 's', cookies: {}, userAgent: 'ZeppelinBrowser/1.0', language: 'en', referrer: null };
      const tracked = await api.orgs.trackEventsInSiteById(org, site.id, {
        events: [
          { type: 'page_view', location, session },
          { type: 'page_view', location, session },
          { type: 'search_type_query', location, session, query: 'zeppelin' },
          { type: 'page_post_feedback', location, session, feedback: { rating: PageFeedbackRating.Good } },
        ],
      });
      assert.equal(tracked.status, 204);
      const byPage = (
        await readerApi.orgs.aggregateSiteEvents(org, site.id, {
          range: SiteInsightsQueryRangePreset.Last7Days,
          select: [{ column: 'eventsCount' }, { column: 'visitorsCount' }],
          groupBy: [{ column: 'page' }],
          where: [{ column: 'eventType', values: [SiteInsightsEventType.PageView] }],
        })
      ).data;
      const pages = byPage.columns.find((c) => c.column === 'page')!.values as Array<{ page: string; space: string }>;
      const counts = byPage.columns.find((c) => c.column === 'eventsCount')!.values as number[];
      assert.deepEqual(pages, [{ page: installId, space: spaceId }]);
      assert.deepEqual(counts, [2]);
      assert.deepEqual(byPage.columns.find((c) => c.column === 'visitorsCount')!.values, [1]);

      const byDay = (await api.orgs.aggregateSiteEvents(org, site.id, { range: SiteInsightsQueryRangePreset.Last7Days, groupBy: [{ column: 'datetime', interval: 'day' }, { column: 'eventType' }], select: [{ column: 'eventsCount' }] })).data;
      assert.equal(byDay.columns.length, 3);
      const feedback = (await api.orgs.aggregateSiteEvents(org, site.id, { range: SiteInsightsQueryRangePreset.Last30Days, select: [{ column: 'pageFeedbackRating' }], where: [{ column: 'eventType', values: [SiteInsightsEventType.PagePostFeedback] }] })).data;
      assert.deepEqual(feedback.columns[0]!.values, [{ good: 1, ok: 0, bad: 0 }]);
      const queries = (await api.orgs.aggregateSiteEvents(org, site.id, { range: SiteInsightsQueryRangePreset.Last30Days, groupBy: [{ column: 'eventSearchQuery' }], select: [{ column: 'eventsCount' }] })).data;
      assert.deepEqual(queries.columns[0]!.values, ['zeppelin']);

      const segments = (await api.orgs.listSiteVisitorSegments(org, site.id)).data;
      assert.equal(segments.items[0]!.events, 4);

      const stored = await t.ctx.db.selectFrom('site_insight_events').selectAll().execute();
      for (const row of stored) {
        assert.ok(!JSON.stringify(row).includes('127.0.0.1'), 'no address is kept');
        assert.ok(!JSON.stringify(row).includes('ZeppelinBrowser'), 'no user agent is kept');
      }
      await assert.rejects(api.orgs.aggregateSiteEvents(org, site.id, { range: SiteInsightsQueryRangePreset.Last7Days, groupBy: [{ column: 'visitorGeoCountry' }] }), refused(400));
      await assert.rejects(guestApi.orgs.listSiteVisitorSegments(org, site.id), refused(403));
      await assert.rejects(outsiderApi.orgs.aggregateSiteEvents(org, site.id, { range: SiteInsightsQueryRangePreset.Last7Days }), refused(404));
    });

    it('searches the site as its readers see it', async () => {
      const found = (await readerApi.orgs.searchSiteContent(org, site.id, { query: 'zeppelin', scope: { mode: 'all' } })).data;
      assert.equal(found.items.length, 1);
      const titles = found.items[0]!.pages.map((p) => p.title).sort();
      assert.deepEqual(titles, ['Installation', 'Welcome'], 'the hidden page is not a result');
      assert.match(found.items[0]!.pages[0]!.urls.app, /^http:\/\/quire\.test\/sites\//);
      await assert.rejects(guestApi.orgs.searchSiteContent(org, site.id, { query: 'zeppelin', scope: { mode: 'all' } }), refused(403));
    });

    it('manages the organization\'s custom fonts', async () => {
      const created = (await createApi.orgs.createCustomFont(org, { fontFamily: 'Brand Sans', fontFaces: [{ weight: 400, storageKey: 'https://cdn.example.com/brand-400.woff2' }] })).data;
      assert.equal(created.custom, true);
      assert.equal(created.fontFaces[0]!.sources[0]!.url, 'https://cdn.example.com/brand-400.woff2');
      const grown = (await api.orgs.updateCustomFont(org, created.id, { fontFaces: [{ weight: 700, storageKey: 'https://cdn.example.com/brand-700.woff' }] })).data;
      assert.deepEqual(grown.fontFaces.map((f) => [f.weight, f.sources[0]!.format]), [[400, 'woff2'], [700, 'woff']]);
      await assert.rejects(api.orgs.updateCustomFont(org, created.id, { fontFaces: [{ weight: 400, storageKey: null }] }), refused(400));
      assert.equal((await readerApi.orgs.getCustomFont(org, created.id)).data.permissions.edit, false);
      assert.equal((await readerApi.orgs.listCustomFonts(org)).data.items.length, 1);
      await assert.rejects(readerApi.orgs.createCustomFont(org, { fontFamily: 'Nope', fontFaces: [{ weight: 400, storageKey: 'https://x.example/a.woff2' }] }), refused(403));
      await assert.rejects(api.orgs.createCustomFont(org, { fontFamily: 'Local', fontFaces: [{ weight: 400, storageKey: 'fonts/local.woff2' }] }), refused(400));
      await assert.rejects(guestApi.orgs.listCustomFonts(org), refused(403));
      await assert.rejects(outsiderApi.orgs.listCustomFonts(org), refused(404));
      assert.equal((await api.orgs.deleteCustomFont(org, created.id)).status, 205);
      assert.equal((await api.orgs.deleteCustomFont(org, created.id)).status, 204);
    });

    it('configures MCP servers (administrators only)', async () => {
      const created = (await api.orgs.createSiteMcpServer(org, site.id, { name: 'Tickets', url: 'https://mcp.example.com/mcp', headers: { authorization: 'Bearer s3cret' } })).data;
      assert.equal(created.object, 'site-mcp-server');
      const row = await t.ctx.db.selectFrom('site_mcp_servers').select('headers_sealed').executeTakeFirstOrThrow();
      assert.ok(!row.headers_sealed.includes('s3cret'), 'headers are stored sealed');
      assert.equal((await api.orgs.getSiteMcpServerById(org, site.id, created.id)).data.headers.authorization, 'Bearer s3cret');
      assert.equal((await api.orgs.updateSiteMcpServerById(org, site.id, created.id, { name: 'Support tickets' })).data.name, 'Support tickets');
      assert.equal((await api.orgs.listSiteMcpServers(org, site.id)).data.items.length, 1);
      await assert.rejects(createApi.orgs.listSiteMcpServers(org, site.id), refused(403));
      await assert.rejects(api.orgs.createSiteMcpServer(org, site.id, { name: 'Files', url: 'file:///etc/passwd', headers: {} }), refused(400));
      assert.equal((await api.orgs.deleteSiteMcpServerById(org, site.id, created.id)).status, 205);
      assert.equal((await api.orgs.deleteSiteMcpServerById(org, site.id, created.id)).status, 204);
      await assert.rejects(api.orgs.getSiteMcpServerById(org, site.id, created.id), refused(404));
    });
  });
}
