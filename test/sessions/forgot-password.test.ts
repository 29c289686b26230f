import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { createTestApp, dialects } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { startMailbox, type Mailbox } from '../helpers/mailbox.ts';
import { needs } from '../helpers/system.ts';
import { storePassword } from '../../src/sessions/passwords.ts';
import { launchChromium, startQuire, type ListeningQuire } from '../sso/support.ts';

/**
 * "Forgot password?" in Chromium, the mail caught by a local SMTP server: asked for from the sign-in page,
 * the link followed, a new password set, the person signed in with it while their other sessions end. A
 * reused link, a link opened in another browser and an unknown address (same answer, no mail) are checked,
 * and so are the limits per address and per client, and that nothing secret is logged or audited.
 */
const OLD_PASSWORD = 'correct horse battery staple';
const NEW_PASSWORD = 'violet lantern orbit 1987';

for (const dialect of dialects) {
  describe(`forgot password, in a browser [${dialect}]`, { skip: needs('chromium') }, () => {
    let q: ListeningQuire;
    let world: World;
    let browser: Browser;
    let mailbox: Mailbox;
    let email: string;

    before(async () => {
      mailbox = await startMailbox();
      q = await startQuire({ QUIRE_SMTP_URL: mailbox.url, QUIRE_MAIL_FROM: 'Acme Docs <docs@acme.test>' }, dialect);
      world = await createWorld(q.t.ctx, q.t.app, q.t.clock);
      email = world.members.edit.email;
      await storePassword(q.t.ctx, world.members.edit.id, OLD_PASSWORD);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await q?.t.close();
      await mailbox?.close();
    });

    async function mailCount(count: number): Promise<string> {
      for (let i = 0; i < 400 && mailbox.mails.length < count; i++) await new Promise((resolve) => setTimeout(resolve, 25));
      assert.equal(mailbox.mails.length, count, 'a mail arrived');
      return mailbox.mails[count - 1];
    }

    function linkIn(mail: string): string {
      const match = /(http:\/\/127\.0\.0\.1:\d+\/reset-password\/[A-Za-z0-9_-]{43})/.exec(mail);
      assert.ok(match, mail);
      return match[1];
    }

    async function signIn(page: Page, address: string, password: string): Promise<number> {
      await page.goto(`${q.base}/sign-in`);
      await page.getByLabel('E-mail address').fill(address);
      await page.getByLabel('Password').fill(password);
      await Promise.all([page.waitForLoadState('load'), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
      return (await page.request.get(`${q.base}/auth/session`)).status();
    }

    /** Asks for a reset link on /reset-password; answers the page's text. */
    async function askForReset(page: Page, address: string): Promise<string> {
      await page.goto(`${q.base}/reset-password`);
      await page.getByLabel('E-mail address').fill(address);
      await Promise.all([page.waitForURL(`${q.base}/reset-password`), page.getByRole('button', { name: 'Mail me a reset link' }).click()]);
      return page.locator('main').innerText();
    }

    let context: BrowserContext;
    let page: Page;
    let firstLink: string;
    let knownAnswer: string;

    it('asks from the sign-in page, receives the link, sets a new password and is signed in; other sessions end', async () => {
      // Another browser signed in with the old password: the reset must sign it out.
      const elsewhere = await (await browser.newContext()).newPage();
      assert.equal(await signIn(elsewhere, email, OLD_PASSWORD), 200);

      context = await browser.newContext();
      page = await context.newPage();
      await page.goto(`${q.base}/sign-in`);
      await Promise.all([page.waitForURL(`${q.base}/reset-password`), page.getByRole('link', { name: 'Forgot password?' }).click()]);
      knownAnswer = await askForReset(page, email);
      assert.match(knownAnswer, /If an account uses this address, a link to reset its password is on its way/);
      const mail = await mailCount(1);
      assert.match(mail, new RegExp(`^To: ${email.replace(/\./g, '\\.')}`, 'm'));
      assert.match(mail, /Reset your Quire password/);
      firstLink = linkIn(mail);
      const row = await q.t.ctx.db.selectFrom('password_links').selectAll().where('purpose', '=', 'reset').executeTakeFirstOrThrow();
      assert.ok(row.browser_hash, 'the link is bound to a browser');
      assert.ok(!firstLink.includes(row.token_hash), 'only the hash is stored');

      await page.goto(firstLink);
      await page.getByLabel('New password', { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel('New password again').fill(NEW_PASSWORD);
      await Promise.all([page.waitForURL(`${q.base}/`), page.getByRole('button', { name: 'Change password and sign in' }).click()]);
      const session = await page.request.get(`${q.base}/auth/session`);
      assert.equal(session.status(), 200);
      assert.equal((await session.json()).user.email, email);
      assert.equal((await elsewhere.request.get(`${q.base}/auth/session`)).status(), 401, 'the other session was signed out');
      await elsewhere.context().close();
    });

    it('signs in with the new password, and no longer with the old one', async () => {
      const fresh = await browser.newContext();
      const tab = await fresh.newPage();
      assert.equal(await signIn(tab, email, OLD_PASSWORD), 401);
      assert.equal(await signIn(tab, email, NEW_PASSWORD), 200);
      await fresh.close();
    });

    it('refuses the same link a second time', async () => {
      const response = await page.goto(firstLink);
      assert.equal(response?.status(), 410);
      assert.match(await page.locator('main').innerText(), /This link no longer works/);
    });

    it('refuses a link opened in another browser, which stays usable in the one that asked', async () => {
      await askForReset(page, email);
      const link = linkIn(await mailCount(2));
      const other = await (await browser.newContext()).newPage();
      const refused = await other.goto(link);
      assert.equal(refused?.status(), 403);
      assert.match(await other.locator('main').innerText(), /browser where you asked for it/);
      // Posting the form there is refused too, and changes nothing.
      const posted = await other.request.post(link, { form: { password: 'someone else 12345', confirm: 'someone else 12345' } });
      assert.equal(posted.status(), 403);
      assert.equal((await other.request.get(`${q.base}/auth/session`)).status(), 401, 'no session in the other browser');
      await other.context().close();
      const response = await page.goto(link);
      assert.equal(response?.status(), 200);
      assert.match(await page.locator('main').innerText(), /Choose a new password/);
    });

    it('answers an unknown address the same, and mails nothing', async () => {
      const unknownAnswer = await askForReset(page, 'nobody@nowhere.test');
      assert.equal(unknownAnswer, knownAnswer);
      // A known address asked after it: its mail is the next one, and nothing else came.
      await askForReset(page, email);
      const mail = await mailCount(3);
      assert.match(mail, new RegExp(`^To: ${email.replace(/\./g, '\\.')}`, 'm'));
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(mailbox.mails.length, 3);
      assert.ok(mailbox.mails.every((text) => !/nowhere\.test/.test(text)));
    });

    it('mails an address at most three times an hour, with the same answer', async () => {
      const answer = await askForReset(page, email);
      assert.equal(answer, knownAnswer);
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(mailbox.mails.length, 3, 'the fourth request of the hour mailed nothing');
      q.t.clock.advance(3_600_000);
      await askForReset(page, email);
      await mailCount(4);
    });

    it('limits the requests of one client address', async () => {
      const form = await q.t.app.inject({ method: 'GET', url: '/reset-password' });
      const cookie = String(form.headers['set-cookie']).split(';')[0];
      const proof = /name="_form" value="([^"]+)"/.exec(form.body)![1];
      const statuses: number[] = [];
      for (let i = 0; i < 22; i++) {
        const reply = await q.t.app.inject({
          method: 'POST',
          url: '/reset-password',
          remoteAddress: '203.0.113.9',
          headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
          payload: `_form=${encodeURIComponent(proof)}&email=${encodeURIComponent(`someone${i}@nowhere.test`)}`,
        });
        statuses.push(reply.statusCode);
        if (reply.statusCode === 429) assert.match(reply.body, /Too many password resets were asked for from your network/);
      }
      assert.deepEqual([...new Set(statuses)], [200, 429]);
      assert.equal(statuses.indexOf(429), 20);
    });

    it('refuses a form posted from another site or not served to this browser', async () => {
      const foreign = await q.t.app.inject({
        method: 'POST',
        url: '/reset-password',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'https://evil.test' },
        payload: `email=${encodeURIComponent(email)}`,
      });
      assert.equal(foreign.statusCode, 403);
      const unproved = await q.t.app.inject({ method: 'POST', url: '/reset-password', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: `email=${encodeURIComponent(email)}` });
      assert.equal(unproved.statusCode, 403);
      assert.match(unproved.body, /not sent from this site/);
    });

    it('audits the reset without the link, and logs no link (trace level included)', async () => {
      await context.close();
      const rows = await q.t.ctx.db.selectFrom('audit_log').selectAll().where('operation', '=', 'resetPassword').execute();
      assert.equal(rows.length, 1);
      assert.equal(rows[0].user_id, world.members.edit.id);
      assert.deepEqual(JSON.parse(rows[0].object_ids), { userId: world.members.edit.id, resetBy: 'self-service' });
      const audit = JSON.stringify(await q.t.ctx.db.selectFrom('audit_log').selectAll().execute());
      const secrets = mailbox.mails.map((mail) => linkIn(mail).split('/reset-password/')[1]);
      for (const secret of secrets) assert.ok(!audit.includes(secret), 'a reset secret was audited');
      for (const secret of secrets) assert.ok(!q.log.text.includes(secret), 'a reset secret was logged');
      assert.ok(!q.log.text.includes(NEW_PASSWORD));
    });
  });

  describe(`forgot password without mail [${dialect}]`, () => {
    it('offers no "Forgot password?" link and says to ask an administrator', async () => {
      const t = await createTestApp(dialect);
      try {
        const signIn = await t.app.inject({ method: 'GET', url: '/sign-in' });
        assert.ok(!signIn.body.includes('href="/reset-password"'));
        assert.match(signIn.body, /Ask an administrator of your organization for a reset link/);
        const page = await t.app.inject({ method: 'GET', url: '/reset-password' });
        assert.equal(page.statusCode, 200);
        assert.match(page.body, /does not send mail/);
        assert.ok(!/<form/.test(page.body));
        const posted = await t.app.inject({ method: 'POST', url: '/reset-password', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'email=a%40b.test' });
        assert.ok(!/<form/.test(posted.body));
        assert.equal(await t.ctx.db.selectFrom('password_links').select('id').executeTakeFirst(), undefined);
      } finally {
        await t.close();
      }
    });
  });
}
