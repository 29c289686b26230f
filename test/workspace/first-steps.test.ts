import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { TEMPLATES } from '../../src/content/templates/index.ts';
import { createOrganization } from '../../src/modules/orgs/service.ts';
import { issueApiToken } from '../../src/modules/users/service.ts';
import { createSession } from '../../src/sessions/store.ts';
import { client, type Client, dialects, type TestApp } from '../helpers/app.ts';
import { needs } from '../helpers/system.ts';
import { createGitTestApp, runJobs } from '../git/helpers.ts';
import { PASSWORD, startGitServer, USER, type GitServer } from '../git/server.ts';
import { buildZip } from '../imports/helpers.ts';
import { assertAccessible, assertFitsWidth, assertKeyboardReachable, freePort, shot, watchProblems } from './support.ts';

/**
 * A brand-new organization's first screen in Chromium, each way of starting checked through /v1: a space from
 * each template (its pages are the template's), a Markdown file and a zip imported through the file input, and
 * a Git repository served over smart HTTP connected and imported.
 */
const skip = needs('chromium', 'git');

interface TreePage {
  title: string;
  pages?: TreePage[];
}

/** Titles of a page tree, depth first, each indented by its depth ("Guides", "  Configuration"). */
function outline(pages: readonly object[], depth = 0): string[] {
  return (pages as TreePage[]).flatMap((page) => [`${'  '.repeat(depth)}${page.title}`, ...outline(page.pages ?? [], depth + 1)]);
}

for (const dialect of dialects) describe(`a new organization's first steps [${dialect}]`, { skip }, () => {
  let t: TestApp;
  let base: string;
  let browser: Browser;
  let remote: GitServer;
  const problems: string[] = [];
  let count = 0;

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createGitTestApp(dialect, { QUIRE_PUBLIC_URL: base });
    await t.app.listen({ host: '127.0.0.1', port });
    remote = await startGitServer();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await remote?.close();
    await t?.close();
  });

  /** A new organization (its owner alone in it, no space, no collection) and its owner's browser, on its home. */
  async function newOrganization(): Promise<{ organizationId: string; api: Client; page: Page }> {
    count += 1;
    t.clock.advance(1000);
    const { organization, owner } = await createOrganization(t.ctx, { title: `Fresh Docs ${count}`, ownerEmail: `owner-${count}-${dialect}@fresh.test`, ownerName: 'Olga Owner' });
    const api = client(t.app, await issueApiToken(t.ctx, owner.id));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const { secret } = await createSession(t.ctx, { userId: owner.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
    await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    watchProblems(page, problems);
    await page.goto(`${base}/o/${organization.id}`);
    await page.getByText('No spaces yet.').waitFor();
    return { organizationId: organization.id, api, page };
  }

  /** The space the browser went to after "Create space": its id, once its page tree shows. */
  async function createdSpace(page: Page): Promise<string> {
    await page.waitForURL(/\/o\/[^/]+\/s\/[^/]+$/);
    return page.url().split('/s/')[1];
  }

  const tree = async (api: Client, spaceId: string) => {
    const reply = await api.get(`/v1/spaces/${spaceId}/content`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return outline(reply.body.pages as TreePage[]);
  };

  it('offers a template, a file and a Git repository on the first screen', async () => {
    const { page } = await newOrganization();
    const first = page.locator('.first-steps');
    await first.getByRole('form', { name: 'New space' }).waitFor();
    await first.getByRole('form', { name: 'Connect a Git repository' }).waitFor();
    for (const template of TEMPLATES.values()) await first.getByRole('radio', { name: template.title }).waitFor();
    await first.getByLabel('Or import a file').waitFor();
    await assertAccessible(page, 'first screen');
    await assertKeyboardReachable(page, 'first screen');
    await shot(page, 'first-steps');
    await page.setViewportSize({ width: 390, height: 900 });
    await assertFitsWidth(page, 'the first screen on a phone');
    await page.context().close();
    assert.deepEqual(problems, []);
  });

  for (const template of TEMPLATES.values()) {
    it(`creates a space from the template "${template.title}", with the template's pages`, async () => {
      const { page, api } = await newOrganization();
      await page.getByLabel('Title', { exact: true }).fill(template.title);
      await page.getByRole('radio', { name: template.title }).check();
      await page.getByRole('button', { name: 'Create space' }).click();
      const spaceId = await createdSpace(page);
      const expected = outline(template.pages({}));
      assert.ok(expected.length >= 3, `${template.id} has pages`);
      assert.deepEqual(await tree(api, spaceId), expected);
      assert.equal((await api.get(`/v1/spaces/${spaceId}`)).body.title, template.title);
      // The space opens on its first page, in the tree the template made.
      const firstDocument = (function find(pages: readonly object[]): string | undefined {
        for (const entry of pages as Array<TreePage & { type: string }>) {
          if (entry.type === 'document') return entry.title;
          const inside = find(entry.pages ?? []);
          if (inside) return inside;
        }
        return undefined;
      })(template.pages({}));
      await page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: firstDocument, selected: true }).waitFor();
      await page.context().close();
      assert.deepEqual(problems, []);
    });
  }

  it('imports a Markdown file into a new space', async () => {
    const { page, api } = await newOrganization();
    await page.getByLabel('Title', { exact: true }).fill('Release notes');
    await page.getByLabel('Or import a file').setInputFiles({ name: 'release-notes.md', mimeType: 'text/markdown', buffer: Buffer.from('# Release notes\n\nVersion 2 ships **today**.\n\n## Fixes\n\n- The export keeps tabs.\n') });
    await page.getByRole('button', { name: 'Create space' }).click();
    const spaceId = await createdSpace(page);
    assert.deepEqual(await tree(api, spaceId), ['Release notes']);
    const pages = (await api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string }>;
    const markdown = (await api.get(`/v1/spaces/${spaceId}/content/page/${pages[0].id}?format=markdown`)).body.markdown as string;
    assert.match(markdown, /Version 2 ships \*\*today\*\*\.\n\n## Fixes\n\n- The export keeps tabs\.\n$/);
    await page.getByText('Version 2 ships').waitFor();
    await page.context().close();
    assert.deepEqual(problems, []);
  });

  it('imports a zip of Markdown into a new space, its summary giving the tree', async () => {
    const { page, api } = await newOrganization();
    const zip = buildZip([
      { name: 'SUMMARY.md', data: '# Summary\n\n* [Welcome](README.md)\n* [Setup](setup/README.md)\n  * [On Linux](setup/linux.md)\n' },
      { name: 'README.md', data: '# Welcome\n\nStart here.\n' },
      { name: 'setup/README.md', data: '# Setup\n\nTwo ways.\n' },
      { name: 'setup/linux.md', data: '# On Linux\n\nRun the package.\n' },
    ]);
    await page.getByLabel('Title', { exact: true }).fill('Handbook');
    await page.getByLabel('Or import a file').setInputFiles({ name: 'handbook.zip', mimeType: 'application/zip', buffer: zip });
    await page.getByRole('button', { name: 'Create space' }).click();
    const spaceId = await createdSpace(page);
    assert.deepEqual(await tree(api, spaceId), ['Welcome', 'Setup', '  On Linux']);
    await page.getByText('Start here.').waitFor();
    await page.context().close();
    assert.deepEqual(problems, []);
  });

  it('imports a folder of Markdown into a new space, its tree from the folders and README files (.git and node_modules left out)', async () => {
    const folder = join(mkdtempSync(join(tmpdir(), 'quire-first-steps-')), 'handbook');
    const files: Record<string, string> = {
      // No SUMMARY.md: the tree comes from the folders and their README.md files, so anything packed would show.
      'README.md': '# Welcome\n\nStart here.\n',
      'setup/README.md': '# Setup\n\nTwo ways.\n',
      'setup/screens.md': '# Écrans\n\nLes écrans.\n',
      '.git/HEAD': 'ref: refs/heads/main\n',
      'node_modules/tool/README.md': '# A package\n',
    };
    for (const [path, text] of Object.entries(files)) {
      mkdirSync(dirname(join(folder, path)), { recursive: true });
      writeFileSync(join(folder, path), text);
    }
    try {
      const { page, api } = await newOrganization();
      await page.getByLabel('Title', { exact: true }).fill('Handbook');
      await page.getByLabel('Or import a folder of Markdown').setInputFiles(folder);
      await page.getByRole('button', { name: 'Create space' }).click();
      const spaceId = await createdSpace(page);
      assert.deepEqual(await tree(api, spaceId), ['Welcome', 'Setup', '  Écrans']);
      await page.getByText('Start here.').waitFor();
      await page.context().close();
      assert.deepEqual(problems, []);
    } finally {
      rmSync(dirname(folder), { recursive: true, force: true });
    }
  });

  it('refuses a file it cannot import, saying which files it takes', async () => {
    const { page, api, organizationId } = await newOrganization();
    await page.getByLabel('Title', { exact: true }).fill('Notes');
    await page.getByLabel('Or import a file').setInputFiles({ name: 'notes.txt', mimeType: 'text/plain', buffer: Buffer.from('plain') });
    await page.getByRole('button', { name: 'Create space' }).click();
    await page.getByRole('alert').filter({ hasText: 'Quire imports .md, .zip, .html and .docx files; notes.txt is none of them.' }).waitFor();
    assert.equal((await api.get(`/v1/orgs/${organizationId}/spaces`)).body.items.length, 0);
    await page.context().close();
    assert.deepEqual(problems, []);
  });

  it('connects a Git repository: a new space synced with the branch, its pages imported', async () => {
    remote.createRepo('guides', { 'README.md': '# Guides\n\nWelcome to the guides.\n', 'install.md': '# Install\n\nRun the installer.\n', 'SUMMARY.md': '# Summary\n\n* [Guides](README.md)\n* [Install](install.md)\n' });
    const { page, api, organizationId } = await newOrganization();
    const form = page.getByRole('form', { name: 'Connect a Git repository' });
    await form.getByLabel('Repository address (HTTPS)').fill(remote.url('guides', null));
    await form.getByLabel('User name').fill(USER);
    await form.getByLabel('Password or access token').fill(PASSWORD);
    await form.getByRole('button', { name: 'Connect and import' }).click();
    // The space's Git Sync settings follow the import.
    await page.waitForURL(/\/s\/[^/]+\/settings\/git$/);
    const spaceId = page.url().split('/s/')[1].split('/')[0];
    const space = (await api.get(`/v1/spaces/${spaceId}`)).body;
    assert.equal(space.title, 'guides');
    assert.equal(space.organization, organizationId);
    const sync = (await api.get(`/v1/spaces/${spaceId}/git/sync`)).body;
    assert.equal(sync.url, remote.url('guides', null));
    assert.equal(sync.ref, 'refs/heads/main');
    assert.equal(sync.direction, 'pull');
    assert.equal(sync.hasCredentials, true);
    await page.getByText(/Import (waiting to start|running)/).first().waitFor();
    await runJobs(t.ctx);
    await page.getByRole('status').filter({ hasText: /Import finished at commit [0-9a-f]{7}/ }).waitFor();
    assert.deepEqual(await tree(api, spaceId), ['Guides', 'Install']);
    const operations = (await api.get(`/v1/spaces/${spaceId}/git/operations`)).body.items as Array<{ direction: string; state: string; commit: string }>;
    assert.deepEqual(operations.map((operation) => [operation.direction, operation.state, operation.commit]), [['import', 'success', remote.head('guides')]]);
    // Home lists the new space, and the space shows the imported pages.
    await page.goto(`${base}/o/${organizationId}/s/${spaceId}`);
    await page.getByText('Welcome to the guides.').waitFor();
    await page.context().close();
    assert.deepEqual(problems, []);
  });

  it('says so when the address is refused, and connects the same new space once it is corrected', async () => {
    remote.createRepo('manual', { 'README.md': '# Manual\n\nRead me first.\n' });
    const { page, api, organizationId } = await newOrganization();
    const form = page.getByRole('form', { name: 'Connect a Git repository' });
    await form.getByLabel('Repository address (HTTPS)').fill('ftp://example.com/docs.git');
    await form.getByLabel('Space name').fill('Manual');
    await form.getByRole('button', { name: 'Connect and import' }).click();
    await form.getByRole('alert').filter({ hasText: /^The space “Manual” was created, but its Git Sync could not be set: .+ Correct the address and connect again\.$/ }).waitFor();
    const spaces = async () => ((await api.get(`/v1/orgs/${organizationId}/spaces`)).body.items as Array<{ id: string; title: string }>);
    const [space] = await spaces();
    assert.equal(space.title, 'Manual');
    // The refusal of the address is the one failed answer.
    assert.equal(problems.length, 1);
    assert.match(problems.pop()!, /^400 .*\/git\/sync$/);

    await form.getByLabel('Repository address (HTTPS)').fill(remote.url('manual'));
    await form.getByRole('button', { name: 'Connect and import' }).click();
    await page.waitForURL(`${base}/o/${organizationId}/s/${space.id}/settings/git`);
    await runJobs(t.ctx);
    assert.deepEqual((await spaces()).map((entry) => entry.id), [space.id]);
    assert.deepEqual(await tree(api, space.id), ['Manual']);
    await page.context().close();
    assert.deepEqual(problems, []);
  });

  it('says what to do next in every empty list a new organization meets', async () => {
    const { page, api, organizationId } = await newOrganization();
    /** The texts of the empty lists on the screen at `path` (the one shown when no path), once it has loaded. */
    const empties = async (path: string): Promise<string[]> => {
      if (path) await page.goto(`${base}${path}`);
      await page.waitForLoadState('networkidle');
      await page.locator('[aria-busy=true]').first().waitFor({ state: 'detached' });
      return (await page.locator('.empty').allInnerTexts()).map((text) => text.replace(/\s+/g, ' ').trim());
    };
    const o = `/o/${organizationId}`;
    const seen: Record<string, string[]> = {};
    seen.home = await empties('');
    assert.equal((await page.locator('.first-steps > p').first().innerText()).replace(/\s+/g, ' '), 'No spaces yet. A space holds one set of documentation: start one from a template, import a folder of Markdown, a zip of it, a Markdown file, an HTML page or a Word document, or connect a Git repository.');
    seen.sites = await empties(`${o}/sites`);
    for (const section of ['members', 'invites', 'teams', 'collections', 'tokens', 'webhooks', 'translations', 'trash', 'openapi']) {
      seen[`settings/${section}`] = await empties(`${o}/settings/${section}`);
    }
    await page.goto(`${base}${o}`);
    await page.getByLabel('Title', { exact: true }).fill('Blank');
    await page.getByRole('button', { name: 'Create space' }).click();
    const spaceId = await createdSpace(page);
    seen.space = await empties('');
    seen['home, one space'] = await empties(o);
    const s = `${o}/s/${spaceId}`;
    for (const section of ['share', 'merge-rules', 'git']) seen[`space settings/${section}`] = await empties(`${s}/settings/${section}`);
    await page.goto(`${base}${s}`);
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.waitForURL(/\/cr\/[^/]+$/);
    seen['change request'] = await empties('');
    const collections = 'No collections yet. A collection groups spaces (a product\'s guides, its API reference…) and shares them at once: New collection makes one.';
    assert.deepEqual(seen, {
      home: [collections],
      sites: ['No sites yet: Create site publishes one or more spaces on the web.', 'No spaces yet: create one on the home screen first, or create the site empty.'],
      'settings/members': [],
      'settings/invites': ['No invite links yet: choose a role and Create a link, then send the link to the people who should join.'],
      'settings/teams': ['No teams yet. Name one and choose Create team, then add its members.'],
      'settings/collections': ['No collections yet. Create one on the home screen (New collection), then share it here.'],
      // The token the test reads /v1 with is listed.
      'settings/tokens': [],
      'settings/webhooks': ['No webhooks yet: give an address and the events to send, then Create webhook.'],
      'settings/translations': ['No translations yet: choose a space and a language, then Start translating.', 'The glossary is empty: add a term and how it is translated with Add term.'],
      'settings/trash': ['The trash is empty. A space or collection you delete waits here, to be restored or deleted for good.'],
      'settings/openapi': ['No specifications yet: upload a file or give an address, then Add specification.'],
      space: ['This space has no pages. Choose Edit to write the first one in a change request.', 'Nothing to show yet: Edit opens a change request to write the first page.'],
      'home, one space': ['No favourites yet: star a space (☆ on its card) to keep it here, in every browser you sign in to.', collections],
      'space settings/share': ['Not shared with anyone in particular: choose a person or a team and a role, then Share.', "This space is in no collection, so it inherits nothing but the organization's roles."],
      'space settings/merge-rules': [],
      'space settings/git': ['This space is not synced with a Git repository. Give its address below: Quire imports it now and keeps the space and the branch in step.', 'No import or export yet. Import now brings the branch into the space; Export now writes the space to it.'],
      'change request': ['No pages yet: create the first one.', 'Choose a page in the tree, or create one with New page.'],
    });

    // "New collection" on the home screen makes one, and the empty text gives way to it.
    await page.goto(`${base}${o}`);
    await page.getByRole('button', { name: 'New collection' }).click();
    await page.getByLabel('Collection title').fill('Guides');
    await page.getByRole('button', { name: 'Create collection' }).click();
    await page.getByRole('region', { name: 'Collections' }).getByText('Guides', { exact: true }).waitFor();
    assert.equal(await page.getByText('No collections yet.').count(), 0);
    assert.deepEqual(((await api.get(`${o.replace('/o/', '/v1/orgs/')}/collections`)).body.items as Array<{ title: string }>).map((collection) => collection.title), ['Guides']);
    await page.context().close();
    // The space without a Git Sync answers 404 to the settings' question; nothing else fails.
    assert.deepEqual(problems.filter((problem) => !/^404 .*\/git\/sync$/.test(problem)), []);
    problems.length = 0;
  });
});
