import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { passwordProblem, storePassword } from '../../src/sessions/passwords.ts';
import { NEUTRAL_REFUSAL } from '../../src/modules/auth/password-service.ts';
import { safeReturnTo } from '../../src/sessions/sign-in.ts';
import { form, sessionCookie } from './support.ts';

const PASSWORD = 'correct horse battery staple';

describe('password rules', () => {
  it('refuses short, common and own-address passwords, with a reason a person can act on', () => {
    assert.match(passwordProblem('short1')!, /at least 10 characters/);
    assert.match(passwordProblem('1234567890')!, /commonly used/);
    assert.match(passwordProblem('QwertyUiop')!, /commonly used/, 'compared without case');
    assert.match(passwordProblem('ada.lovelace', 'ada.lovelace@example.com')!, /not your e-mail address/);
    assert.equal(passwordProblem(PASSWORD), undefined);
  });

  it('sends people only to paths of this site after signing in', () => {
    assert.equal(safeReturnTo('/o/abc?x=1#y'), '/o/abc?x=1#y');
    for (const bad of ['//evil.example/', 'https://evil.example/', '/\\evil.example', 'javascript:alert(1)', '', undefined, '/\u0000x']) assert.equal(safeReturnTo(bad), '/', String(bad));
  });
});

for (const dialect of dialects) {
  describe(`password sign-in [${dialect}]`, () => {
    let t: TestApp;
    let ada: TestUser;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_SIGN_IN_ATTEMPTS: '3' });
      ada = await createUser(t.ctx, t.app, 'ada');
      await storePassword(t.ctx, ada.id, PASSWORD);
    });
    after(() => t.close());

    const signIn = (fields: Record<string, string>, headers: Record<string, string> = {}, ip = '10.0.0.1') =>
      t.app.inject({ method: 'POST', url: '/sign-in', remoteAddress: ip, headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers }, payload: form(fields) });

    it('stores an Argon2id hash, never the password', async () => {
      const row = await t.ctx.db.selectFrom('user_passwords').select('hash').where('user_id', '=', ada.id).executeTakeFirstOrThrow();
      assert.match(row.hash, /^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
      assert.ok(!row.hash.includes(PASSWORD));
    });

    it('signs in with the right password: a session cookie, a redirect to returnTo, an audit entry', async () => {
      const reply = await signIn({ email: ` ${ada.email.toUpperCase()} `, password: PASSWORD, returnTo: '/o/acme' });
      assert.equal(reply.statusCode, 303);
      assert.equal(reply.headers.location, '/o/acme');
      const cookie = sessionCookie(reply.headers);
      assert.ok(cookie);
      assert.match(String(([] as unknown[]).concat(reply.headers['set-cookie']).join('\n')), /HttpOnly; SameSite=Lax/);
      const session = await t.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie } });
      assert.equal(session.json().user.id, ada.id);
      const audit = await t.ctx.db.selectFrom('audit_log').selectAll().where('operation', '=', 'signIn').where('user_id', '=', ada.id).execute();
      assert.equal(audit.length, 1);
      assert.match(audit[0].object_ids, /"signInMethod":"password"/);
    });

    it('refuses a wrong password and an unknown address with the same neutral message', async () => {
      const wrong = await signIn({ email: ada.email, password: 'not the password at all' }, {}, '10.0.0.2');
      const unknown = await signIn({ email: 'nobody@example.com', password: 'not the password at all' }, {}, '10.0.0.2');
      for (const reply of [wrong, unknown]) {
        assert.equal(reply.statusCode, 401);
        assert.equal(sessionCookie(reply.headers), undefined);
        assert.ok(reply.body.includes(NEUTRAL_REFUSAL.replace(/'/g, '&#39;')));
        assert.equal(reply.headers['content-security-policy']?.toString().includes("script-src 'self'"), true);
      }
      assert.equal(wrong.body.replace(/value="[^"]*"/g, ''), unknown.body.replace(/value="[^"]*"/g, ''), 'the pages differ only in the address typed');
    });

    it('rotates: a session id the browser came with is ended at sign-in (no fixation)', async () => {
      const first = sessionCookie((await signIn({ email: ada.email, password: PASSWORD })).headers)!;
      const second = await signIn({ email: ada.email, password: PASSWORD }, { cookie: first });
      const next = sessionCookie(second.headers)!;
      assert.notEqual(next, first);
      assert.equal((await t.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: first } })).statusCode, 401);
      assert.equal((await t.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: next } })).statusCode, 200);
    });

    it('refuses a sign-in form posted from another site', async () => {
      const reply = await signIn({ email: ada.email, password: PASSWORD }, { origin: 'https://evil.example' });
      assert.equal(reply.statusCode, 403);
      assert.equal(sessionCookie(reply.headers), undefined);
      assert.match(reply.body, /CSRF/);
    });

    it('throttles failures per account, even for the right password then, and attempts per client address', async () => {
      const bob = await createUser(t.ctx, t.app, 'bob');
      await storePassword(t.ctx, bob.id, PASSWORD);
      for (let i = 0; i < 3; i++) assert.equal((await signIn({ email: bob.email, password: 'wrong password here' }, {}, `10.1.0.${i}`)).statusCode, 401);
      const locked = await signIn({ email: bob.email, password: PASSWORD }, {}, '10.1.0.9');
      assert.equal(locked.statusCode, 429);
      assert.match(locked.body, /Too many sign-in attempts: wait 15 minutes/);
      t.clock.advance(15 * 60_000);
      assert.equal((await signIn({ email: bob.email, password: PASSWORD }, {}, '10.1.0.9')).statusCode, 303, 'the window has passed');

      // One address: three times the account limit, whatever the accounts.
      for (let i = 0; i < 9; i++) await signIn({ email: `someone${i}@example.com`, password: 'wrong password here' }, {}, '10.2.0.1');
      assert.equal((await signIn({ email: ada.email, password: PASSWORD }, {}, '10.2.0.1')).statusCode, 429);
      assert.equal((await signIn({ email: ada.email, password: PASSWORD }, {}, '10.2.0.2')).statusCode, 303);
    });
  });
}
