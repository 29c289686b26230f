import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { dialects } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { startMailbox, type Mailbox } from '../helpers/mailbox.ts';
import { needs } from '../helpers/system.ts';
import { storePassword } from '../../src/sessions/passwords.ts';
import { launchChromium, startQuire, type ListeningQuire } from '../sso/support.ts';

/**
 * An invitation by address to someone Quire already knew, answered in Chromium on the account page: the
 * person is told by mail, sees the invitation, accepts it (and only then is a member) or declines it.
 */
const PASSWORD = 'correct horse battery staple';

for (const dialect of dialects) {
  describe(`invitations answered on the account page [${dialect}]`, { skip: needs('chromium') }, () => {
    let q: ListeningQuire;
    let world: World;
    let browser: Browser;
    let mailbox: Mailbox;

    before(async () => {
      mailbox = await startMailbox();
      q = await startQuire({ QUIRE_SMTP_URL: mailbox.url, QUIRE_MAIL_FROM: 'Acme Docs <docs@acme.test>' }, dialect);
      world = await createWorld(q.t.ctx, q.t.app, q.t.clock);
      await storePassword(q.t.ctx, world.outsider.id, PASSWORD);
      await storePassword(q.t.ctx, world.members.read.id, PASSWORD);
      browser = await launchChromium();
    });
    after(async () => {
      await browser?.close();
      await q?.t.close();
      await mailbox?.close();
    });

    const member = (organizationId: string, userId: string) =>
      q.t.ctx.db.selectFrom('members').select(['role']).where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();

    async function signInToAccount(page: Page, email: string): Promise<void> {
      await page.goto(`${q.base}/sign-in?returnTo=%2Faccount`);
      await page.getByLabel('E-mail address').fill(email);
      await page.getByLabel('Password').fill(PASSWORD);
      await Promise.all([page.waitForURL(`${q.base}/account`), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
    }

    it('accepts an invitation on the account page, and only then is a member', async () => {
      const invited = await world.admin.api.post(`/v1/orgs/${world.organizationId}/invites`, { emails: [world.outsider.email], role: 'comment' });
      assert.equal(invited.status, 200);
      assert.equal(invited.body.invited, 0);
      assert.equal(await member(world.organizationId, world.outsider.id), undefined);
      assert.equal(mailbox.mails.length, 1, 'the person is told by mail');
      assert.match(mailbox.mails[0], /You become a member only if you accept/);
      assert.match(mailbox.mails[0], new RegExp(`${q.base.replace(/\./g, '\\.')}/account`));
      assert.ok(!/\/invite\/|token=/.test(mailbox.mails[0]), 'no link that signs in');

      const page = await (await browser.newContext()).newPage();
      await signInToAccount(page, world.outsider.email);
      const before = (await page.context().cookies()).find((cookie) => /session/.test(cookie.name))?.value;
      const section = page.getByRole('region', { name: 'Invitations' });
      assert.match(await section.innerText(), /Acme Docs\s+comment/);
      await Promise.all([page.waitForURL(/\/account\?done=joined$/), page.getByRole('button', { name: 'Accept the invitation to Acme Docs' }).click()]);
      assert.match(await page.getByRole('status').innerText(), /You have joined the organization/);
      assert.match(await page.getByRole('region', { name: 'Organizations' }).innerText(), /Acme Docs\s+comment/);
      assert.equal(await page.getByRole('region', { name: 'Invitations' }).count(), 0, 'nothing left to answer');
      assert.equal((await member(world.organizationId, world.outsider.id))?.role, 'comment');
      const after = (await page.context().cookies()).find((cookie) => /session/.test(cookie.name))?.value;
      assert.ok(before && after && before !== after, 'a new session id after joining');
      assert.equal((await page.request.get(`${q.base}/auth/session`)).status(), 200);
      await page.context().close();
    });

    it('declines an invitation on the account page', async () => {
      const invited = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/invites`, { emails: [world.members.read.email] });
      assert.equal(invited.status, 200);
      const page = await (await browser.newContext()).newPage();
      await signInToAccount(page, world.members.read.email);
      await Promise.all([page.waitForURL(/\/account\?done=declined$/), page.getByRole('button', { name: 'Decline the invitation to Elsewhere' }).click()]);
      assert.match(await page.getByRole('status').innerText(), /The invitation is declined/);
      assert.equal(await member(world.otherOrganizationId, world.members.read.id), undefined);
      assert.equal(await q.t.ctx.db.selectFrom('member_invitations').select('id').where('user_id', '=', world.members.read.id).executeTakeFirst(), undefined);
      await page.context().close();
    });
  });
}
