import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createWorld, type World } from '../helpers/factories.ts';
import { startMailbox, type Mailbox } from '../helpers/mailbox.ts';
import { LogCapture, launchChromium, startQuire, type ListeningQuire } from './support.ts';
import { createTestApp, dialects } from '../helpers/app.ts';
import { needs } from '../helpers/system.ts';

/**
 * Magic links in Chromium, the mail caught by a local SMTP server: asked for on /sign-in/email (with the
 * keyboard only), used once in the browser that asked. A reused link, a link opened in another browser and
 * a form posted from elsewhere are refused; the token is never logged.
 */
const axeSource = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

for (const dialect of dialects) describe(`magic links in a browser [${dialect}]`, { skip: needs('chromium') }, () => {
  let q: ListeningQuire;
  let world: World;
  let browser: Browser;
  let mailbox: Mailbox;

  before(async () => {
    mailbox = await startMailbox();
    q = await startQuire({ QUIRE_SMTP_URL: mailbox.url, QUIRE_MAIL_FROM: 'Acme Docs <docs@acme.test>' }, dialect);
    world = await createWorld(q.t.ctx, q.t.app, q.t.clock);
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await q?.t.close();
    await mailbox?.close();
  });

  async function nextMail(count: number): Promise<string> {
    for (let i = 0; i < 200 && mailbox.mails.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 25));
    assert.equal(mailbox.mails.length, count, 'a mail arrived');
    return mailbox.mails[count - 1];
  }

  function linkIn(mail: string): string {
    const match = /(http:\/\/127\.0\.0\.1:\d+\/sign-in\/email\/verify\?token=[A-Za-z0-9_-]+)/.exec(mail);
    assert.ok(match, mail);
    return match[1];
  }

  /** Asks for a link on /sign-in/email with the keyboard alone; answers the page's text. */
  async function askForLink(page: Page, email: string): Promise<string> {
    const response = await page.goto(`${q.base}/sign-in/email?returnTo=${encodeURIComponent('/o/after')}`);
    const csp = String(response?.headers()['content-security-policy']);
    assert.match(csp, /default-src 'none'/);
    assert.ok(!/unsafe-inline/.test(csp));
    const html = await response!.text();
    assert.ok(!/<script|style=/.test(html), 'no script and no inline style');
    // Autofocus may land after the load event on a busy machine: type once the field has it.
    await page.waitForFunction(() => document.activeElement instanceof HTMLInputElement);
    await page.keyboard.type(email);
    await Promise.all([page.waitForURL(`${q.base}/sign-in/email`), page.keyboard.press('Enter')]);
    return page.locator('body').innerText();
  }

  async function openLink(page: Page, link: string): Promise<string> {
    await page.goto(link);
    await Promise.all([page.waitForURL((url) => url.search === '' || url.pathname !== '/sign-in/email/verify'), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
    return page.locator('body').innerText();
  }

  let context: BrowserContext;
  let page: Page;
  let firstLink: string;

  it('mails a link that signs in once, in the browser that asked for it', async () => {
    context = await browser.newContext();
    page = await context.newPage();
    const text = await askForLink(page, world.members.edit.email);
    assert.match(text, /a sign-in link is on its way/);
    const mail = await nextMail(1);
    assert.match(mail, /^From: Acme Docs <docs@acme\.test>/m);
    assert.match(mail, new RegExp(`^To: ${world.members.edit.email.replace('.', '\\.')}`, 'm'));
    firstLink = linkIn(mail);
    const row = await q.t.ctx.db.selectFrom('magic_links').selectAll().executeTakeFirstOrThrow();
    assert.ok(!firstLink.includes(row.token_hash), 'only the hash is stored');
    await openLink(page, firstLink);
    assert.equal(new URL(page.url()).pathname, '/o/after');
    const session = await page.request.get(`${q.base}/auth/session`);
    assert.equal(session.status(), 200);
    assert.equal((await session.json()).user.email, world.members.edit.email);
  });

  it('refuses the same link a second time', async () => {
    const text = await openLink(page, firstLink);
    assert.equal(new URL(page.url()).pathname, '/sign-in/email/verify');
    assert.match(text, /already been used or has expired/);
  });

  it('refuses a link opened in another browser, which stays usable in the one that asked', async () => {
    await askForLink(page, world.members.edit.email);
    const link = linkIn(await nextMail(2));
    const other = await (await browser.newContext()).newPage();
    const text = await openLink(other, link);
    assert.match(text, /browser where you asked for it/);
    assert.equal((await other.request.get(`${q.base}/auth/session`)).status(), 401, 'no session in the other browser');
    await other.context().close();
    await openLink(page, link);
    assert.equal(new URL(page.url()).pathname, '/o/after');
  });

  it('answers the same for an unknown address, and sends nothing', async () => {
    const text = await askForLink(page, 'nobody@nowhere.test');
    assert.match(text, /If an account uses this address/);
    // The page answers once the mail (if any) has been handed to the SMTP server, so none can still come.
    assert.equal(mailbox.mails.length, 2);
  });

  it('refuses a form not served to this browser (posted from another site)', async () => {
    const reply = await q.t.app.inject({ method: 'POST', url: '/sign-in/email', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `email=${encodeURIComponent(world.members.edit.email)}` });
    assert.equal(reply.statusCode, 400);
    assert.match(reply.body, /not sent from this site/);
  });

  it('shows the pages in light and dark, with no serious accessibility violation and no policy error', async () => {
    const backgrounds: string[] = [];
    for (const colorScheme of ['light', 'dark'] as const) {
      // A context of its own, policy enforced: the pages must need nothing the CSP forbids.
      const strict = await browser.newContext({ colorScheme });
      const problems: string[] = [];
      const tab = await strict.newPage();
      tab.on('console', (message) => {
        if (message.type() === 'error') problems.push(message.text());
      });
      for (const path of ['/sign-in/sso', '/sign-in/email', '/sign-in/email/verify?token=short']) await tab.goto(`${q.base}${path}`);
      backgrounds.push(await tab.evaluate(() => getComputedStyle(document.body).backgroundColor));
      assert.deepEqual(problems.filter((text) => /Content Security Policy|Refused/.test(text)), [], `policy errors in ${colorScheme}`);
      await strict.close();
      // axe is injected as a script: this context alone bypasses the page's policy to let it run.
      const loose = await browser.newContext({ colorScheme, bypassCSP: true });
      const page = await loose.newPage();
      for (const path of ['/sign-in/sso', '/sign-in/email', '/sign-in/email/verify?token=short']) {
        await page.goto(`${q.base}${path}`);
        await page.evaluate(axeSource);
        const violations = await page.evaluate(async () => {
          const axe = (window as unknown as { axe: { run: (context: Document, options: object) => Promise<{ violations: Array<{ id: string; impact: string; nodes: Array<{ target: string[] }> }> }> } }).axe;
          const result = await axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } });
          return result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).slice(0, 3).join(', ')}`);
        });
        assert.deepEqual(violations, [], `axe on ${path} in ${colorScheme}`);
      }
      await loose.close();
    }
    assert.notEqual(backgrounds[0], backgrounds[1], 'light and dark differ');
  });

  it('logs, audits and answers no token and no link (trace level included)', async () => {
    await context.close();
    const rows = await q.t.ctx.db.selectFrom('audit_log').selectAll().execute();
    assert.ok(rows.some((row) => row.operation === 'signIn' && JSON.parse(row.object_ids).signInMethod === 'magic-link'), 'the sign-ins are audited with their method');
    const audit = JSON.stringify(rows);
    for (const mail of mailbox.mails) assert.ok(!audit.includes(linkIn(mail).split('token=')[1]));
    const text = q.log.text;
    for (const mail of mailbox.mails) assert.ok(!text.includes(linkIn(mail).split('token=')[1]), 'a magic-link token was logged');
    assert.match(text, /\/sign-in\/email\/verify\?token=\[redacted\]/);
  });

  it('without SMTP, offers no magic links and says so when it starts', async () => {
    const log = new LogCapture();
    const t = await createTestApp(dialect, { QUIRE_LOG_LEVEL: 'info' }, { logStream: log });
    try {
      assert.match(log.text, /Mail is off \(QUIRE_SMTP_URL is not set\)/);
      const reply = await t.app.inject({ method: 'GET', url: '/sign-in/email' });
      assert.equal(reply.statusCode, 200);
      assert.match(reply.body, /not available on this server/);
      assert.ok(!/<form/.test(reply.body));
    } finally {
      await t.close();
    }
  });
});
