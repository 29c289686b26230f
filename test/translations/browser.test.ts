import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { addVariant, createSite, type SiteHandle } from '../published/support.ts';
import { runJobs } from './support.ts';
import { needs } from '../helpers/system.ts';
import { freePort } from '../helpers/ports.ts';

const skip = needs('chromium', 'apertium');

/** A reader in Chromium switches from an English page to the same page in Spanish, translated by Apertium. */
describe('switching languages in a browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let browser: Browser;
  let site: SiteHandle;

  before(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { QUIRE_PUBLIC_URL: base, QUIRE_TRANSLATION_ENGINE: 'apertium' });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    const { spaceId } = await createSpaceWithPages(
      t.ctx,
      world.organizationId,
      [
        { type: 'document', title: 'Welcome', markdown: 'The dog eats the apple.\n' },
        { type: 'document', title: 'Install', markdown: 'Open the red door and read the [welcome](welcome.md).\n' },
      ],
      { title: 'Handbook', visibility: 'public' },
    );
    const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: spaceId } });
    assert.deepEqual(await runJobs(t.ctx, t.clock), []);
    const translation = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`)).body;
    site = await createSite(world.admin, world.organizationId, { title: 'Docs', visibility: 'public', spaces: [spaceId] });
    await addVariant(world.admin, world.organizationId, site.id, translation.result.space);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
  });

  it('opens the same page in Spanish from the language switcher, and back', async () => {
    const page = await browser.newPage();
    await page.goto(`${site.url}/install`);
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    await page.click('.language-switcher summary');
    await page.click('.language-switcher a[hreflang="es"]');
    await page.waitForURL(/\/install$/);
    assert.notEqual(new URL(page.url()).pathname, new URL(`${site.url}/install`).pathname);
    assert.equal(await page.getAttribute('html', 'lang'), 'es');
    assert.match((await page.textContent('main')) ?? '', /puerta roja/i);
    const spanishInstall = new URL(page.url()).pathname;
    // The link in the translated page leads to the translated page it names.
    await page.click('.page-content a');
    await page.waitForURL((url) => url.pathname !== spanishInstall);
    assert.equal(await page.getAttribute('html', 'lang'), 'es');
    assert.match((await page.textContent('main')) ?? '', /perro come la manzana/i);
    await page.click('.language-switcher summary');
    await page.click('.language-switcher a[hreflang="en"]');
    await page.waitForURL((url) => !url.pathname.startsWith(spanishInstall.replace(/install$/, '')));
    assert.equal(await page.getAttribute('html', 'lang'), 'en');
    assert.match((await page.textContent('main')) ?? '', /The dog eats the apple/);
    await page.close();
  });
});
