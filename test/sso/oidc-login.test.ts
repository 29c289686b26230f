import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import { after, before, describe, it } from 'node:test';
import Provider from 'oidc-provider';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { nowIso } from '../../src/context.ts';
import { createTestApp, dialects } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { freePort, launchChromium, startQuire, type ListeningQuire } from './support.ts';
import { needs } from '../helpers/system.ts';

/**
 * OpenID Connect sign-in in Chromium against a real OpenID provider (oidc-provider, the certified
 * library) started here: discovery, authorization code with PKCE, state and nonce, the ID token checked,
 * the organization's e-mail domains deciding who joins. The tampered cases are refused: a state or a nonce
 * that is not the one this browser's sign-in made, and a person whose domain the organization does not take.
 */
const CLIENT_SECRET = 'oidc-test-client-secret-never-logged';

for (const dialect of dialects) describe(`OpenID Connect sign-in in a browser [${dialect}]`, { skip: needs('chromium') }, () => {
  let q: ListeningQuire;
  let world: World;
  let browser: Browser;
  let issuer: string;
  let server: Server;
  let provider: { id: string; service: { startURL: string; redirectURL: string } };
  let teamId: string;
  /** Every code the provider sent back to Quire, to check that none was logged. */
  const codes: string[] = [];

  before(async () => {
    q = await startQuire({}, dialect);
    world = await createWorld(q.t.ctx, q.t.app, q.t.clock);
    assert.equal((await world.admin.api.patch(`/v1/orgs/${world.organizationId}`, { emailDomains: ['acme.test'] })).status, 200);
    teamId = randomUUID();
    await q.t.ctx.db.insertInto('teams').values({ id: teamId, organization_id: world.organizationId, title: 'Readers', created_at: nowIso(q.t.ctx) }).execute();
    const port = await freePort();
    issuer = `http://127.0.0.1:${port}`;
    const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/oidc`, {
      label: 'Acme ID',
      issuer,
      clientId: 'quire',
      clientSecret: CLIENT_SECRET,
      defaultRole: 'comment',
      defaultTeam: teamId,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    provider = created.body;
    const oidc = new Provider(issuer, {
      clients: [{ client_id: 'quire', client_secret: CLIENT_SECRET, redirect_uris: [provider.service.redirectURL], token_endpoint_auth_method: 'client_secret_post' }],
      // The dev login form takes any login: here, the login is the person's e-mail address.
      findAccount: async (_ctx, id) => ({ accountId: id, claims: async () => ({ sub: id, email: id, email_verified: true, name: 'Grace Hopper' }) }),
      claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
      cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    });
    server = oidc.listen(port, '127.0.0.1');
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await q?.t.close();
  });

  async function freshPage(): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.on('request', (request) => {
      const url = new URL(request.url());
      if (url.pathname.endsWith('/callback') && url.searchParams.get('code')) codes.push(url.searchParams.get('code')!);
    });
    return { context, page };
  }

  /** From the start URL through the provider's login and consent pages, back to Quire; answers the text of the page Quire shows. */
  async function signIn(page: Page, login: string): Promise<string> {
    await page.goto(`${provider.service.startURL}?returnTo=${encodeURIComponent('/o/welcome')}`);
    assert.equal(new URL(page.url()).origin, issuer, 'the start URL leads to the provider');
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await Promise.all([page.waitForURL((url) => url.origin === q.base), page.getByRole('button', { name: 'Continue' }).click()]);
    return page.locator('body').innerText();
  }

  it('signs a newcomer of the organization\'s domain in, with the provider\'s default role and team', async () => {
    const sso = await world.members.read.api.get(`/v1/orgs/${world.organizationId}/sso`);
    assert.deepEqual(sso.body.items, [{ id: provider.id, label: 'Acme ID', startURL: provider.service.startURL }]);
    const { context, page } = await freshPage();
    await signIn(page, 'grace@acme.test');
    const landed = new URL(page.url());
    assert.equal(landed.origin, q.base);
    assert.equal(landed.pathname, '/o/welcome');
    const session = await page.request.get(`${q.base}/auth/session`);
    assert.equal(session.status(), 200);
    assert.equal((await session.json()).user.email, 'grace@acme.test');
    const user = await q.t.ctx.db.selectFrom('users').selectAll().where('email', '=', 'grace@acme.test').executeTakeFirstOrThrow();
    assert.equal(user.display_name, 'Grace Hopper');
    const member = await q.t.ctx.db.selectFrom('members').selectAll().where('organization_id', '=', world.organizationId).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    assert.equal(member.role, 'comment');
    assert.ok(await q.t.ctx.db.selectFrom('team_members').select('user_id').where('team_id', '=', teamId).where('user_id', '=', user.id).executeTakeFirst());
    await context.close();
  });

  it('refuses someone whose domain the organization does not take', async () => {
    const { context, page } = await freshPage();
    const text = await signIn(page, 'eve@elsewhere.test');
    assert.equal(new URL(page.url()).pathname, `/sso/oidc/${provider.id}/callback`);
    assert.match(text, /does not let people of elsewhere\.test join/);
    assert.equal(await q.t.ctx.db.selectFrom('users').select('id').where('email', '=', 'eve@elsewhere.test').executeTakeFirst(), undefined);
    await context.close();
  });

  /** Starts a sign-in in Quire and answers the authorization request it sent the browser to (as the provider received it). */
  async function startAndCapture(page: Page): Promise<URL> {
    const seen: URL[] = [];
    const listen = (request: { url(): string }) => {
      const url = new URL(request.url());
      if (url.origin === issuer && url.pathname === '/auth' && url.searchParams.has('state')) seen.push(url);
    };
    page.on('request', listen);
    await page.goto(provider.service.startURL);
    page.off('request', listen);
    assert.equal(seen.length, 1);
    return seen[0];
  }

  /** Goes to the provider with an authorization request, signs in there, and answers the text of the page Quire shows. */
  async function answerAt(page: Page, authorization: URL, login: string): Promise<string> {
    await page.goto(authorization.href);
    await page.locator('input[name=login]').fill(login);
    await page.locator('input[name=password]').fill('any password');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await Promise.all([page.waitForURL((url) => url.origin === q.base), page.getByRole('button', { name: 'Continue' }).click()]);
    return page.locator('body').innerText();
  }

  it('refuses an answer whose state is not the one this browser\'s sign-in made', async () => {
    const { context, page } = await freshPage();
    const authorization = await startAndCapture(page);
    authorization.searchParams.set('state', 'a-state-from-another-sign-in');
    const text = await answerAt(page, authorization, 'state@acme.test');
    assert.equal(new URL(page.url()).pathname, `/sso/oidc/${provider.id}/callback`);
    assert.match(text, /state does not match/);
    assert.equal((await page.request.get(`${q.base}/auth/session`)).status(), 401, 'no session');
    assert.equal(await q.t.ctx.db.selectFrom('users').select('id').where('email', '=', 'state@acme.test').executeTakeFirst(), undefined);
    await context.close();
  });

  it('refuses an ID token whose nonce is not the one this browser\'s sign-in made (an answer to an earlier sign-in)', async () => {
    const { context, page } = await freshPage();
    const earlier = await startAndCapture(page);
    const current = await startAndCapture(page);
    // The provider is asked with the current sign-in's state but the earlier one's nonce.
    current.searchParams.set('nonce', earlier.searchParams.get('nonce')!);
    const text = await answerAt(page, current, 'nonce@acme.test');
    assert.match(text, /nonce does not match/);
    assert.equal((await page.request.get(`${q.base}/auth/session`)).status(), 401, 'no session');
    assert.equal(await q.t.ctx.db.selectFrom('users').select('id').where('email', '=', 'nonce@acme.test').executeTakeFirst(), undefined);
    await context.close();
  });

  it('logs, audits and answers no code and no client secret (trace level included)', async () => {
    assert.ok(codes.length >= 3, `codes seen: ${codes.length}`);
    const rows = await q.t.ctx.db.selectFrom('audit_log').selectAll().execute();
    assert.ok(rows.some((row) => row.operation === 'signIn' && JSON.parse(row.object_ids).signInMethod === 'oidc'), 'the sign-in is audited with its method');
    const audit = JSON.stringify(rows);
    for (const code of codes) assert.ok(!audit.includes(code));
    assert.ok(!audit.includes(CLIENT_SECRET));
    const text = q.log.text;
    for (const code of codes) assert.ok(!text.includes(code), 'an authorization code was logged');
    assert.ok(!text.includes(CLIENT_SECRET));
    assert.ok(/callback\?[^"]*code=\[redacted\]/.test(text), 'the callback is logged with its code redacted');
  });

  it('refuses an issuer on a private address unless the operator allows private networks', async () => {
    const t = await createTestApp(dialect);
    try {
      const w = await createWorld(t.ctx, t.app, t.clock);
      const made = await w.admin.api.post(`/v1/orgs/${w.organizationId}/oidc`, { label: 'Local', issuer, clientId: 'quire' });
      const reply = await t.app.inject({ method: 'GET', url: `/sso/oidc/${made.body.id}/start` });
      assert.equal(reply.statusCode, 400);
      assert.match(reply.body, /QUIRE_IMPORT_ALLOW_PRIVATE/, reply.body);
    } finally {
      await t.close();
    }
  });
});
