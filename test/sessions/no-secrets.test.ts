import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { after, before, describe, it } from 'node:test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig } from '../../src/config.ts';
import { createContext, type Context } from '../../src/context.ts';
import { migrateToLatest, openDatabase, type Database } from '../../src/db/database.ts';
import { createOrganization } from '../../src/modules/orgs/service.ts';
import { issueApiToken } from '../../src/modules/users/service.ts';
import { createPasswordLink } from '../../src/sessions/password-links.ts';
import { form, sessionCookie } from './support.ts';

/**
 * Nothing that lets someone sign in — a password, its hash, a session id, a reset or invite secret — is
 * written to the log (at trace level, the most verbose), to an audit entry, or to an answer (but the two
 * answers made to hand a secret over once: an invite's link to its administrator, a new token to its owner).
 */
describe('no sign-in secret in logs, audit entries or answers [sqlite]', () => {
  let app: FastifyInstance;
  let database: Database;
  let ctx: Context;
  const log: string[] = [];
  const answers: Array<{ url: string; body: string; headers: string }> = [];

  before(async () => {
    const config = loadConfig({ QUIRE_LOG_LEVEL: 'trace', QUIRE_PUBLIC_URL: 'http://quire.test', QUIRE_DATA_DIR: '/tmp/quire-test-unused', QUIRE_RATE_LIMIT: '0' });
    database = openDatabase('sqlite::memory:');
    await migrateToLatest(database);
    const logStream = new Writable({
      write(chunk, _encoding, done) {
        log.push(String(chunk));
        done();
      },
    });
    app = await buildApp({ config, database, masterKey: randomBytes(32), clock: new ManualClock(new Date('2026-03-01T09:00:00.000Z')), logStream });
    app.addHook('onSend', async (request, reply, payload) => {
      answers.push({ url: request.url, body: typeof payload === 'string' ? payload : '', headers: JSON.stringify({ ...reply.getHeaders(), 'set-cookie': undefined }) });
      return payload;
    });
    await app.ready();
    ctx = createContext(app.services, null);
  });
  after(async () => {
    await app.close();
    await database.close();
  });

  it('holds through invites, sign-in, a wrong password, CSRF refusals, a reset and sign-out', async () => {
    const { organization, owner } = await createOrganization(ctx, { title: 'Acme', ownerEmail: 'admin@acme.test', ownerName: 'Ada' });
    const adminToken = await issueApiToken(ctx, owner.id);
    const inject = (method: string, url: string, options: { form?: Record<string, string>; json?: unknown; headers?: Record<string, string> } = {}) =>
      app.inject({
        method: method as 'GET',
        url,
        headers: { ...(options.form ? { 'content-type': 'application/x-www-form-urlencoded' } : options.json ? { 'content-type': 'application/json' } : {}), ...options.headers },
        payload: options.form ? form(options.form) : options.json ? JSON.stringify(options.json) : undefined,
      });

    const invited = await inject('POST', `/v1/orgs/${organization.id}/invites`, { json: { emails: ['writer@acme.test'] }, headers: { authorization: `Bearer ${adminToken}` } });
    const inviteUrl = new URL(invited.json().signInLinks[0].url);
    const inviteSecret = inviteUrl.pathname.split('/')[2];
    const password = 'Saffron-Tortoise-Umbrella-91';
    await inject('GET', inviteUrl.pathname);
    const accepted = await inject('POST', inviteUrl.pathname, { form: { displayName: 'Wren', password, confirm: password } });
    assert.equal(accepted.statusCode, 303);
    const firstSession = sessionCookie(accepted.headers)!;

    await inject('POST', '/sign-in', { form: { email: 'writer@acme.test', password: 'Wrong-Guess-Password-42' } });
    const signedIn = await inject('POST', '/sign-in', { form: { email: 'writer@acme.test', password } });
    const cookie = sessionCookie(signedIn.headers)!;
    const session = (await inject('GET', '/auth/session', { headers: { cookie } })).json();
    await inject('GET', '/v1/user', { headers: { cookie } });
    await inject('PATCH', '/v1/user', { json: { displayName: 'x' }, headers: { cookie } });
    await inject('POST', '/account/profile', { form: { displayName: 'Wren W.', _csrf: session.csrfToken }, headers: { cookie } });
    const reset = await createPasswordLink(ctx, owner.id, 'reset', null);
    const resetPath = new URL(reset.url).pathname;
    const resetSecret = resetPath.split('/')[2];
    const newPassword = 'Lantern-Quokka-Meridian-57';
    await inject('GET', resetPath);
    await inject('POST', resetPath, { form: { password: newPassword, confirm: newPassword } });
    await inject('POST', '/sign-out', { form: { _csrf: session.csrfToken }, headers: { cookie } });

    const hashes = (await ctx.db.selectFrom('user_passwords').select('hash').execute()).map((row) => row.hash.split('$').pop()!);
    const sessionSecrets = [firstSession, cookie].map((value) => value.split('=')[1]);
    const secrets: Record<string, string> = {
      password,
      'wrong password': 'Wrong-Guess-Password-42',
      'new password': newPassword,
      ...Object.fromEntries(hashes.map((hash, i) => [`hash ${i}`, hash])),
      ...Object.fromEntries(sessionSecrets.map((secret, i) => [`session id ${i}`, secret])),
      'invite secret': inviteSecret,
      'reset secret': resetSecret,
    };

    const logText = log.join('');
    assert.ok(logText.includes('"level":10') || logText.includes('"level":20') || logText.includes('incoming request'), 'the log was written');
    assert.ok(logText.includes('/invite/[redacted]') && logText.includes('/reset-password/[redacted]'), 'one-time links are logged redacted');
    const audit = JSON.stringify(await ctx.db.selectFrom('audit_log').selectAll().execute());
    assert.match(audit, /signIn/);
    for (const [name, secret] of Object.entries(secrets)) {
      assert.ok(!logText.includes(secret), `the log holds the ${name}`);
      assert.ok(!audit.includes(secret), `an audit entry holds the ${name}`);
      for (const answer of answers) {
        if (name === 'invite secret' && answer.url.endsWith('/invites')) continue; // handed to the administrator once, by design
        assert.ok(!answer.body.includes(secret) && !answer.headers.includes(secret), `the answer to ${answer.url} holds the ${name}`);
      }
    }
  });
});
