import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { SMTPServer } from 'smtp-server';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/** With QUIRE_SMTP_URL, a newcomer's invite link is mailed to them and left out of the answer. */
async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

describe('invite links by mail [sqlite]', () => {
  let t: TestApp;
  let world: World;
  let smtp: SMTPServer;
  const mails: string[] = [];

  before(async () => {
    const port = await freePort();
    smtp = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onData(stream, _session, callback) {
        let data = '';
        stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
        stream.on('end', () => {
          mails.push(data.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16))));
          callback();
        });
      },
    });
    await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
    t = await createTestApp('sqlite', { QUIRE_SMTP_URL: `smtp://127.0.0.1:${port}`, QUIRE_MAIL_FROM: 'Acme Docs <docs@acme.test>' });
    world = await createWorld(t.ctx, t.app, t.clock);
  });
  after(async () => {
    await t?.close();
    await new Promise<void>((resolve) => smtp.close(() => resolve()));
  });

  it('mails the one-time link to the newcomer instead of answering it', async () => {
    const invited = await world.admin.api.post(`/v1/orgs/${world.organizationId}/invites`, { emails: ['mailed@acme.test'] });
    assert.equal(invited.status, 200);
    assert.equal(invited.body.invited, 1);
    assert.equal(invited.body.signInLinks, undefined, 'the link went by mail');
    assert.equal(mails.length, 1, 'the mail was handed over before the answer');
    assert.match(mails[0], /To: mailed@acme\.test/);
    assert.match(mails[0], /You are invited to Acme Docs on Quire/);
    const link = /http:\/\/quire\.test(\/invite\/[A-Za-z0-9_-]{43})/.exec(mails[0]);
    assert.ok(link, mails[0]);
    const page = await t.app.inject({ method: 'GET', url: link[1] });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /mailed@acme\.test/);
  });
});
