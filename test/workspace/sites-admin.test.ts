import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestApp, type TestApp, dialects } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { createSession } from '../../src/sessions/store.ts';
import { assertAccessible, assertKeyboardReachable, freePort, shot } from './support.ts';

/**
 * The Sites screens of the workspace in Chromium (issue 27, "Sites"): an administrator creates a site from
 * two spaces, publishes it, reorders its spaces by keyboard and picks the default, makes it readable by
 * share link and opens it with one, changes the primary colour and sees it in the preview and then on the
 * published site, uploads a font and sees the site serve it, adds a redirect and follows it. Every effect is
 * checked through the API or the published site; axe runs on every screen in light and dark; each screen's
 * code is fetched only when the screen opens. The Content-Security-Policy is enforced throughout.
 */
const skip = needs('chromium');
const require = createRequire(import.meta.url);
const FONT = readFileSync(require.resolve('katex/dist/fonts/KaTeX_Main-Bold.woff2'));

// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (test/helpers/app.ts).
for (const dialect of dialects) describe(`the Sites screens in a browser [${dialect}]`, { skip }, () => {
  let t: TestApp;
  let world: World;
  let base: string;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let org: string;
  let spaces: { guides: string; api: string; partners: string };
  let siteId: string;
  const problems: string[] = [];
  const scripts: string[] = [];

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp(dialect, { QUIRE_PUBLIC_URL: base });
    // The server's clock at the browser's time: the insights chart counts the 30 days up to the browser's today.
    t.clock.advance(Date.now() - t.clock.now().getTime());
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    org = world.organizationId;
    spaces = {
      guides: (await createSpaceWithPages(t.ctx, org, [{ type: 'document', title: 'Getting started', markdown: 'Install the walrus kit.\n' }], { title: 'Guides' })).spaceId,
      api: (await createSpaceWithPages(t.ctx, org, [{ type: 'document', title: 'Endpoints', markdown: 'Every endpoint.\n' }], { title: 'API' })).spaceId,
      partners: (await createSpaceWithPages(t.ctx, org, [{ type: 'document', title: 'Partner program', markdown: 'Pelican rebates.\n' }], { title: 'Partners' })).spaceId,
    };
    browser = await launchChromium();
    context = await browser.newContext({ viewport: { width: 1400, height: 900 }, colorScheme: 'light' });
    const { secret } = await createSession(t.ctx, { userId: world.admin.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
    await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
    page = await context.newPage();
    page.on('console', (message) => {
      if ((message.type() === 'error' && !message.text().startsWith('Failed to load resource')) || /Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname !== '/favicon.ico') problems.push(`${response.status()} ${response.url()}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('request', (request) => {
      if (request.resourceType() === 'script') scripts.push(new URL(request.url()).pathname);
    });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  const api = (path: string) => world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}${path}`);
  const loaded = (name: string) => scripts.some((path) => path.includes(`/${name}-`));

  it('creates a site from two spaces and publishes it', async () => {
    await page.goto(`${base}/o/${org}`);
    await page.getByRole('link', { name: 'Sites' }).click();
    await page.getByRole('heading', { name: 'New site' }).waitFor();
    assert.equal(loaded('overview-tab'), false, 'the overview is not loaded before a site is opened');
    await assertAccessible(page, 'new site');
    await assertKeyboardReachable(page, 'new site');
    await page.getByLabel('Title').fill('Walrus Docs');
    await page.getByRole('checkbox', { name: 'Guides' }).check();
    await page.getByRole('checkbox', { name: 'API' }).check();
    await page.getByRole('radio', { name: /^Public/ }).check();
    await page.getByRole('button', { name: 'Create site' }).click();
    await page.waitForURL(/\/sites\/[^/]+$/);
    siteId = new URL(page.url()).pathname.split('/').pop()!;
    await page.getByRole('button', { name: 'Publish' }).click();
    await page.getByRole('button', { name: 'Unpublish' }).waitFor();
    const site = (await world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body;
    assert.equal(site.published, true);
    assert.equal(await page.getByLabel('Published address').inputValue(), site.urls.published);
    assert.match(await page.getByLabel(/MCP server address/).inputValue(), /\/~gitbook\/mcp$/);
    assert.ok(loaded('overview-tab') && !loaded('customize-tab'), 'the overview is loaded on demand, the customization not yet');
    const home = await fetch(site.urls.published);
    assert.equal(home.status, 200);
    assert.match(await home.text(), /Getting started/);
    await assertAccessible(page, 'site overview');
    await assertKeyboardReachable(page, 'site overview');
    await shot(page, 'sites-overview');
  });

  it('orders the site spaces by keyboard and by drag and drop, and sets the default space', async () => {
    const titles = async () => (await api('/site-spaces')).body.items.map((s: { title: string }) => s.title) as string[];
    assert.deepEqual(await titles(), ['Guides', 'API']);
    // The list's reload after a move is held back, as on a slow connection: the rows show the move at once, and
    // the drag that follows starts from the order seen, not from the one before the move.
    const slowList = /\/site-spaces(\?|$)/;
    await page.route(slowList, async (route) => {
      if (route.request().method() === 'GET') await new Promise((resolve) => setTimeout(resolve, 1500));
      await route.fallback();
    });
    await page.locator('.site-space-row[aria-label^="Guides,"][aria-label$="position 1 of 2"]').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await page.getByRole('status').filter({ hasText: 'moved to position 2' }).waitFor();
    await until('API first', async () => (await titles())[0] === 'API');
    // By drag and drop: Guides (now second) dropped on API goes back before it, then back again by keyboard.
    await page.locator('.site-space-row', { hasText: 'Guides' }).first().dragTo(page.locator('.site-space-row', { hasText: 'API' }).first());
    await until('Guides first again, dragged', async () => (await titles())[0] === 'Guides');
    await page.unroute(slowList);
    await page.locator('.site-space-row[aria-label^="Guides,"][aria-label$="position 1 of 2"]').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await until('API first again', async () => (await titles())[0] === 'API');
    await page.getByRole('button', { name: 'Make default API' }).click();
    await until('API the default', async () => (await world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body.defaultSpace === spaces.api);
  });

  it('adds a section and orders the sections by keyboard', async () => {
    await page.getByLabel('New section from').selectOption({ label: 'Partners' });
    await page.getByLabel('titled').fill('Partner zone');
    await page.getByRole('button', { name: 'Add section' }).click();
    await page.getByRole('heading', { name: 'Variants of Partner zone' }).waitFor();
    const titles = async () => (await api('/sections')).body.items.map((s: { title: string }) => s.title);
    const before = await titles();
    assert.equal(before.length, 2, JSON.stringify(before));
    assert.equal(before[1], 'Partner zone');
    // The structure list loads after the variants lists appear (its own query): until it has, the first
    // `.site-space-list` on the page is the first section's variants, so the row is found by its label.
    await page.locator('.structure-list > li[aria-label^="Section Partner zone,"]').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await until('the new section first', async () => (await titles())[0] === 'Partner zone');
    await assertAccessible(page, 'site sections');
    await assertKeyboardReachable(page, 'site sections');
    await shot(page, 'sites-sections');
  });

  it('makes the site readable by share link, and opens it with one', async () => {
    await page.getByRole('radio', { name: /^Share links/ }).check();
    await page.getByRole('button', { name: 'Save visibility' }).click();
    await until('share-link visibility', async () => (await world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body.visibility === 'share-link');
    await page.getByRole('navigation', { name: 'Site settings' }).getByRole('link', { name: 'Share links' }).click();
    await page.getByLabel('Name (who it is for)').fill('Partners');
    await page.getByRole('button', { name: 'Create share link' }).click();
    const field = page.getByLabel('Address of Partners');
    await field.waitFor();
    const address = await field.inputValue();
    await page.getByRole('button', { name: 'Copy' }).click();
    await page.getByRole('status').filter({ hasText: /Copied|Selected/ }).waitFor();
    await assertAccessible(page, 'share links');
    await assertKeyboardReachable(page, 'share links');
    await shot(page, 'sites-share-links');

    const site = (await world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body;
    const reader = await browser.newContext();
    const readerPage = await reader.newPage();
    assert.equal((await readerPage.goto(site.urls.published))?.status(), 404, 'without the link, nothing');
    const opened = await readerPage.goto(address);
    assert.equal(opened?.status(), 200);
    assert.equal(new URL(readerPage.url()).searchParams.get('share'), null, 'the key leaves the address bar');
    await readerPage.getByRole('heading', { name: 'Endpoints' }).waitFor();
    await page.getByRole('button', { name: 'Revoke Partners' }).click();
    await until('link revoked', async () => (await api('/share-links')).body.items.length === 0);
    assert.equal((await readerPage.goto(site.urls.published))?.status(), 404, 'a revoked link opens nothing');
    await reader.close();
    assert.equal((await world.admin.api.patch(`/v1/orgs/${org}/sites/${siteId}`, { visibility: 'public' })).status, 200);
  });

  it('previews a new primary colour beside the form, then publishes it', async () => {
    await page.goto(`${base}/o/${org}/sites/${siteId}/customize`);
    await page.getByRole('button', { name: 'Save customization' }).waitFor();
    assert.ok(loaded('customize-tab'));
    const frame = page.frameLocator('.preview-frame');
    await frame.locator('html').waitFor({ state: 'attached' });
    await page.getByLabel('Light theme').first().waitFor();
    await page.locator('input[name=primary-light]').fill('#aa0000');
    await until('the preview shows the colour', async () => /--q-brand-light:#aa0000/.test((await frame.locator('html').getAttribute('style').catch(() => '')) ?? ''));
    const site = (await world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body;
    assert.doesNotMatch(await (await fetch(site.urls.published)).text(), /#aa0000/, 'not published before it is saved');
    await assertAccessible(page, 'customization');
    await assertKeyboardReachable(page, 'customization');
    await shot(page, 'sites-customization');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByRole('status').filter({ hasText: /^Saved: / }).waitFor();
    assert.match(await (await fetch(site.urls.published)).text(), /--q-brand-light:#aa0000/);
    assert.equal((await api('/customization')).body.styling.primaryColor.light, '#aa0000');
  });

  it('uploads a font, and the published site serves it', async () => {
    await page.locator('input[name=font-file]').setInputFiles({ name: 'Walrus.woff2', mimeType: 'font/woff2', buffer: FONT });
    await page.getByRole('status').filter({ hasText: 'Font KaTeX_Main uploaded' }).waitFor();
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByRole('status').filter({ hasText: /^Saved: / }).waitFor();
    const font = (await api('/customization')).body.styling.font;
    assert.equal(font.fontFamily, 'KaTeX_Main');
    const site = (await world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body;
    const reader = await browser.newContext();
    const readerPage = await reader.newPage();
    const fonts: number[] = [];
    readerPage.on('response', (response) => { if (new URL(response.url()).pathname.startsWith('/~fonts/font-')) fonts.push(response.status()); });
    await readerPage.goto(site.urls.published);
    const used = await readerPage.evaluate(async () => {
      await document.fonts.ready;
      await document.fonts.load('16px "KaTeX_Main"');
      return [...document.fonts].some((face) => face.family.replace(/"/g, '') === 'KaTeX_Main' && face.status === 'loaded');
    });
    assert.equal(used, true, 'the browser loaded the uploaded face');
    assert.deepEqual(fonts, [200]);
    await reader.close();
  });

  it('adds, edits, tests, follows and deletes a redirect', async () => {
    await page.getByRole('navigation', { name: 'Site settings' }).getByRole('link', { name: 'Redirects' }).click();
    await page.getByLabel('From (a path of the site)').fill('/old-guide');
    await page.getByLabel('To').selectOption({ label: 'Guides' });
    await page.getByRole('button', { name: 'Add redirect' }).click();
    await page.getByRole('cell', { name: '/old-guide', exact: true }).waitFor();
    await assertAccessible(page, 'redirects');
    await assertKeyboardReachable(page, 'redirects');
    await shot(page, 'sites-redirects');
    await page.getByRole('button', { name: 'Edit /old-guide' }).click();
    await page.locator('tbody input[name=source]').fill('/older-guide');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('cell', { name: '/older-guide', exact: true }).waitFor();
    await page.getByLabel('Path', { exact: true }).fill('/older-guide');
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await page.locator('.test-answer').filter({ hasText: 'leads to' }).waitFor();
    const site = (await world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body;
    const followed = await fetch(`${site.urls.published}/older-guide`, { redirect: 'manual' });
    assert.equal(followed.status, 301);
    const target = new URL(followed.headers.get('location')!, site.urls.published);
    const landed = await fetch(target);
    assert.equal(landed.status, 200);
    assert.match(await landed.text(), /Getting started/);
    await page.getByRole('button', { name: 'Delete /older-guide' }).click();
    await until('redirect deleted', async () => (await api('/redirects')).body.items.length === 0);
  });

  it('shows the visitor key, regenerates it, and saves the adaptive content schema with claims to try', async () => {
    await page.getByRole('navigation', { name: 'Site settings' }).getByRole('link', { name: 'Visitors' }).click();
    const keyField = page.getByLabel('Signing key');
    await keyField.waitFor();
    const before = (await api('/publishing/auth')).body.privateKey;
    assert.equal(await keyField.inputValue(), before);
    page.once('dialog', (dialog) => void dialog.accept());
    await page.getByRole('button', { name: 'Regenerate key' }).click();
    await until('a new key', async () => (await api('/publishing/auth')).body.privateKey !== before);
    await until('the new key shown', async () => (await keyField.inputValue()) === (await api('/publishing/auth')).body.privateKey);
    const schema = { type: 'object', properties: { partner: { type: 'boolean', description: 'A partner reads' } }, additionalProperties: false };
    await page.getByLabel(/Claims schema/).fill(JSON.stringify(schema));
    await page.getByRole('button', { name: 'Save schema' }).click();
    await until('schema saved', async () => JSON.stringify((await api('/adaptive-schema')).body.jsonSchema.properties) === JSON.stringify(schema.properties));
    await page.getByLabel(/^partner/).selectOption('true');
    const link = page.getByRole('link', { name: 'Open the site as this visitor' });
    assert.match((await link.getAttribute('href')) ?? '', /\?visitor\.partner=true$/);
    await assertAccessible(page, 'visitors');
    await assertKeyboardReachable(page, 'visitors');
    await shot(page, 'sites-visitors');
  });

  it('draws insights with uPlot, loaded only on that screen', async () => {
    const site = (await world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body;
    const events = [
      { type: 'page_view', location: { url: `${site.urls.published}/` } },
      { type: 'page_view', location: { url: `${site.urls.published}/` } },
      { type: 'search_type_query', query: 'narwhal', resultsCount: 0, location: { url: `${site.urls.published}/` } },
    ];
    assert.equal((await world.admin.api.post(`/v1/orgs/${org}/sites/${siteId}/insights/events`, { events })).status, 204);
    assert.equal(loaded('uPlot.esm'), false, 'uPlot is not loaded before the insights screen');
    await page.getByRole('navigation', { name: 'Site settings' }).getByRole('link', { name: 'Insights' }).click();
    await page.locator('.chart canvas').waitFor();
    assert.ok(loaded('uPlot.esm'));
    await page.getByRole('cell', { name: 'narwhal' }).waitFor();
    await page.getByText('The numbers as a table').click();
    const today = new Date().toISOString().slice(0, 10);
    // The reader's own beacons from the earlier steps count too: the chart shows what the API counts.
    const counted = await world.admin.api.post(`/v1/orgs/${org}/sites/${siteId}/insights/events/aggregate`, {
      range: 'last24Hours',
      select: [{ column: 'eventsCount' }],
      where: [{ column: 'eventType', values: ['page_view'] }],
    });
    const views = Number(counted.body.columns[0].values[0]);
    assert.ok(views >= 2, JSON.stringify(counted.body));
    assert.equal(await page.getByRole('row', { name: new RegExp(`^${today}`) }).getByRole('cell').first().textContent(), String(views));
    await assertAccessible(page, 'insights');
    await assertKeyboardReachable(page, 'insights');
    await shot(page, 'sites-insights');
  });

  it('keeps every screen free of errors and refusals', () => {
    assert.deepEqual(problems, []);
  });
});
