import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { runDueJobs } from '../../src/jobs/index.ts';
import { verifySignature } from '../../src/modules/webhooks/signature.ts';
import { createSession } from '../../src/sessions/store.ts';
import { client, createTestApp, type TestApp, dialects } from '../helpers/app.ts';
import { createWorld, postCollection, postSpace, type TestUser, type World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { Receiver } from '../webhooks/receiver.ts';
import { assertAccessible, assertKeyboardReachable, freePort, shot } from './support.ts';

/**
 * The people and permissions settings in Chromium, each screen's main action checked through the API: a role
 * changed and a member removed, a team made and filled, invites by e-mail and by link (someone joins through
 * the link), a space shared with a guest who then signs in and reads it, access inherited from a collection
 * shown with the collection's name, merge rules, an API token made (used, then revoked), a webhook made whose
 * delivery shows in its log signed with the secret shown once (and is redelivered), the audit log filtered and exported, and a SAML
 * provider with the values to give the identity provider, whose "Test sign-in" starts a SAML sign-in. axe runs on each screen in light and dark.
 */
const skip = needs('chromium');
const CERTIFICATE = readFileSync(new URL('../fixtures/saml-idp-cert.pem', import.meta.url), 'utf8');

// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (test/helpers/app.ts).
for (const dialect of dialects) describe(`people and permissions in the workspace [${dialect}]`, { skip }, () => {
  let t: TestApp;
  let world: World;
  let base: string;
  let browser: Browser;
  let receiver: Receiver;
  const problems: string[] = [];

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp(dialect, { QUIRE_PUBLIC_URL: base, QUIRE_WEBHOOK_ALLOW_PRIVATE: '1' });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    receiver = await Receiver.start();
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
  });

  /** A browser of its own for a person, with a session made as every way in ends (its cookie set as sign-in sets it). */
  async function signedIn(user: { id: string }): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme: 'light' });
    const { secret } = await createSession(t.ctx, { userId: user.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
    await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
    const page = await context.newPage();
    page.on('console', (message) => {
      if ((message.type() === 'error' && !message.text().startsWith('Failed to load resource')) || /Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('dialog', (dialog) => void dialog.accept());
    return page;
  }

  const settings = (section: string) => `${base}/o/${world.organizationId}/settings/${section}`;
  const member = async (user: TestUser) => world.admin.api.get(`/v1/orgs/${world.organizationId}/members/${user.id}`);

  let admin: Page;

  it('changes a member’s role and removes a member', async () => {
    admin = await signedIn(world.admin);
    await admin.goto(`${base}/o/${world.organizationId}`);
    // The header's Settings link leads to the members.
    await admin.getByRole('link', { name: 'Settings' }).click();
    await admin.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    await admin.getByRole('cell', { name: /^read/ }).first().waitFor();
    await assertAccessible(admin, 'members');
    await assertKeyboardReachable(admin, 'members');
    await shot(admin, 'settings-members');

    await admin.getByLabel('Role of read', { exact: true }).selectOption('review');
    // Saved when the API says so: the select is disabled while it saves, but may not be yet when first looked at.
    await until('the new role is saved', async () => (await member(world.members.read)).body.role === 'review');
    await admin.waitForFunction(() => !document.querySelector('select[disabled]'));

    await admin.getByRole('button', { name: 'Remove comment', exact: true }).click();
    await admin.getByLabel('Role of comment', { exact: true }).waitFor({ state: 'detached' });
    assert.equal((await member(world.members.comment)).status, 404);
  });

  let teamId = '';
  it('creates a team and adds a member to it', async () => {
    await admin.getByRole('link', { name: 'Teams' }).click();
    await admin.getByLabel('New team\'s name').fill('Writers');
    await admin.getByRole('button', { name: 'Create team' }).click();
    await admin.getByRole('heading', { name: 'Members of Writers' }).waitFor();
    await admin.getByLabel('Add a member').selectOption({ label: `edit (${world.members.edit.email})` });
    await admin.getByRole('button', { name: 'Add', exact: true }).click();
    await admin.getByRole('button', { name: 'Remove edit from Writers' }).waitFor();
    await assertAccessible(admin, 'teams');
    await assertKeyboardReachable(admin, 'teams');
    await shot(admin, 'settings-teams');
    const teams = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/teams`)).body.items as Array<{ id: string; title: string; members: number }>;
    const writers = teams.find((team) => team.title === 'Writers')!;
    teamId = writers.id;
    assert.equal(writers.members, 1);
    const members = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/teams/${teamId}/members`)).body.items as Array<{ organization: { user: { id: string } } }>;
    assert.deepEqual(members.map((entry) => entry.organization.user.id), [world.members.edit.id]);
  });

  it('invites by e-mail and by link, and someone joins through the link', async () => {
    await admin.getByRole('link', { name: 'Invites' }).click();
    await admin.getByLabel('E-mail addresses (one a line)').fill('new.writer@acme.test');
    await admin.getByLabel('Role', { exact: true }).selectOption('edit');
    await admin.getByRole('button', { name: 'Invite', exact: true }).click();
    await admin.getByText('1 person(s) added').waitFor();
    const found = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/members?search=new.writer`)).body.items as Array<{ role: string; user: { email: string } }>;
    assert.deepEqual(found.map((entry) => [entry.user.email, entry.role]), [['new.writer@acme.test', 'edit']]);

    await admin.getByLabel('Role the link gives').selectOption('comment');
    await admin.getByRole('button', { name: 'Create a link' }).click();
    const field = admin.getByLabel('Link giving the role Comment', { exact: true });
    await field.waitFor();
    await assertAccessible(admin, 'invites');
    await assertKeyboardReachable(admin, 'invites');
    await shot(admin, 'settings-invites');
    const link = await field.inputValue();
    assert.match(link, new RegExp(`^${base}/o/${world.organizationId}/settings/join\\?invite=`));

    const outsider = await signedIn(world.outsider);
    await outsider.goto(link);
    await outsider.getByRole('button', { name: 'Join' }).click();
    await outsider.waitForURL(`${base}/o/${world.organizationId}`);
    assert.equal((await member(world.outsider)).body.role, 'comment');
    await outsider.context().close();
  });

  let spaceId = '';
  let collectionId = '';
  it('shares a space with a guest, who signs in and reads it, and shows access inherited from its collection', async () => {
    const collection = await postCollection(t.clock, world.admin, world.organizationId, { title: 'Guides' });
    collectionId = collection.id;
    const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Partner handbook', parent: collectionId });
    spaceId = space.id;
    // The team is given the collection in its sharing dialog (the organization's Collections section).
    await admin.getByRole('link', { name: 'Collections' }).click();
    await admin.getByRole('button', { name: 'Share' }).click();
    await admin.getByLabel('Person or team').selectOption({ label: 'Writers' });
    await admin.getByLabel('Role', { exact: true }).selectOption('edit');
    await admin.getByRole('button', { name: 'Share', exact: true }).click();
    await admin.getByLabel('Role of team Writers').waitFor();
    const onCollection = (await world.admin.api.get(`/v1/collections/${collectionId}/permissions/teams`)).body.items as Array<{ permission: string; team: { id: string } }>;
    assert.deepEqual(onCollection.map((grant) => [grant.team.id, grant.permission]), [[teamId, 'edit']]);

    // The guest sees nothing of the space before it is shared.
    assert.notEqual((await world.guest.api.get(`/v1/spaces/${spaceId}`)).status, 200);
    await admin.goto(`${base}/o/${world.organizationId}/s/${spaceId}`);
    await admin.getByRole('link', { name: 'Share and settings' }).click();
    await admin.getByRole('heading', { name: 'Share: Partner handbook' }).waitFor();
    await admin.getByText('from the collection Guides').waitFor();
    await assertAccessible(admin, 'sharing');
    await assertKeyboardReachable(admin, 'sharing');
    await shot(admin, 'settings-sharing');
    await admin.getByLabel('Person or team').selectOption({ label: `guest (guest) · ${world.guest.email}` });
    await admin.getByLabel('Role', { exact: true }).selectOption('read');
    await admin.getByRole('button', { name: 'Share', exact: true }).click();
    await admin.getByLabel('Role of guest').waitFor();
    const onSpace = (await world.admin.api.get(`/v1/spaces/${spaceId}/permissions/users`)).body.items as Array<{ permission: string; user: { id: string } }>;
    assert.deepEqual(onSpace.map((grant) => [grant.user.id, grant.permission]), [[world.guest.id, 'read']]);

    const guest = await signedIn(world.guest);
    await guest.goto(`${base}/o/${world.organizationId}`);
    await guest.getByRole('link', { name: /Partner handbook/ }).click();
    await guest.getByRole('heading', { name: /Partner handbook/ }).waitFor();
    await guest.context().close();
  });

  it('sets the space’s merge rules', async () => {
    await admin.getByRole('link', { name: 'Merge rules' }).click();
    await admin.getByLabel('Approvals needed').fill('2');
    await admin.getByRole('checkbox', { name: 'review', exact: true }).check();
    await assertAccessible(admin, 'merge rules');
    await assertKeyboardReachable(admin, 'merge rules');
    await admin.getByRole('button', { name: 'Save merge rules' }).click();
    await admin.getByText('Merge rules saved.').waitFor();
    const rules = (await world.admin.api.get(`/v1/spaces/${spaceId}/merge-rules`)).body;
    assert.equal(rules.minApprovals, 2);
    assert.deepEqual(rules.requiredReviewers, [world.members.review.id]);
  });

  it('creates an API token shown once, which works until it is revoked', async () => {
    await admin.goto(settings('tokens'));
    await admin.getByLabel('Name').fill('CI publisher');
    await admin.getByRole('button', { name: 'Create token' }).click();
    const secret = await admin.getByLabel('The new token', { exact: true }).inputValue();
    await assertAccessible(admin, 'tokens');
    await assertKeyboardReachable(admin, 'tokens');
    await shot(admin, 'settings-tokens');
    const script = client(t.app, secret);
    assert.equal((await script.get('/v1/user')).body.id, world.admin.id);
    await admin.getByRole('button', { name: 'I have copied it' }).click();
    await admin.getByRole('button', { name: 'Revoke CI publisher' }).click();
    await admin.getByRole('cell', { name: 'revoked' }).waitFor();
    assert.equal((await script.get('/v1/user')).status, 401);
  });

  it('creates a webhook, and its delivery shows in the log, signed with the secret shown once', async () => {
    await admin.goto(settings('webhooks'));
    await admin.getByLabel('Address to call').fill(receiver.url);
    await admin.getByRole('checkbox', { name: 'change_request.merged' }).uncheck();
    await admin.getByRole('checkbox', { name: 'space.created' }).check();
    await admin.getByRole('button', { name: 'Create webhook' }).click();
    const secret = await admin.getByLabel('The webhook\'s signing secret', { exact: true }).inputValue();
    await admin.getByText('Nothing was sent yet').waitFor();
    await assertAccessible(admin, 'webhooks');
    await assertKeyboardReachable(admin, 'webhooks');
    await shot(admin, 'settings-webhooks');

    await postSpace(t.clock, world.admin, world.organizationId, { title: 'Announced' });
    for (let round = 0; round < 10 && receiver.received.length === 0; round++) {
      t.clock.advance(1000);
      await runDueJobs(t.ctx, { workerId: 'people-admin-test' });
    }
    assert.equal(receiver.received.length, 1);
    const got = receiver.received[0];
    assert.ok(verifySignature(secret, got.headers['x-quire-signature'] as string, got.body, Math.floor(t.clock.now().getTime() / 1000)));
    await admin.getByRole('button', { name: 'Refresh' }).click();
    const row = admin.getByRole('row', { name: /space\.created/ });
    await row.waitFor();
    assert.match(await row.innerText(), /succeeded\s+200/);

    // Redeliver: the same message again, as a new delivery in the log.
    await row.getByRole('button', { name: 'Redeliver' }).click();
    await admin.getByRole('row', { name: /space\.created/ }).nth(1).waitFor();
    for (let round = 0; round < 10 && receiver.received.length === 1; round++) {
      t.clock.advance(1000);
      await runDueJobs(t.ctx, { workerId: 'people-admin-test' });
    }
    assert.equal(receiver.received.length, 2);
    assert.equal(receiver.received[1].body, got.body);
    await admin.getByRole('button', { name: 'Refresh' }).click();
    await admin.getByRole('row', { name: /space\.created.*succeeded/ }).nth(1).waitFor();
  });

  it('filters the audit log and exports it', async () => {
    await admin.goto(settings('audit-log'));
    await admin.getByLabel('Operation').fill('updateMemberInOrganizationById');
    await admin.getByRole('button', { name: 'Apply' }).click();
    // The entries' table (the header's shortcuts dialog holds a table too, closed).
    const rows = admin.getByRole('region', { name: 'Audit log entries' }).locator('tbody tr');
    // The unfiltered entries are on screen until the filtered ones arrive: a first row is there before Apply took
    // effect, so wait for the rows of other operations to go.
    await rows.filter({ hasNotText: 'updateMemberInOrganizationById' }).first().waitFor({ state: 'detached' });
    await rows.first().waitFor();
    assert.equal(await rows.count(), 1);
    assert.match(await rows.first().innerText(), /Ada Admin[\s\S]*updateMemberInOrganizationById[\s\S]*succeeded/);
    await assertAccessible(admin, 'audit log');
    await assertKeyboardReachable(admin, 'audit log');
    await shot(admin, 'settings-audit-log');
    const href = await admin.getByRole('link', { name: 'Export (JSON lines)' }).getAttribute('href');
    const exported = await admin.context().request.get(`${base}${href}`);
    assert.equal(exported.status(), 200);
    const lines = (await exported.text()).trim().split('\n').map((line) => JSON.parse(line) as { operation: string });
    assert.deepEqual(lines.map((line) => line.operation), ['updateMemberInOrganizationById']);
  });

  it('adds a SAML provider and shows the values to give the identity provider', async () => {
    await admin.goto(settings('identity'));
    await admin.getByLabel('Name shown on the sign-in page').first().fill('Acme IdP');
    await admin.getByLabel('Default team').first().selectOption({ label: 'Writers' });
    await admin.getByRole('button', { name: 'Add SAML provider' }).click();
    const acs = admin.getByLabel('ACS URL (Assertion Consumer Service)', { exact: true });
    await acs.waitFor();
    await assertAccessible(admin, 'identity');
    await assertKeyboardReachable(admin, 'identity');
    const providers = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/saml`)).body.items as Array<{ label: string; defaultTeam?: { id: string }; service: { acsURL: string } }>;
    assert.equal(providers.length, 1);
    assert.equal(providers[0].defaultTeam?.id, teamId);
    assert.equal(await acs.inputValue(), providers[0].service.acsURL);
    const metadata = await admin.context().request.get((await admin.getByRole('link', { name: 'Download metadata' }).getAttribute('href'))!);
    assert.equal(metadata.status(), 200);
    assert.match(await metadata.text(), /EntityDescriptor/);
  });

  it('edits the SAML provider and an OpenID Connect provider in place', async () => {
    const org = world.organizationId;
    // Label, the identity provider's values, the default role and team, through updateOrganizationSAMLProvider.
    await admin.getByRole('button', { name: 'Edit Acme IdP' }).click();
    const saml = admin.getByRole('form', { name: 'Edit Acme IdP' });
    await saml.getByLabel('Name shown on the sign-in page').fill('Acme SSO');
    await saml.getByLabel("Identity provider's sign-in address (SSO URL)").fill('https://idp.acme.test/sso');
    await saml.getByLabel("Identity provider's entity id").fill('https://idp.acme.test/entity');
    await saml.getByLabel("Identity provider's certificate (PEM)").fill(CERTIFICATE);
    await saml.getByLabel('Role of people who join through it').selectOption('edit');
    await saml.getByLabel('Default team').selectOption('');
    await assertAccessible(admin, 'editing a SAML provider');
    await assertKeyboardReachable(admin, 'editing a SAML provider');
    await saml.getByRole('button', { name: 'Save Acme IdP' }).click();
    await saml.waitFor({ state: 'detached' });
    const samlStored = (await world.admin.api.get(`/v1/orgs/${org}/saml`)).body.items[0];
    assert.equal(samlStored.label, 'Acme SSO');
    assert.equal(samlStored.ssoURL, 'https://idp.acme.test/sso');
    assert.equal(samlStored.certificate.trim(), CERTIFICATE.trim());
    assert.equal(samlStored.status, 'active', 'with all three values the provider is active');
    assert.equal(samlStored.defaultRole, 'edit');
    assert.equal(samlStored.defaultTeam, undefined);
    await admin.getByRole('heading', { name: 'Acme SSO' }).waitFor();

    // "Test sign-in" starts a real sign-in in a new tab: Quire sends the browser to the identity provider's
    // address with a SAML request naming the provider's ACS. What is checked is the tab's request to that address
    // (it follows Quire's redirect), not the page it ends on: the identity provider's host does not exist, and a
    // route does not answer a request the browser is redirected to, so the tab ends on an error page, which the
    // headless shell shows at once where the full browser first showed the address (decision 0144).
    const [idp, sent] = await Promise.all([
      admin.context().waitForEvent('page'),
      admin.context().waitForEvent('request', (request) => /^https:\/\/idp\.acme\.test\/sso\?/.test(request.url())),
      admin.getByRole('link', { name: 'Test sign-in' }).first().click(),
    ]);
    assert.equal(sent.frame().page(), idp, 'the request is the new tab\'s');
    const samlRequest = new URL(sent.url()).searchParams.get('SAMLRequest');
    assert.ok(samlRequest, sent.url());
    const request = inflateRawSync(Buffer.from(samlRequest, 'base64')).toString('utf8');
    assert.match(request, /AuthnRequest/);
    assert.ok(request.includes(samlStored.service.acsURL), request);
    await idp.close();

    // OpenID Connect: a new label and team; the client secret left empty is kept.
    const created = await world.admin.api.post(`/v1/orgs/${org}/oidc`, { label: 'Okta', issuer: 'https://okta.acme.test', clientId: 'quire', clientSecret: 'walrus-secret', defaultRole: 'read' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    await admin.reload();
    await admin.getByRole('button', { name: 'Edit Okta' }).click();
    const oidc = admin.getByRole('form', { name: 'Edit Okta' });
    await oidc.getByLabel('Name shown on the sign-in page').fill('Okta Workforce');
    await oidc.getByLabel('Client id').fill('quire-docs');
    await oidc.getByLabel('Default team').selectOption({ label: 'Writers' });
    await oidc.getByRole('button', { name: 'Save Okta' }).click();
    await oidc.waitFor({ state: 'detached' });
    const oidcStored = (await world.admin.api.get(`/v1/orgs/${org}/oidc/${created.body.id}`)).body;
    assert.equal(oidcStored.label, 'Okta Workforce');
    assert.equal(oidcStored.clientId, 'quire-docs');
    assert.equal(oidcStored.defaultTeam?.id, teamId);
    assert.equal(oidcStored.hasClientSecret, true, 'the secret left empty is kept');
    await shot(admin, 'settings-identity');
  });

  it('reaches every settings section by keyboard, with nothing refused by the Content-Security-Policy', async () => {
    await admin.goto(settings('members'));
    await admin.getByRole('heading', { name: 'Members', level: 1 }).waitFor();
    const reached = new Set<string>();
    for (let press = 0; press < 80; press++) {
      await admin.keyboard.press('Tab');
      const text = await admin.evaluate(() => (document.activeElement?.closest('nav[aria-label="Settings"]') ? document.activeElement.textContent : null));
      if (text) reached.add(text);
    }
    for (const name of ['Members', 'Invites', 'Teams', 'Collections', 'Your API tokens', 'Webhooks', 'Audit log', 'Identity', 'Translations', 'Trash', 'OpenAPI specifications']) assert.ok(reached.has(name), `${name} reached by Tab`);
    assert.deepEqual(problems, []);
  });
});
