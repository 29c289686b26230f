import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { startMailbox, type Mailbox } from '../helpers/mailbox.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/** With QUIRE_SMTP_URL, a newcomer's invite link is mailed to them and left out of the answer. */
describe('invite links by mail [sqlite]', () => {
  let t: TestApp;
  let world: World;
  let mailbox: Mailbox;

  before(async () => {
    mailbox = await startMailbox();
    t = await createTestApp('sqlite', { QUIRE_SMTP_URL: mailbox.url, QUIRE_MAIL_FROM: 'Acme Docs <docs@acme.test>' });
    world = await createWorld(t.ctx, t.app, t.clock);
  });
  after(async () => {
    await t?.close();
    await mailbox?.close();
  });

  it('mails the one-time link to the newcomer instead of answering it', async () => {
    const invited = await world.admin.api.post(`/v1/orgs/${world.organizationId}/invites`, { emails: ['mailed@acme.test'] });
    assert.equal(invited.status, 200);
    assert.equal(invited.body.invited, 1);
    assert.equal(invited.body.signInLinks, undefined, 'the link went by mail');
    assert.equal(mailbox.mails.length, 1, 'the mail was handed over before the answer');
    assert.match(mailbox.mails[0], /To: mailed@acme\.test/);
    assert.match(mailbox.mails[0], /You are invited to Acme Docs on Quire/);
    const link = /http:\/\/quire\.test(\/invite\/[A-Za-z0-9_-]{43})/.exec(mailbox.mails[0]);
    assert.ok(link, mailbox.mails[0]);
    const page = await t.app.inject({ method: 'GET', url: link[1] });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /mailed@acme\.test/);
  });
});
