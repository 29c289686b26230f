import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { scheduleSpaceIndex } from '../../src/search/changes.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { indexNow } from '../search/support.ts';
import { createSite, type SiteHandle } from '../published/support.ts';
import { needs } from '../helpers/system.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * The reader's features in Chromium (SQLite only): a branded site's logo and colours, light and dark with
 * the toggle (remembered, no flash), code copy, the search dialog by keyboard, the mobile drawer, a
 * redirect after a rename, feedback recorded and aggregated, no layout shift, and axe-core on a rich page
 * in both themes (no serious or critical violations). Screenshots go to test-artifacts/.
 */
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts');
const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

const LOGO = (fill: string) => `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" width="160" height="32"><rect width="160" height="32" rx="6" fill="${fill}"/></svg>`)}`;

const RICH = [
  'Orbit keeps your satellites in line. This page shows most of what a page can hold.',
  '',
  '{% hint style="warning" %}',
  'Back up your keys before you rotate them.',
  '{% endhint %}',
  '',
  '## Install',
  '',
  '{% code title="install.sh" lineNumbers="true" %}',
  '```bash',
  'curl -fsSL https://get.orbit.test | sh',
  'orbit login',
  '```',
  '{% endcode %}',
  '',
  '## Plans',
  '',
  '| Plan | Satellites |',
  '| --- | --- |',
  '| Starter | 3 |',
  '| Fleet | 300 |',
  '',
  '## Steps',
  '',
  '1. Create a project.',
  '2. Launch a satellite: `orbit launch`.',
  '',
  '> Orbit is a made-up product.',
  '',
].join('\n');

const skip = needs('chromium');

describe('the reader\'s features in a browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let browser: Browser;
  let site: SiteHandle;
  let spaceId: string;
  let renameId: string;
  const problems: string[] = [];

  before(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { QUIRE_PUBLIC_URL: base });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    const org = world.organizationId;
    spaceId = (
      await createSpaceWithPages(
        t.ctx,
        org,
        [
          { type: 'document', title: 'Overview', description: 'What Orbit does.', markdown: RICH },
          { type: 'document', title: 'Launching', markdown: 'Launch satellites with the orbit command.\n\n## Launch windows\n\nPick a window.\n' },
          { type: 'document', title: 'Old name', markdown: 'A page about telemetry that will be renamed.\n' },
          { type: 'document', title: 'Telemetry', markdown: 'Telemetry of every satellite.\n' },
        ],
        { title: 'Orbit' },
      )
    ).spaceId;
    await scheduleSpaceIndex(t.ctx, spaceId);
    await indexNow(t.ctx);
    site = await createSite(world.admin, org, { title: 'Orbit Docs', visibility: 'public', spaces: [spaceId] });
    const path = `/v1/orgs/${org}/sites/${site.id}/customization`;
    const current = (await world.admin.api.get(path)).body;
    const put = await world.admin.api.put(path, {
      ...current,
      styling: { ...current.styling, primaryColor: { light: '#7C3AED', dark: '#C4B5FD' } },
      header: { preset: 'default', logo: { light: LOGO('#7C3AED'), dark: LOGO('#C4B5FD') }, links: [] },
      footer: { groups: [], copyright: '© Orbit Inc.' },
      feedback: { enabled: true },
    });
    assert.equal(put.status, 200, JSON.stringify(put.body));
    const pages = (await world.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string }>;
    renameId = pages.find((p) => p.title === 'Old name')!.id;
    browser = await launchChromium();
    mkdirSync(artifacts, { recursive: true });
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** A page in a fresh browser context; `theme` is the reader's earlier choice with the toggle, when they made one. */
  async function open(url: string, options: BrowserContextOptions = {}, theme?: 'light' | 'dark'): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 }, ...options });
    if (theme) await context.addInitScript((chosen) => window.localStorage.setItem('quire-theme', chosen), theme);
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(message.text());
    });
    await page.goto(url);
    return page;
  }

  const shot = (page: Page, name: string) => page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });

  it('shows the site\'s logo and colours, in light and dark, and the toggle is remembered without a flash', async () => {
    const page = await open(site.url, { colorScheme: 'light' });
    assert.equal(await page.locator('img.logo-light').isVisible(), true);
    assert.equal(await page.locator('img.logo-dark').isVisible(), false);
    assert.match(await page.locator('.toc a.current').evaluate((a) => getComputedStyle(a).color), /rgb\(124, 58, 237\)/, 'the brand colour in light');
    await shot(page, 'branded-light');

    await page.locator('.theme-toggle').click();
    assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
    assert.equal(await page.locator('img.logo-dark').isVisible(), true);
    assert.match(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), /rgb\(13, 17, 23\)/);
    assert.match(await page.locator('.toc a.current').evaluate((a) => getComputedStyle(a).color), /rgb\(196, 181, 253\)/, 'the brand colour in dark');
    await shot(page, 'branded-dark');

    // Remembered: the next page is dark from its first paint (the theme is set before the body is parsed).
    await page.context().addInitScript(() => {
      new MutationObserver((_, observer) => {
        if (document.body) {
          (window as unknown as { firstBodyTheme: string | undefined }).firstBodyTheme = document.documentElement.dataset.theme;
          observer.disconnect();
        }
      }).observe(document, { childList: true, subtree: true });
    });
    await page.goto(`${site.url}/launching`);
    assert.equal(await page.evaluate(() => (window as unknown as { firstBodyTheme: string | undefined }).firstBodyTheme), 'dark', 'dark before the body exists: no flash');

    // When the reader has not chosen, the site's default theme (light here) applies, whatever the system's.
    const fresh = await open(site.url, { colorScheme: 'dark' });
    assert.equal(await fresh.evaluate(() => document.documentElement.dataset.theme), 'light');
    assert.match(await fresh.evaluate(() => getComputedStyle(document.body).backgroundColor), /rgb\(255, 255, 255\)/);
    await fresh.close();
    await page.close();
  });

  it('serves a site whose default theme is dark in dark, and the toggle switches it to light', async () => {
    const path = `/v1/orgs/${world.organizationId}/sites/${site.id}/customization`;
    const current = (await world.admin.api.get(path)).body;
    assert.equal((await world.admin.api.put(path, { ...current, themes: { default: 'dark', toggeable: true } })).status, 200);
    try {
      const page = await open(site.url, { colorScheme: 'light' });
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'dark');
      assert.match(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), /rgb\(13, 17, 23\)/, 'dark from the server, with a light system');
      assert.equal(await page.locator('.theme-toggle').isVisible(), true);
      await page.locator('.theme-toggle').click();
      assert.match(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), /rgb\(255, 255, 255\)/);
      await page.reload();
      assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), 'light', 'the reader\'s choice outlasts the default');
      await page.close();
    } finally {
      await world.admin.api.put(path, current);
    }
  });

  it('fits a 390 px wide phone: no page scrolls sideways, and the header, search and theme toggle are on screen', async () => {
    const phone = { viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true, deviceScaleFactor: 1 };
    for (const path of ['', '/launching', '/telemetry']) {
      const page = await open(`${site.url}${path}`, phone);
      await page.waitForLoadState('load');
      // A phone shows a page wider than its screen zoomed out (innerWidth grows with it): compare with 390 itself.
      const widths = await page.evaluate(() => ({ document: document.documentElement.scrollWidth, body: document.body.scrollWidth, viewport: window.innerWidth }));
      assert.ok(Math.max(widths.document, widths.body, widths.viewport) <= 390, `${path || '/'} is ${Math.max(widths.document, widths.body, widths.viewport)} px wide on a 390 px screen`);
      const wider = await page.evaluate((screen) =>
        [...document.querySelectorAll('body *')]
          .filter((element) => {
            const box = element.getBoundingClientRect();
            if (box.width === 0 || box.height === 0) return false;
            // Content that scrolls inside its own box (code, tables) does not move the page; clipped content is lost, so it counts.
            for (let up = element.parentElement; up; up = up.parentElement) if (/(auto|scroll)/.test(getComputedStyle(up).overflowX) && up !== document.body && up !== document.documentElement) return false;
            return box.right > screen + 0.5;
          })
          .map((element) => `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}`),
      390);
      assert.deepEqual(wider, [], `${path || '/'}: elements past the screen's edges`);
      for (const selector of ['.site-header', '.site-search input', '.site-search button', '.theme-toggle']) {
        const box = await page.locator(selector).first().boundingBox();
        assert.ok(box, `${selector} is shown`);
        assert.ok(box.x >= 0 && box.x + box.width <= 390, `${selector} is on screen (${box.x}…${box.x + box.width})`);
      }
      if (path === '') await shot(page, 'phone-390');
      await page.close();
    }
  });

  it('copies code with its button', async () => {
    const page = await open(site.url, { permissions: ['clipboard-read', 'clipboard-write'] });
    await page.locator('.code-block .copy-code').click();
    await page.locator('.code-block .copy-code[data-copied]').waitFor();
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), 'curl -fsSL https://get.orbit.test | sh\norbit login');
    await page.close();
  });

  it('searches with the keyboard: Ctrl-K, type, arrows, Enter', async () => {
    const page = await open(site.url);
    await page.keyboard.press('Control+k');
    const input = page.locator('.search-dialog-input');
    await input.waitFor();
    assert.equal(await input.evaluate((el) => el === document.activeElement), true);
    await page.keyboard.type('satellites');
    await page.locator('.search-option').first().waitFor();
    assert.ok(await page.locator('.search-option mark').count(), 'matches are highlighted');
    await shot(page, 'search-dialog');
    const options = await page.locator('.search-option').evaluateAll((all) => all.map((o) => o.classList.contains('search-option-section') ? '' : (o.querySelector('.search-option-title')?.textContent ?? '')));
    assert.ok(options.includes('Launching'), `results: ${options.join(', ')}`);
    for (let i = 0; i < options.indexOf('Launching'); i++) await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/launching$/);
    assert.equal(await page.locator('h1.page-title').textContent(), 'Launching');
    await page.keyboard.press('Control+k');
    await page.locator('.search-dialog-input').waitFor();
    await page.keyboard.press('Escape');
    assert.equal(await page.locator('dialog.search-dialog').evaluate((d) => (d as HTMLDialogElement).open), false);
    await page.close();
  });

  it('opens and closes the navigation drawer on a phone', async () => {
    const page = await open(site.url, { viewport: { width: 390, height: 800 }, isMobile: true, hasTouch: true });
    assert.equal(await page.locator('.site-sidebar').isVisible(), false);
    await page.locator('.nav-toggle').click();
    assert.equal(await page.locator('.site-sidebar').isVisible(), true);
    assert.equal(await page.locator('.nav-toggle').getAttribute('aria-expanded'), 'true');
    await shot(page, 'mobile-drawer');
    await page.locator('.site-sidebar nav.toc').getByRole('link', { name: 'Telemetry' }).click();
    await page.waitForURL(/\/telemetry$/);
    assert.equal(await page.locator('.site-sidebar').isVisible(), false);
    await page.close();
  });

  it('follows an old link after a rename to the page\'s new address', async () => {
    const page = await open(`${site.url}/old-name`);
    assert.equal(await page.locator('h1.page-title').textContent(), 'Old name');
    await editContent(t.ctx, spaceId, (writer) => writer.updatePage(renameId, { title: 'Telemetry history', slug: 'telemetry-history' }));
    const response = await page.goto(`${site.url}/old-name`);
    assert.equal(page.url(), `${site.url}/telemetry-history`);
    assert.equal(response?.status(), 200);
    assert.equal(await page.locator('h1.page-title').textContent(), 'Telemetry history');
    await page.close();
  });

  it('records page views and feedback, which the API aggregates', async () => {
    const page = await open(`${site.url}/launching`);
    await page.locator('form.page-feedback').waitFor();
    await page.locator('form.page-feedback button[value="good"]').click();
    await page.locator('.feedback-thanks', { hasText: 'Thank you' }).waitFor();
    await shot(page, 'feedback');
    await page.close();
    // Beacons are sent with keepalive; wait until both have been stored.
    for (let i = 0; i < 50; i++) {
      const rows = await t.ctx.db.selectFrom('site_insight_events').select('type').where('type', '=', 'page_post_feedback').execute();
      if (rows.length) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const aggregate = await world.admin.api.post(`/v1/orgs/${world.organizationId}/sites/${site.id}/insights/events/aggregate`, {
      range: 'last7Days',
      select: [{ column: 'pageFeedbackRating' }, { column: 'eventsCount' }],
      where: [{ column: 'eventType', values: ['page_post_feedback'] }],
    });
    assert.equal(aggregate.status, 200, JSON.stringify(aggregate.body));
    assert.deepEqual(aggregate.body.columns[0].values, [{ good: 1, ok: 0, bad: 0 }]);
    const views = await world.admin.api.post(`/v1/orgs/${world.organizationId}/sites/${site.id}/insights/events/aggregate`, {
      range: 'last7Days',
      groupBy: [{ column: 'eventType' }],
      select: [{ column: 'eventsCount' }],
    });
    const types = views.body.columns.find((c: { column: string }) => c.column === 'eventType').values as string[];
    assert.ok(types.includes('page_view'), `types: ${types.join(', ')}`);
  });

  it('has no layout shift and no serious accessibility violations, in both themes', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      // axe is injected as a script: this context alone bypasses the page's policy to let it run.
      const page = await open(site.url, { colorScheme, bypassCSP: true }, colorScheme);
      await page.waitForLoadState('load');
      const shift = await page.evaluate(
        () =>
          new Promise<number>((resolve) => {
            let total = 0;
            new PerformanceObserver((list) => {
              for (const entry of list.getEntries() as Array<PerformanceEntry & { value: number; hadRecentInput: boolean }>) if (!entry.hadRecentInput) total += entry.value;
            }).observe({ type: 'layout-shift', buffered: true });
            requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
          }),
      );
      assert.equal(shift, 0, `layout shift in ${colorScheme}`);
      await page.evaluate(axeSource);
      const violations = await page.evaluate(async () => {
        const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
        const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
        return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
      });
      assert.deepEqual(violations, [], `axe in ${colorScheme}`);
      await shot(page, `axe-${colorScheme}`);
      await page.close();
    }
    assert.deepEqual(problems, [], 'no script or Content-Security-Policy errors');
  });
});
