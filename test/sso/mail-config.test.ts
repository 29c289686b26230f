import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ConfigError, loadConfig } from '../../src/config.ts';
import { createMailer, MailUnavailable } from '../../src/mail/mailer.ts';
import { safeReturnTo } from '../../src/sessions/sign-in.ts';

describe('mail configuration', () => {
  const base = { QUIRE_DATA_DIR: '/tmp/quire-test-unused', QUIRE_PUBLIC_URL: 'https://docs.acme.test' };

  it('reads QUIRE_SMTP_URL and QUIRE_MAIL_FROM, with a From named after the public host by default', () => {
    const config = loadConfig({ ...base, QUIRE_SMTP_URL: 'smtps://user:pw@smtp.acme.test:465' });
    assert.equal(config.smtpUrl, 'smtps://user:pw@smtp.acme.test:465');
    assert.equal(config.mailFrom, 'Quire <quire@docs.acme.test>');
    assert.equal(loadConfig({ ...base, QUIRE_MAIL_FROM: 'Docs <docs@acme.test>' }).mailFrom, 'Docs <docs@acme.test>');
    assert.equal(loadConfig(base).smtpUrl, undefined);
  });

  it('refuses what is not an SMTP URL or an address, naming the variable', () => {
    assert.throws(() => loadConfig({ ...base, QUIRE_SMTP_URL: 'https://smtp.acme.test' }), (e: Error) => e instanceof ConfigError && /QUIRE_SMTP_URL must start with smtp:\/\//.test(e.message));
    assert.throws(() => loadConfig({ ...base, QUIRE_SMTP_URL: 'not a url' }), (e: Error) => e instanceof ConfigError && /QUIRE_SMTP_URL/.test(e.message));
    assert.throws(() => loadConfig({ ...base, QUIRE_MAIL_FROM: 'nobody' }), (e: Error) => e instanceof ConfigError && /QUIRE_MAIL_FROM/.test(e.message));
  });

  it('without SMTP the mailer is off and refuses to send', async () => {
    const mailer = createMailer({ smtpUrl: undefined, mailFrom: 'Quire <quire@acme.test>' });
    assert.equal(mailer.enabled, false);
    await assert.rejects(mailer.send({ to: 'a@acme.test', subject: 's', text: 't' }), MailUnavailable);
  });

  it('sends people back only to a path of this server', () => {
    for (const bad of ['https://evil.test/', '//evil.test/x', '/\\evil.test', 'javascript:alert(1)', '/a\nb', 42]) assert.equal(safeReturnTo(bad), '/');
    assert.equal(safeReturnTo('/o/docs?x=1#y'), '/o/docs?x=1#y');
  });
});
