import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { crc32, deflateSync } from 'node:zlib';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addFile, createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { scheduleSpaceIndex } from '../../src/search/changes.ts';
import { indexNow } from '../search/support.ts';
import { addSection, addVariant, createSite, visitorToken, type SiteHandle } from '../published/support.ts';
import { needs } from '../helpers/system.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * The reader in a real browser (Chromium through playwright-core), on SQLite only: clicking through the
 * tree, sections and variants, searching with and without JavaScript, and getting into restricted sites.
 */
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts');

/** A small PNG (a soft gradient) for the page's image, made by hand: signature, IHDR, IDAT, IEND. */
function gradientPng(width: number, height: number): Buffer {
  const chunk = (type: string, data: Buffer) => {
    const length = Buffer.alloc(4);
    length.writeUInt32BE(data.length);
    const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
    const crc = Buffer.alloc(4);
    crc.writeUInt32BE(crc32(body));
    return Buffer.concat([length, body, crc]);
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header[8] = 8; // bit depth
  header[9] = 2; // truecolour
  const rows: Buffer[] = [];
  for (let y = 0; y < height; y++) {
    const row = Buffer.alloc(1 + width * 3);
    for (let x = 0; x < width; x++) {
      row[1 + x * 3] = 40 + Math.round((x / width) * 60);
      row[2 + x * 3] = 110 + Math.round((y / height) * 60);
      row[3 + x * 3] = 210;
    }
    rows.push(row);
  }
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', header), chunk('IDAT', deflateSync(Buffer.concat(rows))), chunk('IEND', Buffer.alloc(0))]);
}

const WELCOME = [
  'Acme Cloud runs your services close to your users. This guide takes you from an empty account to a running service.',
  '',
  '{% hint style="info" %}',
  'You need an Acme account and the `acme` command line tool.',
  '{% endhint %}',
  '',
  '## Install the tool',
  '',
  '```bash',
  'curl -fsSL https://get.acme.test | sh',
  'acme login',
  '```',
  '',
  '![Architecture overview](overview.png)',
  '',
  '## Plans at a glance',
  '',
  '| Plan | Regions | Support |',
  '| --- | --- | --- |',
  '| Starter | 1 | Community |',
  '| Team | 5 | E-mail |',
  '',
  '## Capacity',
  '',
  'The capacity of a cluster grows with its nodes:',
  '',
  '$$',
  'C = \\sum_{i=1}^{n} c_i',
  '$$',
  '',
].join('\n');

const skip = needs('chromium');

describe('the reader in a browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let browser: Browser;
  let base: string;
  let site: SiteHandle;
  let shareSite: SiteHandle;
  let authSite: SiteHandle;
  let shareUrl: string;
  let authKey: string;
  const consoleErrors: string[] = [];

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { QUIRE_PUBLIC_URL: base });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    const org = world.organizationId;
    const guides = (
      await createSpaceWithPages(
        t.ctx,
        org,
        [
          { type: 'document', title: 'Welcome', description: 'Everything you need to run services on Acme Cloud.', markdown: WELCOME },
          {
            type: 'document',
            title: 'Getting started',
            markdown: 'Three steps to a running service.\n',
            pages: [
              { type: 'document', title: 'Quickstart', markdown: 'Deploy your first service in five minutes.\n\n## Create a project\n\nRun `acme init`.\n' },
              { type: 'document', title: 'Configuration', markdown: 'Every option of `acme.toml`.\n' },
            ],
          },
          { type: 'group', title: 'Operations', pages: [{ type: 'document', title: 'Scaling', markdown: 'Scale out with more nodes.\n' }, { type: 'document', title: 'Monitoring', markdown: 'Dashboards and alerts.\n' }] },
        ],
        { title: 'Version 2' },
      )
    ).spaceId;
    await editContent(t.ctx, guides, async (writer) => {
      await addFile(t.ctx, writer, { name: 'overview.png', contentType: 'image/png', bytes: gradientPng(640, 200), dimensions: { width: 640, height: 200 } });
    });
    const legacy = (await createSpaceWithPages(t.ctx, org, [{ type: 'document', title: 'Legacy welcome', markdown: 'The first version of Acme Cloud.\n' }], { title: 'Version 1' })).spaceId;
    const api = (await createSpaceWithPages(t.ctx, org, [{ type: 'document', title: 'Endpoints', markdown: 'The walrus endpoint lists every service.\n' }], { title: 'API' })).spaceId;
    for (const id of [guides, legacy, api]) await scheduleSpaceIndex(t.ctx, id);
    await indexNow(t.ctx);

    site = await createSite(world.admin, org, { title: 'Acme Cloud Docs', visibility: 'public', spaces: [guides] });
    await addSection(world.admin, org, site.id, api, 'API Reference');
    const sections = await world.admin.api.get(`/v1/orgs/${org}/sites/${site.id}/sections`);
    const main = sections.body.items.find((s: { title: string }) => s.title !== 'API Reference');
    await addVariant(world.admin, org, site.id, legacy, main.id);

    shareSite = await createSite(world.admin, org, { title: 'Partner Docs', visibility: 'share-link', spaces: [api] });
    shareUrl = (await world.admin.api.post(`/v1/orgs/${org}/sites/${shareSite.id}/share-links`, { name: 'Browser' })).body.urls.published;
    authSite = await createSite(world.admin, org, { title: 'Customer Docs', visibility: 'visitor-auth', spaces: [api] });
    authKey = (await world.admin.api.get(`/v1/orgs/${org}/sites/${authSite.id}/publishing/auth`)).body.privateKey;

    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(url: string, javaScriptEnabled = true): Promise<Page> {
    const context = await browser.newContext({ javaScriptEnabled, viewport: { width: 1360, height: 900 } });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error') consoleErrors.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && !response.url().includes('/sites/')) consoleErrors.push(`${response.status()} ${response.url()}`);
    });
    await page.goto(url);
    return page;
  }

  it('renders a page that looks like documentation, and navigates the tree by clicking', async () => {
    const page = await open(site.url);
    assert.equal(await page.locator('h1.page-title').textContent(), 'Welcome');
    assert.ok(await page.locator('.katex').count(), 'formulas are typeset');
    await page.locator('img[alt="Architecture overview"]').waitFor();
    assert.ok(await page.locator('img[alt="Architecture overview"]').evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth === 640), 'the image loads through the reader');
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'reader.png'), fullPage: true });
    assert.deepEqual(consoleErrors, [], 'no script or Content-Security-Policy errors');

    await page.locator('nav.toc').getByRole('link', { name: 'Getting started' }).click();
    await page.waitForURL(`${site.url}/getting-started`);
    await page.locator('nav.toc').getByRole('link', { name: 'Quickstart' }).click();
    await page.waitForURL(`${site.url}/getting-started/quickstart`);
    assert.equal(await page.locator('h1.page-title').textContent(), 'Quickstart');
    assert.match((await page.locator('nav.breadcrumbs').textContent()) ?? '', /Getting started/);
    await page.locator('a[rel="next"]').click();
    assert.equal(await page.locator('h1.page-title').textContent(), 'Configuration');
    await page.close();
  });

  it('switches section and variant with plain links', async () => {
    const page = await open(site.url);
    await page.locator('nav.section-tabs').getByRole('link', { name: 'API Reference' }).click();
    assert.equal(await page.locator('h1.page-title').textContent(), 'Endpoints');
    await page.locator('nav.section-tabs').getByRole('link', { name: 'Acme Cloud Docs' }).click();
    assert.equal(await page.locator('h1.page-title').textContent(), 'Welcome');
    await page.locator('.variant-switcher summary').click();
    await page.locator('.variant-switcher').getByRole('link', { name: 'Version 1' }).click();
    assert.equal(await page.locator('h1.page-title').textContent(), 'Legacy welcome');
    await page.close();
  });

  it('opens the search dialog from the search box, and suggests pages while typing', async () => {
    const page = await open(site.url);
    await page.locator('#site-search-q').click();
    await page.locator('.search-dialog-input').pressSequentially('walrus', { delay: 20 });
    const suggestion = page.locator('.search-option a', { hasText: 'Endpoints' });
    await suggestion.waitFor();
    await suggestion.click();
    await page.waitForURL(/\/api-reference$/);
    assert.equal(await page.locator('h1.page-title').textContent(), 'Endpoints');
    await page.close();
  });

  it('searches by submitting the form, without JavaScript', async () => {
    const page = await open(site.url, false);
    await page.locator('#site-search-q').fill('nodes');
    await page.locator('#site-search-q').press('Enter');
    await page.waitForURL(/~search\?q=nodes/);
    const titles = await page.locator('.search-result-title').allTextContents();
    assert.ok(titles.includes('Scaling'), `results: ${titles.join(', ')}`);
    await page.locator('.search-result-title', { hasText: 'Scaling' }).click();
    assert.equal(await page.locator('h1.page-title').textContent(), 'Scaling');
    await page.close();
  });

  it('refuses a share-link site, then admits the holder of its share link', async () => {
    const page = await open(shareSite.url);
    assert.match((await page.locator('h1').textContent()) ?? '', /Page not found/);
    await page.goto(shareUrl);
    assert.equal(page.url(), shareSite.url, 'the key leaves the address bar');
    assert.equal(await page.locator('h1.page-title').textContent(), 'Endpoints');
    await page.reload();
    assert.equal(await page.locator('h1.page-title').textContent(), 'Endpoints', 'the cookie keeps the visitor in');
    await page.close();
  });

  it('refuses a visitor-auth site, then admits a visitor with a signed token', async () => {
    const page = await open(authSite.url);
    assert.match((await page.locator('h1').textContent()) ?? '', /Sign in/);
    const token = await visitorToken(authKey, { email: 'reader@example.com' }, new Date(t.clock.now().getTime() + 3600_000));
    await page.goto(`${authSite.url}?jwt_token=${token}`);
    assert.equal(page.url(), authSite.url);
    assert.equal(await page.locator('h1.page-title').textContent(), 'Endpoints');
    await page.close();
  });
});
