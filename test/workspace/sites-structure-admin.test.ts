import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import type { Page } from 'playwright-core';
import { createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { dialects } from '../helpers/app.ts';
import { assertAccessible, assertKeyboardReachable, shot, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * The rest of the Sites screens in Chromium (issue 27): section groups created, renamed and arranged by
 * keyboard, by the group choice and by drag and drop; a site space's path and adaptive-content condition
 * edited in place; claims tried in place (which sections and variants a visitor gets, as the API answers
 * that visitor); footer link groups previewed and published; a site space's own title, colour and theme
 * (and back to the site's); the external MCP servers of a site. Each effect is checked through the API or
 * the published site; axe runs on each screen in light and dark, and the screens are photographed for the
 * docs (docs/images/workspace-sites-*.png).
 */
const skip = needs('chromium');

// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (test/helpers/app.ts).
for (const dialect of dialects) describe(`sections, groups, conditions, footer, overrides and MCP servers in the Sites screens [${dialect}]`, { skip }, () => {
  let w: WorkspaceHarness;
  let page: Page;
  let org: string;
  let siteId: string;
  let spaces: Record<'guides' | 'api' | 'partners' | 'beta', string>;
  const ids: Record<string, string> = {};

  before(async () => {
    w = await startWorkspace(dialect);
    // The server's clock at the browser's: the claims tryout signs a token that expires in minutes.
    w.t.clock.advance(Date.now() - w.t.clock.now().getTime());
    org = w.world.organizationId;
    const space = async (title: string, page: string) => (await createSpaceWithPages(w.t.ctx, org, [{ type: 'document', title: page, markdown: `${page}.\n` }], { title })).spaceId;
    spaces = { guides: await space('Guides', 'Getting started'), api: await space('API', 'Endpoints'), partners: await space('Partners', 'Partner program'), beta: await space('Beta', 'Beta features') };
    const admin = w.world.admin.api;
    const site = (await admin.post(`/v1/orgs/${org}/sites`, { title: 'Walrus Docs', visibility: 'public', spaces: [spaces.guides] })).body;
    siteId = site.id;
    for (const [name, spaceId] of [['API', spaces.api], ['Partners', spaces.partners]] as const) {
      const added = await admin.post(`/v1/orgs/${org}/sites/${siteId}/sections`, { spaceId, title: name });
      assert.equal(added.status, 201, JSON.stringify(added.body));
      ids[name] = added.body.id;
    }
    const sections = (await api('/sections')).body.items as Array<{ id: string; title: string; siteSpaces: Array<{ id: string }> }>;
    ids.Guides = sections.find((s) => !['API', 'Partners'].includes(s.title))!.id;
    assert.equal((await admin.patch(`/v1/orgs/${org}/sites/${siteId}/sections/${ids.Guides}`, { title: 'Guides' })).status, 200);
    // A second variant of the Guides section, for beta readers only once the test sets its condition.
    const variant = await admin.post(`/v1/orgs/${org}/sites/${siteId}/site-spaces`, { spaceId: spaces.beta, sectionId: ids.Guides });
    assert.equal(variant.status, 201, JSON.stringify(variant.body));
    ids.betaVariant = variant.body.id;
    assert.equal((await admin.post(`/v1/orgs/${org}/sites/${siteId}/publish`, {})).status, 200);
    ({ page } = await w.signedIn(w.world.admin, { width: 1400, allow: /^400 \/v1\/orgs\/[^/]+\/sites\/[^/]+\/sections\// }));
  });
  after(async () => {
    await w?.close();
  });

  const api = (path: string) => w.world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}${path}`);
  const groups = async () => (await api('/section-groups')).body.items.map((g: { title: string; sections: Array<{ title: string }> }) => `${g.title}: ${g.sections.map((s) => s.title).join(', ')}`);
  const topLevel = async () => (await api('/structure')).body.structure.map((item: { object: string; title: string }) => `${item.object === 'site-section-group' ? 'group ' : ''}${item.title}`);
  const equal = (actual: () => Promise<unknown>, expected: unknown, what: string) => until(`${what}: ${JSON.stringify(expected)}`, async () => JSON.stringify(await actual()) === JSON.stringify(expected));

  it('creates a section group, renames it, and arranges sections by keyboard, group choice and drag and drop', async () => {
    await page.goto(`${w.base}/o/${org}/sites/${siteId}`);
    await page.getByRole('heading', { name: 'New section group' }).waitFor();
    const newGroup = page.getByRole('form', { name: 'New section group' });
    await newGroup.getByLabel('Group title').fill('Products');
    await newGroup.getByRole('checkbox', { name: 'API' }).check();
    await newGroup.getByRole('checkbox', { name: 'Partners' }).check();
    await newGroup.getByRole('button', { name: 'Create group' }).click();
    await equal(groups, ['Products: API, Partners'], 'the group holds both sections');
    assert.deepEqual(await topLevel(), ['Guides', 'group Products']);

    await page.getByRole('button', { name: 'Rename group Products' }).click();
    await page.locator('.group-head').getByLabel('Group title').fill('Product docs');
    await page.getByRole('button', { name: 'Save title' }).click();
    await equal(groups, ['Product docs: API, Partners'], 'renamed');

    // Alt+↑ on Partners moves it above API, inside the group.
    await page.locator(`#structure-${ids.Partners}`).focus();
    await page.keyboard.press('Alt+ArrowUp');
    await equal(groups, ['Product docs: Partners, API'], 'Partners first in the group');
    await page.getByRole('status').filter({ hasText: 'Partners moved to position 1 of 2' }).waitFor();
    // Alt+↑ on the group puts it above Guides.
    await page.locator('.group-row').focus();
    await page.keyboard.press('Alt+ArrowUp');
    await equal(topLevel, ['group Product docs', 'Guides'], 'the group first');

    // The group choice takes API out of the group (to right after it).
    await page.getByLabel('Group of API').selectOption({ label: 'Not in a group' });
    await equal(topLevel, ['group Product docs', 'API', 'Guides'], 'API out of the group');
    // Drag and drop: API dropped on the group's title joins it again.
    await page.locator(`#structure-${ids.API}`).dragTo(page.locator('.group-head'));
    await equal(groups, ['Product docs: Partners, API'], 'API dropped into the group');
    await page.locator(`#structure-${ids.Guides}`).dragTo(page.locator(`#structure-${ids.Partners}`));
    await equal(groups, ['Product docs: Guides, Partners, API'], 'Guides dropped before Partners');
    await assertAccessible(page, 'site structure with a group');
    await assertKeyboardReachable(page, 'site structure with a group');
    await shot(page, 'sites-structure');
  });

  it('edits a site space\'s path and condition, and the published site follows them', async () => {
    await page.getByRole('button', { name: 'Edit Beta', exact: true }).click();
    const form = page.getByRole('form', { name: 'Address and condition of Beta' });
    await form.getByLabel('Path').fill('beta-guides');
    await form.getByLabel(/^Shown when/).fill('visitor.claims.beta == true');
    await assertAccessible(page, 'editing a site space');
    await form.getByRole('button', { name: 'Save Beta' }).click();
    await form.waitFor({ state: 'detached' });
    const stored = (await api(`/site-spaces`)).body.items.find((s: { id: string }) => s.id === ids.betaVariant);
    assert.equal(stored.path, 'beta-guides');
    assert.equal(stored.condition, 'visitor.claims.beta == true');
    await page.locator('.condition-badge').filter({ hasText: 'visitor.claims.beta == true' }).waitFor();
    // An anonymous reader no longer gets the variant; its address is the new path.
    const anonymous = await w.world.outsider.api.get(`/v1/orgs/${org}/sites/${siteId}/published`);
    assert.equal(anonymous.status, 200);
    const profile = JSON.stringify(anonymous.body);
    assert.doesNotMatch(profile, new RegExp(ids.betaVariant));
    assert.match(stored.urls.published, /\/beta-guides$/);

    // A refused path keeps the form open with the reason.
    await page.getByRole('button', { name: 'Edit API', exact: true }).first().click();
    const section = page.getByRole('form', { name: 'Address and condition of API' });
    await section.getByLabel(/^Shown when/).fill('visitor.claims.(');
    await section.getByRole('button', { name: 'Save API' }).click();
    await section.getByRole('alert').waitFor();
    await section.getByRole('button', { name: 'Cancel' }).click();
  });

  it('tries claims in place: the variants shown are those the API gives that visitor', async () => {
    await editContent(w.t.ctx, spaces.guides, (writer) => {
      writer.addPage({ type: 'document', title: 'Beta notes', markdown: '{% if visitor.claims.beta == true %}\nTry the beta dashboard.\n{% endif %}\n\n{% if !visitor.claims.beta %}\nThe stable dashboard is here.\n{% endif %}\n' });
    });
    const schema = { type: 'object', properties: { beta: { type: 'boolean', description: 'A beta tester reads' } }, additionalProperties: false };
    assert.equal((await w.world.admin.api.put(`/v1/orgs/${org}/sites/${siteId}/adaptive-schema`, { jsonSchema: schema })).status, 200);
    await page.getByRole('navigation', { name: 'Site settings' }).getByRole('link', { name: 'Visitors' }).click();
    await page.getByLabel(/^beta/).selectOption('true');
    await page.getByRole('button', { name: 'See what this visitor gets' }).click();
    const outcome = page.getByRole('list', { name: 'What this visitor gets' });
    await outcome.getByText(/^Beta \/beta-guides — shown$/).waitFor();
    await page.getByLabel(/^beta/).selectOption('false');
    await page.getByRole('button', { name: 'See what this visitor gets' }).click();
    await outcome.getByText(/^Beta \/beta-guides — hidden \(only when visitor\.claims\.beta == true\)$/).waitFor();
    // Inside pages: the adaptive blocks of each page, shown or hidden, as the server evaluates them.
    const inPage = page.getByRole('list', { name: 'Conditional content of Beta notes' });
    await inPage.getByText('hidden: “Try the beta dashboard.” (when visitor.claims.beta == true)').waitFor();
    await inPage.getByText('shown: “The stable dashboard is here.” (when !visitor.claims.beta)').waitFor();
    await page.getByLabel(/^beta/).selectOption('true');
    await page.getByRole('button', { name: 'See what this visitor gets' }).click();
    await inPage.getByText('shown: “Try the beta dashboard.” (when visitor.claims.beta == true)').waitFor();
    await inPage.getByText('hidden: “The stable dashboard is here.” (when !visitor.claims.beta)').waitFor();
    const fromApi = (await api(`/try-claims?claims=${encodeURIComponent(JSON.stringify({ beta: true }))}`)).body.pages.find((p: { title: string }) => p.title === 'Beta notes');
    assert.deepEqual(fromApi.blocks.map((b: { shown: boolean }) => b.shown), [true, false]);
    await assertAccessible(page, 'claims tried in place');
    await shot(page, 'sites-claims');

    // The same answer as a visitor's own token gets from the API.
    const key = (await api('/publishing/auth')).body.privateKey as string;
    const token = async (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime('5m').sign(new TextEncoder().encode(key));
    const variants = async (claims: Record<string, unknown>) => JSON.stringify((await w.world.outsider.api.get(`/v1/orgs/${org}/sites/${siteId}/published?jwt_token=${await token(claims)}`)).body.structure);
    assert.match(await variants({ beta: true }), new RegExp(ids.betaVariant));
    assert.doesNotMatch(await variants({ beta: false }), new RegExp(ids.betaVariant));
  });

  it('adds a footer link group, sees it in the preview, then on the published site', async () => {
    await page.getByRole('navigation', { name: 'Site settings' }).getByRole('link', { name: 'Customization' }).click();
    await page.getByRole('button', { name: 'Add a footer group' }).click();
    await page.locator('input[name=footer-group-0]').fill('Community');
    await page.getByLabel('Link text').fill('Forum');
    await page.getByLabel('Link address').fill('https://forum.example.com/');
    const frame = page.frameLocator('.preview-frame');
    await frame.locator('.footer-group-title', { hasText: 'Community' }).waitFor();
    await frame.getByRole('link', { name: 'Forum' }).waitFor();
    const published = (await w.world.admin.api.get(`/v1/orgs/${org}/sites/${siteId}`)).body.urls.published as string;
    assert.doesNotMatch(await (await fetch(published)).text(), /forum\.example\.com/, 'not published before it is saved');
    await page.getByRole('button', { name: 'Save customization' }).click();
    await page.getByRole('status').filter({ hasText: /^Saved: / }).waitFor();
    assert.deepEqual((await api('/customization')).body.footer.groups, [{ title: 'Community', links: [{ title: 'Forum', to: { kind: 'url', url: 'https://forum.example.com/' } }] }]);
    const html = await (await fetch(published)).text();
    assert.match(html, /<p class="footer-group-title">Community<\/p><ul><li><a href="https:\/\/forum\.example\.com\/">Forum<\/a>/);
  });

  it('gives one site space its own title, colour and theme, and sets it back to the site\'s', async () => {
    await page.locator('.override-form').getByLabel('Space').selectOption({ label: 'Partners' });
    const override = page.getByRole('form', { name: 'Override for this space' });
    await override.getByLabel('Title').fill('Partner portal');
    await override.locator('input[name=override-primary-light]').fill('#008800');
    await override.getByLabel('Default theme').selectOption('dark');
    await assertAccessible(page, 'per-space customization');
    await override.getByRole('button', { name: 'Save override' }).click();
    await override.getByRole('status').filter({ hasText: /^Override saved/ }).waitFor();
    const partners = (await api('/site-spaces')).body.items.find((s: { title: string }) => s.title === 'Partners');
    const own = (await api(`/site-spaces/${partners.id}/customization`)).body;
    assert.equal(own.title, 'Partner portal');
    assert.equal(own.styling.primaryColor.light, '#008800');
    assert.equal(own.themes.default, 'dark');
    const site = (await api('/customization')).body;
    assert.notEqual(site.title, 'Partner portal', 'the site keeps its own');
    assert.equal(site.themes.default, 'light');
    assert.match(await (await fetch(partners.urls.published)).text(), /--q-brand-light:#008800/);
    await shot(page, 'sites-customize');

    await override.getByRole('button', { name: 'Use the site\'s settings' }).click();
    await until('override removed', async () => (await api(`/site-spaces/${partners.id}/customization`)).body.title === site.title);
    assert.doesNotMatch(await (await fetch(partners.urls.published)).text(), /#008800/);
  });

  it('lists, adds, edits and removes the site\'s external MCP servers', async () => {
    await page.getByRole('navigation', { name: 'Site settings' }).getByRole('link', { name: 'MCP servers' }).click();
    await page.getByText('No external MCP server yet.').waitFor();
    assert.match(await page.getByLabel(/^Address to paste into an assistant/).inputValue(), /\/~gitbook\/mcp$/);
    const form = page.getByRole('form', { name: 'New MCP server' });
    await form.getByLabel('Name', { exact: true }).fill('Tickets');
    await form.getByLabel('Server address').fill('https://mcp.example.com/sse');
    await form.getByLabel(/^Headers/).fill('Authorization: Bearer walrus');
    await form.getByRole('button', { name: 'Add MCP server' }).click();
    await page.locator('.mcp-row', { hasText: 'Tickets' }).waitFor();
    const servers = async () => (await api('/mcp-servers')).body.items.map((s: { name: string; url: string; headers: object }) => [s.name, s.url, s.headers]);
    assert.deepEqual(await servers(), [['Tickets', 'https://mcp.example.com/sse', { Authorization: 'Bearer walrus' }]]);
    await assertAccessible(page, 'MCP servers');
    await assertKeyboardReachable(page, 'MCP servers');
    await shot(page, 'sites-mcp');

    await page.getByRole('button', { name: 'Edit Tickets' }).click();
    const edit = page.getByRole('form', { name: 'Edit Tickets' });
    await edit.getByLabel('Name', { exact: true }).fill('Support tickets');
    await edit.getByRole('button', { name: 'Save server' }).click();
    await equal(servers, [['Support tickets', 'https://mcp.example.com/sse', { Authorization: 'Bearer walrus' }]], 'renamed');
    // A header without a value is refused in place, and nothing is sent.
    await form.getByLabel('Name', { exact: true }).fill('Broken');
    await form.getByLabel('Server address').fill('https://broken.example.com/');
    await form.getByLabel(/^Headers/).fill('Authorization:');
    await form.getByRole('button', { name: 'Add MCP server' }).click();
    await form.getByRole('alert').filter({ hasText: 'has no value' }).waitFor();
    await page.getByRole('button', { name: 'Remove Support tickets' }).click();
    await equal(servers, [], 'removed');
  });

  it('shows the MCP servers to administrators only, and a reader\'s refused change in place', async () => {
    // The create role manages sites but not their MCP servers (headers often hold credentials).
    const creator = await w.signedIn(w.world.members.create, { allow: /^403 \/v1\/orgs\/[^/]+\/sites\/[^/]+\/mcp-servers$/ });
    await creator.page.goto(`${w.base}/o/${org}/sites/${siteId}/mcp`);
    await creator.page.getByText('Only administrators of the organization can do this to a site.').waitFor();
    assert.equal(await creator.page.getByRole('button', { name: 'Add MCP server' }).count(), 0);
    await assertAccessible(creator.page, 'MCP servers refused');
    await creator.context.close();

    // A reader sees the structure; a change is refused by the API and the reason shown, nothing stored.
    const reader = await w.signedIn(w.world.members.read, { allow: /^403 \/v1\/orgs\/[^/]+\/sites\/[^/]+\/(section-groups|adaptive-schema\/template-conditions)$/ });
    await reader.page.goto(`${w.base}/o/${org}/sites/${siteId}`);
    const newGroup = reader.page.getByRole('form', { name: 'New section group' });
    await newGroup.getByLabel('Group title').fill('Readers corner');
    await newGroup.getByRole('button', { name: 'Create group' }).click();
    await reader.page.getByRole('alert').filter({ hasText: 'create role' }).waitFor();
    assert.deepEqual(await groups(), ['Product docs: Guides, Partners, API']);
    await reader.context.close();
  });

  it('keeps every screen free of errors and refusals', () => {
    assert.deepEqual(w.problems, []);
  });
});
