import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createSite, type SiteHandle } from '../published/support.ts';
import { needs } from '../helpers/system.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * GitBook's blocks in a real browser (Chromium through playwright-core), on SQLite only: steppers, columns,
 * buttons, icons and Mermaid diagrams drawn under the reader's strict Content-Security-Policy (no inline
 * styles, no inline scripts), and `if` blocks shown by the reader's claims.
 */
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts');

const BLOCKS = [
  'Everything a page of ours can hold.',
  '',
  '{% stepper %}',
  '{% step %}',
  '#### Create your account',
  '',
  'Sign up with your work address.',
  '{% endstep %}',
  '',
  '{% step %}',
  '#### Create your first site',
  '',
  'Click **New site**.',
  '{% endstep %}',
  '{% endstepper %}',
  '',
  '{% columns %}',
  '{% column width="50%" %}',
  '**Left column** <i class="fa-book">:book:</i>',
  '',
  '<a href="https://www.example.com/start" class="button primary">Start now</a>',
  '{% endcolumn %}',
  '',
  '{% column %}',
  '**Right column**',
  '{% endcolumn %}',
  '{% endcolumns %}',
  '',
  '```mermaid',
  'graph TD',
  '  Write --> Review',
  '  Review --> Publish',
  '```',
  '',
  '{% if visitor.claims.unsigned.plan == "pro" %}',
  'Pro readers see the priority support line.',
  '{% endif %}',
  '',
  '{% if !visitor.claims.unsigned.plan %}',
  'Readers without a plan see the pricing page.',
  '{% endif %}',
  '',
].join('\n');

const skip = needs('chromium');

describe('GitBook blocks in a browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let browser: Browser;
  let site: SiteHandle;

  before(async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { QUIRE_PUBLIC_URL: base });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    const space = (await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Blocks', markdown: BLOCKS }], { title: 'Blocks' })).spaceId;
    site = await createSite(world.admin, world.organizationId, { title: 'Blocks Docs', visibility: 'public', spaces: [space] });
    browser = await launchChromium();
  });

  after(async () => {
    await browser?.close();
    await t?.close();
  });

  async function open(url: string, errors: string[]): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' || /Content.Security.Policy/i.test(message.text())) errors.push(message.text());
    });
    page.on('pageerror', (error) => errors.push(String(error)));
    await page.addInitScript(() => {
      document.addEventListener("securitypolicyviolation", (event) => console.error(`CSP violation: ${event.violatedDirective} ${event.blockedURI} ${event.sourceFile}:${event.lineNumber} in ${document.URL}`));
    });
    await page.goto(url);
    return page;
  }

  it('draws steppers, columns, buttons, icons and a Mermaid diagram with no policy violation', async () => {
    const errors: string[] = [];
    const page = await open(site.url, errors);
    const csp = (await page.request.get(site.url)).headers()['content-security-policy'];
    assert.match(csp, /style-src 'self';/, 'the page keeps the strict policy: no <style> elements');
    assert.match(csp, /script-src 'self';/);

    await page.locator('.mermaid-diagram svg').waitFor({ timeout: 15_000 });
    const diagramText = await page.locator('.mermaid-diagram svg').textContent();
    assert.match(diagramText ?? '', /Write/);
    assert.match(diagramText ?? '', /Publish/);
    // Mermaid's own styles reach the diagram through the constructed stylesheet: nodes are filled, not black.
    const fill = await page.locator('.mermaid-diagram svg .node rect, .mermaid-diagram svg .node polygon').first().evaluate((node) => getComputedStyle(node).fill);
    assert.notEqual(fill, 'rgb(0, 0, 0)', 'the diagram is styled');

    assert.equal(await page.locator('.stepper .step').count(), 2);
    assert.equal(await page.locator('.columns .column').count(), 2);
    const [left, right] = await page.locator('.columns .column').evaluateAll((columns) => columns.map((c) => c.getBoundingClientRect().left));
    assert.ok(right > left + 100, 'columns sit side by side');
    assert.equal(await page.getByRole('link', { name: 'Start now' }).getAttribute('href'), 'https://www.example.com/start');
    assert.ok(await page.locator('.columns svg').count(), 'the icon is drawn as an inline SVG');

    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'reader-blocks.png'), fullPage: true });
    assert.deepEqual(errors, [], 'no script error and no Content-Security-Policy violation');
    await page.close();
  });

  it('shows each reader the branch of an if block that its claims choose, and no other', async () => {
    const errors: string[] = [];
    const pro = await open(`${site.url}?visitor.plan=pro`, errors);
    const proText = (await pro.locator('main').textContent()) ?? '';
    assert.match(proText, /priority support line/);
    assert.doesNotMatch(proText, /pricing page/);
    assert.doesNotMatch(await pro.content(), /pricing page/, 'the hidden branch is not in the HTML at all');
    await pro.close();

    const free = await open(site.url, errors);
    const freeText = (await free.locator('main').textContent()) ?? '';
    assert.match(freeText, /pricing page/);
    assert.doesNotMatch(await free.content(), /priority support line/);
    await free.close();
    assert.deepEqual(errors, []);
  });
});
