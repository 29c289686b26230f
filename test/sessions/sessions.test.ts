import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createUser, type TestUser } from '../helpers/factories.ts';
import { sessionFor, withCookie } from './support.ts';

for (const dialect of dialects) {
  describe(`browser sessions [${dialect}]`, () => {
    let t: TestApp;
    let ada: TestUser;
    let bob: TestUser;
    before(async () => {
      t = await createTestApp(dialect);
      ada = await createUser(t.ctx, t.app, 'ada');
      bob = await createUser(t.ctx, t.app, 'bob');
    });
    after(() => t.close());

    it('GET /auth/session answers the user, the CSRF token and the expiry; 401 in the error shape when signed out', async () => {
      const session = await sessionFor(t, ada.id);
      const signedIn = await withCookie(t.app, session, 'GET', '/auth/session');
      assert.equal(signedIn.status, 200);
      assert.equal(signedIn.body.user.id, ada.id);
      assert.equal(signedIn.body.user.email, ada.email);
      assert.equal(signedIn.body.user.displayName, 'ada');
      assert.equal(signedIn.body.csrfToken, session.csrf);
      assert.equal(signedIn.body.expiresAt, new Date(t.clock.now().getTime() + 72 * 3_600_000).toISOString());
      assert.equal(signedIn.headers['cache-control'], 'no-store');
      const none = await t.app.inject({ method: 'GET', url: '/auth/session' });
      assertError({ status: none.statusCode, body: none.json(), headers: none.headers }, 401, 'sign in');
      const unknown = await t.app.inject({ method: 'GET', url: '/auth/session', headers: { cookie: 'quire_session=not-a-session' } });
      assert.equal(unknown.statusCode, 401);
      assert.match(String(unknown.headers['set-cookie']), /^quire_session=; Path=\/; HttpOnly; SameSite=Lax; Max-Age=0$/);
    });

    it('every /v1 operation accepts the cookie as it accepts a token; a Bearer token wins when both come', async () => {
      const session = await sessionFor(t, ada.id);
      const me = await withCookie(t.app, session, 'GET', '/v1/user');
      assert.equal(me.status, 200);
      assert.equal(me.body.id, ada.id);
      const both = await withCookie(t.app, session, 'GET', '/v1/user', { headers: { authorization: `Bearer ${bob.token}` } });
      assert.equal(both.body.id, bob.id);
      const tokenOnly = await bob.api.get('/v1/user');
      assert.equal(tokenOnly.body.id, bob.id);
    });

    it('a cookie-authenticated write needs the session\'s CSRF token: missing or foreign is 403 in the error shape', async () => {
      const session = await sessionFor(t, ada.id);
      const other = await sessionFor(t, bob.id);
      const missing = await withCookie(t.app, session, 'PATCH', `/v1/users/${ada.id}`, { body: { displayName: 'Ada L.' } });
      assertError(missing, 403, 'CSRF');
      const foreign = await withCookie(t.app, session, 'PATCH', `/v1/users/${ada.id}`, { body: { displayName: 'Ada L.' }, headers: { 'x-csrf-token': other.csrf } });
      assertError(foreign, 403, 'CSRF');
      const crossSite = await withCookie(t.app, session, 'PATCH', `/v1/users/${ada.id}`, { body: { displayName: 'Ada L.' }, headers: { 'x-csrf-token': session.csrf, origin: 'https://evil.example' } });
      assertError(crossSite, 403, 'CSRF');
      const refused = await t.app.inject({ method: 'GET', url: `/v1/users/${ada.id}`, headers: { authorization: `Bearer ${ada.token}` } });
      assert.equal(refused.json().displayName, 'ada', 'nothing was written');
      const good = await withCookie(t.app, session, 'PATCH', `/v1/users/${ada.id}`, { body: { displayName: 'Ada L.' }, headers: { 'x-csrf-token': session.csrf, origin: 'http://quire.test' } });
      assert.equal(good.status, 200);
      assert.equal(good.body.displayName, 'Ada L.');
      // A token needs no CSRF token: scripts keep working exactly as before.
      const script = await ada.api.patch(`/v1/users/${ada.id}`, { displayName: 'ada' });
      assert.equal(script.status, 200);
    });

    it('a session unused for the idle time, or older than the absolute lifetime, is refused', async () => {
      const idle = await sessionFor(t, ada.id);
      t.clock.advance(71 * 3_600_000);
      assert.equal((await withCookie(t.app, idle, 'GET', '/v1/user')).status, 200, 'used within the idle time');
      t.clock.advance(71 * 3_600_000);
      assert.equal((await withCookie(t.app, idle, 'GET', '/v1/user')).status, 200, 'each use moves the idle expiry on');
      t.clock.advance(73 * 3_600_000);
      assertError(await withCookie(t.app, idle, 'GET', '/v1/user'), 401, 'session has ended');

      const busy = await sessionFor(t, ada.id);
      for (let day = 0; day < 29; day++) {
        t.clock.advance(86_400_000);
        assert.equal((await withCookie(t.app, busy, 'GET', '/v1/user')).status, 200);
      }
      t.clock.advance(86_400_000);
      assertError(await withCookie(t.app, busy, 'GET', '/v1/user'), 401, 'session has ended');
    });

    it('a new sign-in removes the person\'s ended sessions from the table', async () => {
      const carol = await createUser(t.ctx, t.app, 'carol');
      const old = await sessionFor(t, carol.id);
      t.clock.advance(73 * 3_600_000);
      await sessionFor(t, carol.id);
      const rows = await t.ctx.db.selectFrom('sessions').select('id').where('user_id', '=', carol.id).execute();
      assert.ok(!rows.some((row) => row.id === old.id));
      assert.equal(rows.length, 1);
    });

    it('lists the caller\'s sessions (no secret, no CSRF token) and ends one, or all', async () => {
      const here = await sessionFor(t, bob.id);
      const there = await sessionFor(t, bob.id);
      const list = await withCookie(t.app, here, 'GET', '/v1/user/sessions');
      assert.equal(list.status, 200);
      const ids = list.body.items.map((item: { id: string }) => item.id);
      assert.ok(ids.includes(here.id) && ids.includes(there.id));
      const text = JSON.stringify(list.body);
      assert.ok(!text.includes(here.secret) && !text.includes(here.csrf) && !text.includes(there.csrf));
      assert.equal(list.body.items.find((item: { id: string }) => item.id === here.id).current, true);
      assert.equal(list.body.items.find((item: { id: string }) => item.id === here.id).device, 'Test on Linux');

      const ended = await withCookie(t.app, here, 'DELETE', `/v1/user/sessions/${there.id}`, { headers: { 'x-csrf-token': here.csrf } });
      assert.equal(ended.status, 205);
      assertError(await withCookie(t.app, there, 'GET', '/v1/user'), 401);
      const notMine = await sessionFor(t, ada.id);
      assertError(await withCookie(t.app, here, 'DELETE', `/v1/user/sessions/${notMine.id}`, { headers: { 'x-csrf-token': here.csrf } }), 404);

      const third = await sessionFor(t, bob.id);
      const everywhere = await withCookie(t.app, here, 'DELETE', '/v1/user/sessions?keepCurrent=true', { headers: { 'x-csrf-token': here.csrf } });
      assert.ok(everywhere.body.ended >= 1);
      assertError(await withCookie(t.app, third, 'GET', '/v1/user'), 401);
      assert.equal((await withCookie(t.app, here, 'GET', '/v1/user')).status, 200);
      await withCookie(t.app, here, 'DELETE', '/v1/user/sessions', { headers: { 'x-csrf-token': here.csrf } });
      assertError(await withCookie(t.app, here, 'GET', '/v1/user'), 401);
    });

    it('POST /sign-out ends the session with the form\'s _csrf, and refuses a form without it', async () => {
      const session = await sessionFor(t, ada.id);
      const form = (body: string) =>
        t.app.inject({ method: 'POST', url: '/sign-out', headers: { cookie: session.cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: body });
      const forged = await form('x=1');
      assert.equal(forged.statusCode, 403);
      assert.match(forged.json().error.message, /CSRF/);
      assert.equal((await withCookie(t.app, session, 'GET', '/v1/user')).status, 200, 'still signed in');
      const out = await form(`_csrf=${encodeURIComponent(session.csrf)}`);
      assert.equal(out.statusCode, 303);
      assert.equal(out.headers.location, '/sign-in?signedOut=1');
      assert.match(String(out.headers['set-cookie']), /Max-Age=0/);
      assertError(await withCookie(t.app, session, 'GET', '/v1/user'), 401);
    });

    it('a session ended on one process is refused by another at once (no cache)', async () => {
      const peer = await t.peer();
      try {
        const session = await sessionFor(t, ada.id);
        assert.equal((await withCookie(peer.app, session, 'GET', '/v1/user')).status, 200, 'the other process knows it');
        const ended = await withCookie(t.app, session, 'DELETE', `/v1/user/sessions/${session.id}`, { headers: { 'x-csrf-token': session.csrf } });
        assert.equal(ended.status, 205);
        assertError(await withCookie(peer.app, session, 'GET', '/v1/user'), 401, 'session has ended');
      } finally {
        await peer.close();
      }
    });
  });
}

describe('the session cookie behind https', () => {
  it('is named __Host-quire_session and Secure', async () => {
    const { serializeCookie, sessionCookieName } = await import('../../src/sessions/cookie.ts');
    const config = { publicUrl: 'https://docs.example.com' };
    assert.equal(sessionCookieName(config), '__Host-quire_session');
    assert.equal(serializeCookie(config, sessionCookieName(config), 'x'), '__Host-quire_session=x; Path=/; HttpOnly; SameSite=Lax; Secure');
  });
});
