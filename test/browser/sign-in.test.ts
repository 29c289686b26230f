import assert from 'node:assert/strict';
import { mkdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { storePassword } from '../../src/sessions/passwords.ts';
import { needs } from '../helpers/system.ts';
import { freePort } from '../helpers/ports.ts';

/**
 * Signing in, in a real browser (Chromium through playwright-core), on SQLite: passwords (keyboard only),
 * the neutral refusal, sign-out, an invite accepted, a passkey registered and used through Chromium's
 * virtual authenticator (as a way in and as a second factor), a cross-site form post that changes nothing,
 * a same-origin write without the CSRF token refused, and axe-core on every page in light and dark.
 */
const artifacts = join(import.meta.dirname, '..', '..', 'test-artifacts');
const require = createRequire(import.meta.url);
const axeSource = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');
const PASSWORD = 'correct horse battery staple';

// Skipped only on a developer machine without Chromium; in CI (CI=true, .ci/run installs it) a missing browser fails.
const skip = needs('chromium');

describe('signing in, in a browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let browser: Browser;
  let base: string;
  let attacker: Server;
  let attackerBase: string;
  const problems: string[] = [];

  before(async () => {
    const port = await freePort();
    // WebAuthn needs a domain (not an IP address) as the relying party: localhost, mapped to 127.0.0.1 below.
    base = `http://localhost:${port}`;
    t = await createTestApp('sqlite', { QUIRE_PUBLIC_URL: base });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    await storePassword(t.ctx, world.members.edit.id, PASSWORD);
    await storePassword(t.ctx, world.members.review.id, PASSWORD);

    // Another site, which tries to make the signed-in browser change the profile and sign out.
    const attackerPort = await freePort();
    attackerBase = `http://127.0.0.1:${attackerPort}`;
    attacker = createHttpServer((_request, response) => {
      response.setHeader('content-type', 'text/html; charset=utf-8');
      response.end(`<!doctype html><title>Win a prize</title>
<form id="f" method="post" action="${base}/account/profile"><input name="displayName" value="Hacked"></form>
<script>document.getElementById('f').submit();</script>`);
    });
    await new Promise<void>((resolve) => attacker.listen(attackerPort, '127.0.0.1', resolve));

    browser = await launchChromium(['--host-resolver-rules=MAP localhost 127.0.0.1']);
  });

  after(async () => {
    await browser?.close();
    await new Promise((resolve) => attacker?.close(resolve));
    await t?.close();
  });

  async function context(colorScheme: 'light' | 'dark' = 'light', bypassCSP = false): Promise<BrowserContext> {
    return browser.newContext({ viewport: { width: 1280, height: 900 }, colorScheme, bypassCSP });
  }

  async function open(browserContext: BrowserContext, path: string): Promise<Page> {
    const page = await browserContext.newPage();
    page.on('console', (message) => {
      if (message.type() === 'error' && !/ (404|401|403|410) /.test(message.text())) problems.push(`${page.url()}: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`${page.url()}: ${error.message}`));
    await page.goto(base + path);
    return page;
  }

  async function shot(page: Page, name: string): Promise<void> {
    mkdirSync(artifacts, { recursive: true });
    await page.screenshot({ path: join(artifacts, `sign-in-${name}.png`), fullPage: true });
  }

  async function signInWithKeyboard(page: Page, email: string, password: string): Promise<void> {
    // The address field has the focus when the page opens (autofocus, which may land after the load event on
    // a busy machine); Tab goes to the password; Enter sends.
    await page.waitForFunction(() => document.activeElement instanceof HTMLInputElement);
    await page.keyboard.type(email);
    await page.keyboard.press('Tab');
    await page.keyboard.type(password);
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.keyboard.press('Enter')]);
  }

  async function sessionCookie(browserContext: BrowserContext): Promise<string | undefined> {
    return (await browserContext.cookies(base)).find((cookie) => cookie.name === 'quire_session')?.value;
  }

  it('signs in with a password using the keyboard alone, and signs out', async () => {
    const browserContext = await context();
    const page = await open(browserContext, '/sign-in?returnTo=%2Faccount');
    await signInWithKeyboard(page, world.members.edit.email, PASSWORD);
    assert.equal(new URL(page.url()).pathname, '/account');
    await page.getByRole('heading', { name: 'Your account' }).waitFor();
    const cookie = (await browserContext.cookies(base)).find((c) => c.name === 'quire_session')!;
    assert.equal(cookie.httpOnly, true);
    assert.equal(cookie.sameSite, 'Lax');
    assert.equal(await page.evaluate(() => document.cookie), '', 'no script can read the session');
    await shot(page, 'account');
    await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await page.waitForURL(/\/sign-in\?signedOut=1/);
    await page.getByText('You have signed out.').waitFor();
    assert.equal(await sessionCookie(browserContext), undefined);
    await browserContext.close();
  });

  it('refuses a wrong password with the neutral message, and keeps the address typed', async () => {
    const browserContext = await context();
    const page = await open(browserContext, '/sign-in');
    await signInWithKeyboard(page, world.members.edit.email, 'not the right password');
    const alert = page.getByRole('alert');
    assert.match(await alert.innerText(), /do not match an account that can sign in with a password/);
    assert.equal(await page.getByLabel('E-mail address').inputValue(), world.members.edit.email);
    assert.equal(await sessionCookie(browserContext), undefined);
    await shot(page, 'wrong-password');
    await browserContext.close();
  });

  it('accepts an invite: the one-time link sets a name and a password and signs in', async () => {
    const invited = await world.admin.api.post(`/v1/orgs/${world.organizationId}/invites`, { emails: ['invitee@acme.test'], role: 'edit' });
    const url = new URL(invited.body.signInLinks[0].url);
    const browserContext = await context('dark');
    const page = await open(browserContext, url.pathname);
    await page.getByRole('heading', { name: 'Welcome to Quire' }).waitFor();
    await shot(page, 'invite-dark');
    await page.getByLabel('Your name').fill('Ivy Invitee');
    await page.getByLabel('New password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('New password again').fill(PASSWORD);
    await page.getByRole('button', { name: 'Set password and sign in' }).click();
    await page.waitForURL(`${base}/`);
    const me = await page.request.get(`${base}/auth/session`);
    assert.equal((await me.json()).user.displayName, 'Ivy Invitee');
    await page.goto(base + url.pathname);
    await page.getByRole('heading', { name: 'This link no longer works' }).waitFor();
    await browserContext.close();
  });

  it('registers a passkey with the virtual authenticator, then signs in with it, and asks for it after a password', async () => {
    const browserContext = await context();
    const page = await open(browserContext, '/sign-in?returnTo=%2Faccount');
    const cdp = await browserContext.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: { protocol: 'ctap2', transport: 'internal', hasResidentKey: true, hasUserVerification: true, isUserVerified: true, automaticPresenceSimulation: true },
    });
    await signInWithKeyboard(page, world.members.review.email, PASSWORD);
    await page.getByLabel('Name of the new passkey').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await page.waitForURL(/done=passkey-added/);
    await page.getByRole('cell', { name: 'Test laptop', exact: true }).waitFor();
    await page.getByRole('button', { name: 'Create recovery codes' }).click();
    await page.waitForLoadState('load');
    const codes = await page.locator('ul.codes li').allInnerTexts();
    assert.equal(codes.length, 10);
    const stored = await t.ctx.db.selectFrom('recovery_codes').select('code_hash').execute();
    assert.ok(stored.every((row) => !codes.some((code) => row.code_hash.includes(code))), 'only hashes are kept');

    await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await page.getByText('You have signed out.').waitFor();
    await page.goto(`${base}/sign-in?returnTo=%2Faccount`);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.waitForURL(`${base}/account`);
    const me = await (await page.request.get(`${base}/auth/session`)).json();
    assert.equal(me.user.id, world.members.review.id);
    const sessions = await t.ctx.db.selectFrom('sessions').select('method').where('user_id', '=', world.members.review.id).execute();
    assert.deepEqual(sessions.map((row) => row.method), ['passkey']);

    // A password alone no longer signs this person in: the passkey is asked for as a second factor.
    await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await page.getByText('You have signed out.').waitFor();
    await page.goto(`${base}/sign-in`);
    await signInWithKeyboard(page, world.members.review.email, PASSWORD);
    assert.equal(page.url(), `${base}/sign-in/second-factor`, await page.locator('main').innerText());
    assert.equal(await sessionCookie(browserContext), undefined, 'no session before the second factor');
    await shot(page, 'second-factor');
    await page.getByRole('button', { name: 'Use my passkey' }).click();
    await page.waitForURL(`${base}/`);
    assert.equal((await page.request.get(`${base}/auth/session`)).status(), 200);
    await browserContext.close();
  });

  it('a cross-site form post changes nothing; a same-origin write without the CSRF token is refused', async () => {
    const browserContext = await context();
    const page = await open(browserContext, '/sign-in');
    await signInWithKeyboard(page, world.members.edit.email, PASSWORD);
    const before = await (await page.request.get(`${base}/auth/session`)).json();
    const evil = await browserContext.newPage();
    await evil.goto(attackerBase);
    await evil.waitForLoadState('load');
    await evil.waitForURL((url) => url.origin === base);
    const afterwards = await (await page.request.get(`${base}/auth/session`)).json();
    assert.equal(afterwards.user.displayName, before.user.displayName, 'the profile did not change');
    assert.equal(afterwards.csrfToken, before.csrfToken, 'still signed in, same session');

    const refused = await page.evaluate(async (userId) => {
      const response = await fetch(`/v1/users/${userId}`, { method: 'PATCH', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ displayName: 'No token' }) });
      return { status: response.status, body: await response.json() };
    }, world.members.edit.id);
    assert.equal(refused.status, 403);
    assert.match(refused.body.error.message, /CSRF/);
    const allowed = await page.evaluate(async ({ userId, csrf }) => {
      const response = await fetch(`/v1/users/${userId}`, { method: 'PATCH', headers: { 'content-type': 'application/json', 'x-csrf-token': csrf }, body: JSON.stringify({ displayName: 'Eddie' }) });
      return response.status;
    }, { userId: world.members.edit.id, csrf: before.csrfToken as string });
    assert.equal(allowed, 200);
    await browserContext.close();
  });

  it('every page passes axe-core (no serious or critical violation) in light and dark, with no CSP error', async () => {
    for (const colorScheme of ['light', 'dark'] as const) {
      const invited = await world.admin.api.post(`/v1/orgs/${world.organizationId}/invites`, { emails: [`axe-${colorScheme}@acme.test`] });
      const invitePath = new URL(invited.body.signInLinks[0].url).pathname;
      // axe is injected as a script: this context alone bypasses the page's policy to let it run.
      const browserContext = await context(colorScheme, true);
      const page = await open(browserContext, '/sign-in');
      const pages: Array<[string, () => Promise<void>]> = [
        ['sign-in', async () => {}],
        ['invite', async () => void (await page.goto(base + invitePath))],
        ['account', async () => {
          await page.goto(`${base}/sign-in?returnTo=%2Faccount`);
          await signInWithKeyboard(page, world.members.edit.email, PASSWORD);
        }],
      ];
      for (const [name, go] of pages) {
        await go();
        await page.waitForLoadState('load');
        await page.evaluate(axeSource);
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
          const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
          return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
        });
        assert.deepEqual(violations, [], `axe on ${name} in ${colorScheme}`);
        await shot(page, `${name}-${colorScheme}`);
      }
      await browserContext.close();
    }
    assert.deepEqual(problems, [], 'no script or Content-Security-Policy errors');
  });
});
