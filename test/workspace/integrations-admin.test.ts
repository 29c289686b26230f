import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { runDueJobs } from '../../src/jobs/index.ts';
import { createSession } from '../../src/sessions/store.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, postCollection, postSpace, type World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { startUpperCaseEngine, type TestEngine } from '../helpers/upper-case-engine.ts';
import { createGitTestApp, runJobs } from '../git/helpers.ts';
import { PASSWORD, startGitServer, USER, type GitServer } from '../git/server.ts';
import { type TestApp, dialects } from '../helpers/app.ts';
import { assertAccessible, assertKeyboardReachable, freePort, shot } from './support.ts';

/**
 * The integrations settings in Chromium, each checked through the API: a space connected to a Git remote
 * served by the test (smart HTTP), imported at once and watched until the import finishes, then updated by a
 * push announced to the webhook address with the secret the screen showed once; an OpenAPI specification
 * uploaded, processed, made public and previewed as reference pages, and a broken one whose error names the line.
 */
const skip = needs('chromium', 'git');

const PETSTORE = `openapi: 3.0.3
info:
  title: Petstore
  version: 1.0.0
paths:
  /pets:
    get:
      tags: [pets]
      summary: List pets
      parameters:
        - name: limit
          in: query
          description: How many pets to list
          schema: { type: integer }
      responses:
        '200':
          description: The pets
`;

// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (test/helpers/app.ts).
for (const dialect of dialects) describe(`integrations in the workspace [${dialect}]`, { skip }, () => {
  let t: TestApp;
  let world: World;
  let base: string;
  let browser: Browser;
  let remote: GitServer;
  let page: Page;
  let engine: TestEngine;
  const problems: string[] = [];

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    engine = await startUpperCaseEngine();
    t = await createGitTestApp(dialect, { QUIRE_PUBLIC_URL: base, QUIRE_TRANSLATION_ENGINE: 'deepl', QUIRE_TRANSLATION_URL: engine.url, QUIRE_TRANSLATION_API_KEY: 'test-key' });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    remote = await startGitServer();
    remote.createRepo('handbook', { 'README.md': '# Handbook\n\nWelcome.\n', 'guides/install.md': '# Install\n\nRun the installer.\n' });
    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const { secret } = await createSession(t.ctx, { userId: world.admin.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
    await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
    page = await context.newPage();
    page.on('console', (message) => {
      if ((message.type() === 'error' && !message.text().startsWith('Failed to load resource')) || /Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
  });
  after(async () => {
    await browser?.close();
    await remote?.close();
    await t?.close();
    await engine?.close();
  });

  const titles = async (spaceId: string) => ((await world.admin.api.get(`/v1/spaces/${spaceId}/content`)).body.pages as Array<{ title: string; pages?: unknown[] }>).flatMap(function walk(p: { title: string; pages?: unknown[] }): string[] {
    return [p.title, ...((p.pages ?? []) as Array<{ title: string; pages?: unknown[] }>).flatMap(walk)];
  });

  it('connects a Git remote, imports it now and shows the import finish, then a signed push imports again', async () => {
    const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Handbook' });
    await page.goto(`${base}/o/${world.organizationId}/s/${space.id}`);
    await page.getByRole('link', { name: 'Share and settings' }).click();
    await page.getByRole('link', { name: 'Git Sync' }).click();
    await page.getByText('This space is not synced with a Git repository.').waitFor();
    await assertAccessible(page, 'git sync, not connected');
    await assertKeyboardReachable(page, 'git sync, not connected');

    await page.getByLabel('Repository address (HTTPS)').fill(remote.url('handbook', null));
    await page.getByLabel('User name').fill(USER);
    await page.getByLabel('Password or access token').fill(PASSWORD);
    await page.getByLabel('Branch', { exact: true }).fill('main');
    await page.getByLabel('Direction').selectOption('pull');
    await page.getByRole('button', { name: 'Connect' }).click();
    const secret = await page.getByLabel('Webhook secret', { exact: true }).inputValue();
    const sync = (await world.admin.api.get(`/v1/spaces/${space.id}/git/sync`)).body;
    assert.equal(sync.hasCredentials, true);
    assert.equal(sync.ref, 'refs/heads/main');
    assert.equal(sync.direction, 'pull');
    assert.equal(await page.getByLabel('Webhook address', { exact: true }).inputValue(), `${base}/v1/git/webhooks/${sync.id}`);

    await page.getByRole('button', { name: 'Import now' }).click();
    await page.getByText(/Import (waiting to start|running)/).first().waitFor();
    await runJobs(t.ctx);
    // The screen looks again while an operation is under way, and says when it is done.
    await page.getByRole('status').filter({ hasText: /Import finished at commit [0-9a-f]{7}/ }).waitFor();
    await page.getByText(remote.head('handbook').slice(0, 12)).waitFor();
    assert.ok((await titles(space.id)).includes('Install'));
    await assertAccessible(page, 'git sync, imported');
    await assertKeyboardReachable(page, 'git sync, imported');
    await shot(page, 'integrations-git-sync');

    // A push to the branch, announced as GitHub does with the secret the screen showed.
    const work = remote.clone('handbook');
    const { writeFileSync } = await import('node:fs');
    writeFileSync(`${work}/guides/upgrade.md`, '# Upgrade\n\nRun it again.\n');
    const head = remote.push(work, 'Add the upgrade guide');
    const body = JSON.stringify({ ref: 'refs/heads/main', after: head, before: '0'.repeat(40), repository: { clone_url: remote.url('handbook', null) } });
    const hook = await fetch(sync.webhook.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-github-event': 'push', 'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}` },
      body,
    });
    assert.equal(hook.status, 202, await hook.text());
    await runJobs(t.ctx);
    assert.ok((await titles(space.id)).includes('Upgrade'));
    await page.getByRole('button', { name: 'I have copied it' }).click();
    await page.reload();
    await page.getByRole('cell', { name: new RegExp(`Import finished at commit ${head.slice(0, 7)}`) }).waitFor();
  });

  it('uploads an OpenAPI specification, shows its reference pages, makes it public, and names the line of an error', async () => {
    await page.goto(`${base}/o/${world.organizationId}/settings/openapi`);
    await page.getByRole('heading', { name: 'OpenAPI specifications', level: 1 }).waitFor();
    await page.getByLabel('Upload a file').check();
    await page.getByLabel('Specification file (JSON or YAML)').setInputFiles({ name: 'petstore.yaml', mimeType: 'application/yaml', buffer: Buffer.from(PETSTORE) });
    await page.getByRole('button', { name: 'Add specification' }).click();
    await page.getByRole('heading', { name: 'petstore' }).waitFor();
    await runJobs(t.ctx);
    await page.getByText('Ready').waitFor();
    const spec = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/openapi/petstore`)).body;
    assert.equal(spec.processingState, 'complete');
    assert.ok(spec.lastVersion);

    // The new specification's versions and preview are open already.
    assert.equal(await page.getByRole('button', { name: 'Hide versions and preview' }).getAttribute('aria-expanded'), 'true');
    const preview = page.getByRole('article', { name: 'Reference preview' });
    await preview.getByRole('heading', { name: /Petstore/ }).waitFor();
    await preview.getByText('GET /pets').click();
    await preview.getByRole('cell', { name: 'How many pets to list' }).waitFor();
    await assertAccessible(page, 'openapi');
    await assertKeyboardReachable(page, 'openapi');
    await shot(page, 'integrations-openapi');

    assert.equal((await fetch(`${base}/openapi/${world.organizationId}/petstore`)).status, 404);
    await page.getByLabel('Visibility').selectOption('public');
    await page.getByLabel('Public address of its latest version', { exact: true }).waitFor();
    const published = await fetch(`${base}/openapi/${world.organizationId}/petstore`);
    assert.equal(published.status, 200);
    assert.equal(((await published.json()) as { info: { title: string } }).info.title, 'Petstore');

    await page.getByLabel('Specification file (JSON or YAML)').setInputFiles({ name: 'broken.yaml', mimeType: 'application/yaml', buffer: Buffer.from('openapi: 3.0.3\ninfo:\n  title: [unclosed\npaths: {}\n') });
    await page.getByRole('button', { name: 'Add specification' }).click();
    await page.getByRole('heading', { name: 'broken' }).waitFor();
    await runJobs(t.ctx);
    const error = page.getByRole('alert').filter({ hasText: 'The file could not be read' });
    await error.waitFor();
    assert.match(await error.innerText(), /line \d+/);
    assert.deepEqual(problems, []);
  });

  it('restores a space from the trash and deletes a collection for good', async () => {
    const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Release notes' });
    const collection = await postCollection(t.clock, world.admin, world.organizationId, { title: 'Archive' });
    t.clock.advance(1000);
    assert.equal((await world.admin.api.delete(`/v1/spaces/${space.id}`)).status, 205);
    assert.equal((await world.admin.api.delete(`/v1/collections/${collection.id}`)).status, 205);
    await page.goto(`${base}/o/${world.organizationId}/settings/trash`);
    await page.getByRole('button', { name: 'Restore Release notes' }).waitFor();
    await assertAccessible(page, 'trash');
    await assertKeyboardReachable(page, 'trash');
    await shot(page, 'integrations-trash');
    await page.getByRole('button', { name: 'Restore Release notes' }).click();
    await page.getByRole('button', { name: 'Restore Release notes' }).waitFor({ state: 'detached' });
    assert.equal((await world.admin.api.get(`/v1/spaces/${space.id}`)).status, 200);
    await page.getByRole('button', { name: 'Delete now: Archive' }).click();
    await page.getByText('The trash is empty.').waitFor();
    assert.equal((await world.admin.api.post(`/v1/orgs/${world.organizationId}/trash/collections/${collection.id}/restore`, {})).status, 404);
    assert.deepEqual(problems, []);
  });

  it('translates a space, shows each page’s status, and keeps a glossary', async () => {
    const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Pets', markdown: 'The dog eats the apple.\n' }], { title: 'Pet guide' });
    await page.goto(`${base}/o/${world.organizationId}/settings/translations`);
    await page.getByLabel('Term (English)').fill('Quire');
    await page.getByLabel('Language', { exact: true }).selectOption('fr');
    await page.getByRole('button', { name: 'Add term' }).click();
    await page.getByText('en: Quire · fr: Quire').waitFor();
    const glossary = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations-glossary`)).body.items as Array<{ translations: Record<string, string> }>;
    assert.deepEqual(glossary.map((entry) => entry.translations), [{ en: 'Quire', fr: 'Quire' }]);

    await page.getByLabel('Space', { exact: true }).selectOption({ label: 'Pet guide' });
    await page.getByLabel('Into').selectOption('fr');
    await page.getByRole('button', { name: 'Start translating' }).click();
    await page.getByRole('heading', { name: 'Pet guide → French' }).waitFor();
    t.clock.advance(60_000);
    for (let round = 0; round < 20; round++) if ((await runDueJobs(t.ctx, { workerId: 'integrations-admin-test' })).claimed === 0) break;
    await page.getByText('Up to date').waitFor();
    const [translation] = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations`)).body.items as Array<{ status: string; result?: { space: string } }>;
    assert.equal(translation.status, 'completed');
    assert.ok(translation.result && translation.result.space !== spaceId);
    await page.getByText('Translated by the latest run').waitFor();
    await page.getByText('PETS').waitFor();
    await assertAccessible(page, 'translations');
    await assertKeyboardReachable(page, 'translations');
    await shot(page, 'integrations-translations');
    assert.deepEqual(problems, []);
  });

  it('changes the translation engine, and the next translation uses it', { skip: needs('apertium') }, async () => {
    const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Dogs', markdown: 'The dog eats the apple.\n' }], { title: 'Dog guide' });
    await page.goto(`${base}/o/${world.organizationId}/settings/translations`);
    await page.getByText('Translating with DeepL.').waitFor();
    await page.getByLabel('Engine', { exact: true }).selectOption('apertium');
    await page.getByRole('button', { name: 'Use this engine' }).click();
    await page.getByText('Translating with Apertium.').waitFor();
    const setting = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations-engine`)).body;
    assert.deepEqual({ engine: setting.engine, chosen: setting.chosen, server: setting.server }, { engine: 'apertium', chosen: 'apertium', server: 'deepl' });

    await page.getByLabel('Space', { exact: true }).selectOption({ label: 'Dog guide' });
    await page.getByLabel('Into').selectOption('es');
    await page.getByRole('button', { name: 'Start translating' }).click();
    await page.getByRole('heading', { name: 'Dog guide → Spanish' }).waitFor();
    t.clock.advance(60_000);
    for (let round = 0; round < 20; round++) if ((await runDueJobs(t.ctx, { workerId: 'integrations-admin-test' })).claimed === 0) break;
    const translations = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations`)).body.items as Array<{ source: { space: string }; status: string; result?: { space: string } }>;
    const spanish = translations.find((translation) => translation.source.space === spaceId)!;
    assert.equal(spanish.status, 'completed');
    const [translated] = (await world.admin.api.get(`/v1/spaces/${spanish.result!.space}/content`)).body.pages as Array<{ title: string }>;
    assert.match(translated.title, /Perros/, 'Apertium, not the DeepL-compatible server, translated it');

    await page.getByLabel('Engine', { exact: true }).selectOption('');
    await page.getByRole('button', { name: 'Use this engine' }).click();
    await page.getByText('Translating with DeepL.').waitFor();
    assert.equal((await world.admin.api.get(`/v1/orgs/${world.organizationId}/translations-engine`)).body.chosen, null);
    await assertAccessible(page, 'translations, engine');
    await assertKeyboardReachable(page, 'translations, engine');
    assert.deepEqual(problems, []);
  });
});
