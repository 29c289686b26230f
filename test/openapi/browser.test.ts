import assert from 'node:assert/strict';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createSite, type SiteHandle } from '../published/support.ts';
import { drainJobs, fixture } from './helpers.ts';
import { needs } from '../helpers/system.ts';
import { freePort } from '../helpers/ports.ts';

/** An API reference page in a real browser (Chromium, SQLite): it shows, expands, switches samples, and follows anchors, without script errors. */
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts');

const PAGE = `Manage the pets of the store.

{% openapi-operation spec="petstore" path="/pets" method="post" %}
[OpenAPI petstore](https://example.com/petstore.yaml)
{% endopenapi-operation %}

{% openapi-operation spec="petstore" path="/pets/{petId}" method="get" %}
[OpenAPI petstore](https://example.com/petstore.yaml)
{% endopenapi-operation %}
`;

describe('an API reference in the browser', { skip: needs('chromium') }, () => {
  let t: TestApp;
  let world: World;
  let browser: Browser;
  let site: SiteHandle;
  let base: string;
  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { QUIRE_PUBLIC_URL: base });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    await world.admin.api.post(`/v1/orgs/${world.organizationId}/openapi`, { slug: 'petstore', source: { text: fixture('petstore-3.0.yaml') } });
    await drainJobs(t);
    const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Pets', markdown: PAGE }], { title: 'API' });
    site = await createSite(world.admin, world.organizationId, { title: 'Petstore API', visibility: 'public', spaces: [spaceId] });
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await t.close();
  });

  it('shows the operation, expands a schema, switches code samples and follows an anchor', async () => {
    const page = await browser.newPage();
    const errors: string[] = [];
    page.on('pageerror', (error) => errors.push(error.message));
    page.on('console', (message) => message.type() === 'error' && errors.push(message.text()));
    await page.goto(`${base}${site.root}#get-pets-petid`);
    const target = page.locator('#get-pets-petid');
    assert.equal(await target.locator('.openapi-summary').innerText(), 'Info for a specific pet');
    assert.ok(await target.isVisible());
    const create = page.locator('#post-pets');
    assert.ok(await create.getByText('Create a pet').isVisible());
    // The request body's `parent` property (a Pet again) opens to its own properties.
    const parent = create.locator('.openapi-request-body details').filter({ hasText: 'parent' }).first();
    await parent.locator('summary').first().click();
    assert.ok(await parent.getByText('Pet (recursive: see above)').first().isVisible());
    // Code samples: cURL shows first; JavaScript after a click, without script.
    assert.ok(await create.locator('.openapi-sample').first().isVisible());
    await create.locator('label.tab-label', { hasText: 'JavaScript' }).click();
    assert.ok(await create.getByText('await fetch(').isVisible());
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, 'openapi-reference.png'), fullPage: true });
    assert.deepEqual(errors, []);
  });
});
