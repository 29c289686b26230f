import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { IDP_CERT, readAuthnRequest, TestIdp } from './saml-idp.ts';

/**
 * The SAML answer on both databases, without a browser: the login record bound to the cookie, the
 * assertion accepted once (saml_used_assertions), the first sign-in's membership.
 */
for (const dialect of dialects) {
  describe(`SAML answers [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let providerId: string;
    const idp = new TestIdp();

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/saml`, { label: 'IdP', ssoURL: 'https://idp.quire.test/sso', entityID: idp.entityID, certificate: IDP_CERT, defaultRole: 'review' });
      providerId = created.body.id;
    });
    after(() => t.close());

    async function start(): Promise<{ cookie: string; samlResponse: string }> {
      const reply = await t.app.inject({ method: 'GET', url: `/sso/saml/${providerId}/start?returnTo=%2Fo%2Fdocs` });
      assert.equal(reply.statusCode, 302);
      const location = new URL(String(reply.headers.location));
      assert.equal(location.origin + location.pathname, 'https://idp.quire.test/sso');
      return { cookie: String(reply.headers['set-cookie']).split(';')[0], samlResponse: idp.respond(readAuthnRequest(location.searchParams.get('SAMLRequest')!)) };
    }
    const post = (cookie: string, samlResponse: string) =>
      t.app.inject({ method: 'POST', url: `/sso/saml/${providerId}/acs`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: '' }).toString() });

    it('accepts a signed answer once, and the newcomer joins with the default role', async () => {
      idp.mode = 'good';
      idp.email = 'newcomer@idp.test';
      const { cookie, samlResponse } = await start();
      const flow = await t.ctx.db.selectFrom('sso_flows').selectAll().executeTakeFirstOrThrow();
      const first = await post(cookie, samlResponse);
      assert.equal(first.statusCode, 303, first.body);
      assert.equal(first.headers.location, '/o/docs');
      const user = await t.ctx.db.selectFrom('users').select('id').where('email', '=', 'newcomer@idp.test').executeTakeFirstOrThrow();
      const member = await t.ctx.db.selectFrom('members').selectAll().where('user_id', '=', user.id).where('organization_id', '=', world.organizationId).executeTakeFirstOrThrow();
      assert.equal(member.role, 'review');
      assert.equal(await t.ctx.db.selectFrom('sso_flows').select('id_hash').executeTakeFirst(), undefined, 'the login record is used up');
      // The same answer again: with the record gone, and with the record restored (another process's view).
      assert.match((await post(cookie, samlResponse)).body, /no sign-in under way/);
      await t.ctx.db.insertInto('sso_flows').values(flow).execute();
      const replayed = await post(cookie, samlResponse);
      assert.equal(replayed.statusCode, 400);
      assert.match(replayed.body, /already been used/);
    });

    it('/sign-in/sso finds the providers by the address\'s domain or the organization, as links to their start URLs', async () => {
      assert.equal((await world.admin.api.patch(`/v1/orgs/${world.organizationId}`, { emailDomains: ['idp-choice.test'] })).status, 200);
      const oidc = await world.admin.api.post(`/v1/orgs/${world.organizationId}/oidc`, { label: 'Acme ID', issuer: 'https://id.idp-choice.test', clientId: 'quire' });
      const form = await t.app.inject({ method: 'GET', url: '/sign-in/sso?returnTo=%2Fo%2Fx' });
      assert.equal(form.statusCode, 200);
      assert.match(String(form.headers['content-security-policy']), /default-src 'none'/);
      assert.ok(!/<script|style=/.test(form.body));
      const ask = (fields: Record<string, string>) =>
        t.app.inject({ method: 'POST', url: '/sign-in/sso', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ returnTo: '/o/x', ...fields }).toString() });
      for (const fields of [{ email: 'someone@IDP-choice.test' }, { organization: world.organizationId }] as Array<Record<string, string>>) {
        const page = await ask(fields);
        assert.equal(page.statusCode, 200);
        assert.ok(page.body.includes(`href="http://quire.test/sso/saml/${providerId}/start?returnTo=%2Fo%2Fx"`), page.body);
        assert.ok(page.body.includes(`href="http://quire.test/sso/oidc/${oidc.body.id}/start?returnTo=%2Fo%2Fx"`));
      }
      assert.match((await ask({ email: 'someone@nowhere.test' })).body, /No single sign-on is set up/);
    });

    it('refuses to sign in an account that belongs to another organization too', async () => {
      idp.mode = 'good';
      idp.email = world.outsider.email;
      const { cookie, samlResponse } = await start();
      const reply = await post(cookie, samlResponse);
      assert.equal(reply.statusCode, 403);
      assert.match(reply.body, /also belongs to other organizations/);
      assert.equal(await t.ctx.db.selectFrom('members').select('user_id').where('user_id', '=', world.outsider.id).where('organization_id', '=', world.organizationId).executeTakeFirst(), undefined);
    });

    it('refuses an unsigned answer and one for another audience', async () => {
      for (const [mode, words] of [['unsigned', /not signed/], ['wrong-audience', /wrong audience/]] as const) {
        idp.mode = mode;
        const { cookie, samlResponse } = await start();
        const reply = await post(cookie, samlResponse);
        assert.equal(reply.statusCode, 400);
        assert.match(reply.body, words);
      }
    });
  });
}
