import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { client, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { storePassword } from '../../src/sessions/passwords.ts';
import { createPasswordLink } from '../../src/sessions/password-links.ts';
import { form, sessionCookie } from './support.ts';

const PASSWORD = 'correct horse battery staple';

for (const dialect of dialects) {
  describe(`invites, resets and the account page [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const post = (url: string, fields: Record<string, string>, cookie?: string) =>
      t.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded', ...(cookie ? { cookie } : {}) }, payload: form(fields) });
    const get = (url: string, cookie?: string) => t.app.inject({ method: 'GET', url, headers: cookie ? { cookie } : {} });
    const csrfOf = async (cookie: string) => (await get('/auth/session', cookie)).json().csrfToken as string;

    it('an invite answers a one-time link for a newcomer, which sets the first password once and signs in', async () => {
      const invited = await world.admin.api.post(`/v1/orgs/${world.organizationId}/invites`, { emails: ['new.writer@acme.test', world.members.read.email] });
      assert.equal(invited.status, 200);
      assert.equal(invited.body.signInLinks.length, 1, 'only the newcomer: the other is a member already');
      const link = invited.body.signInLinks[0];
      assert.equal(link.email, 'new.writer@acme.test');
      const path = new URL(link.url).pathname;
      assert.match(path, /^\/invite\/[A-Za-z0-9_-]{43}$/);
      const audit = await t.ctx.db.selectFrom('audit_log').selectAll().where('operation', '=', 'inviteUsersToOrganization').execute();
      assert.ok(!JSON.stringify(audit).includes(path.split('/')[2]), 'the link is not in the audit trail');

      const page = await get(path);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /new\.writer@acme\.test/);
      assert.match(String(page.headers['content-security-policy']), /script-src 'self'/);
      const weak = await post(path, { displayName: 'Nell', password: 'password123', confirm: 'password123' });
      assert.equal(weak.statusCode, 400);
      assert.match(weak.body, /commonly used passwords/);
      const mismatch = await post(path, { displayName: 'Nell', password: PASSWORD, confirm: PASSWORD + '!' });
      assert.equal(mismatch.statusCode, 400);
      const done = await post(path, { displayName: 'Nell Writer', password: PASSWORD, confirm: PASSWORD });
      assert.equal(done.statusCode, 303);
      assert.equal(done.headers.location, '/');
      const cookie = sessionCookie(done.headers)!;
      const session = (await get('/auth/session', cookie)).json();
      assert.equal(session.user.displayName, 'Nell Writer');
      assert.equal((await post(path, { displayName: 'X', password: PASSWORD, confirm: PASSWORD })).statusCode, 410, 'used once');
      assert.equal((await get(path)).statusCode, 410);
      const signIn = await post('/sign-in', { email: 'new.writer@acme.test', password: PASSWORD });
      assert.equal(signIn.statusCode, 303, 'the password set by the link signs in');
    });

    it('a reset of someone with a passkey asks for the passkey (or a recovery code) before signing in', async () => {
      const user = world.members.review;
      await t.ctx.db
        .insertInto('passkeys')
        .values({ id: t.ctx.ids.next(), user_id: user.id, credential_id: 'cred-review', public_key: 'key', counter: 0, transports: '[]', name: 'Laptop', created_at: new Date().toISOString(), last_used_at: null })
        .execute();
      const path = new URL((await createPasswordLink(t.ctx, user.id, 'reset', null)).url).pathname;
      const done = await post(path, { password: PASSWORD, confirm: PASSWORD });
      assert.equal(done.statusCode, 303);
      assert.equal(done.headers.location, '/sign-in/second-factor');
      assert.equal(sessionCookie(done.headers), undefined, 'no session from the mailbox alone');
      assert.equal((await post(path, { password: PASSWORD, confirm: PASSWORD })).statusCode, 410, 'the link is spent');
      await t.ctx.db.deleteFrom('passkeys').where('user_id', '=', user.id).execute();
    });

    it('an invite link expires after seven days', async () => {
      const invited = await world.admin.api.post(`/v1/orgs/${world.organizationId}/invites`, { emails: ['late.comer@acme.test'] });
      const path = new URL(invited.body.signInLinks[0].url).pathname;
      t.clock.advance(7 * 86_400_000 + 1000);
      assert.equal((await get(path)).statusCode, 410);
    });

    it('the account page needs a session, shows the sessions, and every form needs _csrf', async () => {
      const user = world.members.edit;
      await storePassword(t.ctx, user.id, PASSWORD);
      const first = sessionCookie((await post('/sign-in', { email: user.email, password: PASSWORD })).headers)!;
      const second = sessionCookie((await t.app.inject({ method: 'POST', url: '/sign-in', headers: { 'content-type': 'application/x-www-form-urlencoded', 'user-agent': 'Mozilla/5.0 (X11; Linux x86_64) Firefox/140.0' }, payload: form({ email: user.email, password: PASSWORD }) })).headers)!;
      const out = await get('/account');
      assert.equal(out.statusCode, 303);
      assert.equal(out.headers.location, '/sign-in?returnTo=%2Faccount');
      const page = await get('/account', first);
      assert.equal(page.statusCode, 200);
      assert.match(page.body, /Firefox on Linux/);
      assert.match(page.body, /\(this browser\)/);

      const forged = await post('/account/profile', { displayName: 'Mallory' }, first);
      assert.equal(forged.statusCode, 403);
      assert.match(forged.json().error.message, /CSRF/);
      const csrf = await csrfOf(first);
      const saved = await post('/account/profile', { _csrf: csrf, displayName: 'Eddie Editor', photoURL: 'https://example.com/e.png' }, first);
      assert.equal(saved.statusCode, 303);
      assert.equal((await get('/auth/session', first)).json().user.photoURL, 'https://example.com/e.png');

      // Password change: the current one is checked, the others are signed out, this one gets a new id.
      const wrong = await post('/account/password', { _csrf: csrf, current: 'not my password', password: 'a brand new passphrase', confirm: 'a brand new passphrase' }, first);
      assert.equal(wrong.statusCode, 401);
      const changed = await post('/account/password', { _csrf: csrf, current: PASSWORD, password: 'a brand new passphrase', confirm: 'a brand new passphrase' }, first);
      assert.equal(changed.statusCode, 303);
      const rotated = sessionCookie(changed.headers)!;
      assert.notEqual(rotated, first);
      assert.equal((await get('/auth/session', first)).statusCode, 401, 'the old id is gone');
      assert.equal((await get('/auth/session', second)).statusCode, 401, 'the other browser is signed out');
      assert.equal((await get('/auth/session', rotated)).statusCode, 200);

      // Tokens through the page: shown once, working, revocable.
      const csrf2 = await csrfOf(rotated);
      const created = await post('/account/tokens', { _csrf: csrf2, name: 'deploy', expiresIn: '30d' }, rotated);
      assert.equal(created.statusCode, 200);
      const token = /<code class="secret">([^<]+)<\/code>/.exec(created.body)![1];
      assert.equal((await client(t.app, token).get('/v1/user')).body.id, user.id);
      const listed = await get('/account', rotated);
      assert.ok(!listed.body.includes(token), 'never shown again');
      const tokenId = /\/account\/tokens\/([^/]+)\/revoke/.exec(listed.body)![1];
      assert.equal((await post(`/account/tokens/${tokenId}/revoke`, { _csrf: csrf2 }, rotated)).statusCode, 303);
      assert.equal((await client(t.app, token).get('/v1/user')).status, 401);

      // Leaving an organization.
      const left = await post(`/account/organizations/${world.organizationId}/leave`, { _csrf: csrf2 }, rotated);
      assert.equal(left.statusCode, 303);
      const afterLeaving = sessionCookie(left.headers)!;
      assert.equal((await world.admin.api.get(`/v1/orgs/${world.organizationId}/members/${user.id}`)).status, 404);

      // Sign out everywhere.
      const csrf3 = await csrfOf(afterLeaving);
      const everywhere = await post('/account/sessions/end-all', { _csrf: csrf3 }, afterLeaving);
      assert.equal(everywhere.statusCode, 303);
      assert.equal(everywhere.headers.location, '/sign-in?signedOut=1');
      assert.equal((await get('/auth/session', afterLeaving)).statusCode, 401);
    });
  });
}
