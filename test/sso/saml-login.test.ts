import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { nowIso } from '../../src/context.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { IDP_CERT, readAuthnRequest, TestIdp, type IdpMode } from './saml-idp.ts';
import { freePort, launchChromium, startQuire, type ListeningQuire } from './support.ts';
import { needs } from '../helpers/system.ts';
import { dialects } from '../helpers/app.ts';

/**
 * SAML 2.0 sign-in in Chromium, through an organization's SAML provider object (made with the API, its
 * `service.startURL` opened as the SSO list hands it out) and a real local IdP that signs its assertions
 * with a test key. The tampered answers are refused: unsigned, for another audience or recipient, expired,
 * replayed.
 */
for (const dialect of dialects) describe(`SAML sign-in in a browser [${dialect}]`, { skip: needs('chromium') }, () => {
  let q: ListeningQuire;
  let world: World;
  let idp: TestIdp;
  let browser: Browser;
  let provider: { id: string; service: { startURL: string; acsURL: string; entityID: string } };
  let teamId: string;

  before(async () => {
    q = await startQuire({}, dialect);
    world = await createWorld(q.t.ctx, q.t.app, q.t.clock);
    idp = new TestIdp();
    await idp.start(await freePort());
    teamId = randomUUID();
    await q.t.ctx.db.insertInto('teams').values({ id: teamId, organization_id: world.organizationId, title: 'Writers', created_at: nowIso(q.t.ctx) }).execute();
    const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/saml`, {
      label: 'Acme IdP',
      ssoURL: `${idp.url}/sso`,
      entityID: idp.entityID,
      certificate: IDP_CERT,
      defaultRole: 'edit',
      defaultTeam: teamId,
    });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    provider = created.body;
    browser = await launchChromium();
  });
  after(async () => {
    await browser?.close();
    await idp?.stop();
    await q?.t.close();
  });

  /** Opens the provider's start URL in a fresh browser, goes through the IdP's page, and answers where the browser landed. */
  async function signIn(mode: IdpMode, page?: Page): Promise<{ page: Page; status: number | undefined; text: string }> {
    idp.mode = mode;
    const tab = page ?? (await (await browser.newContext()).newPage());
    await tab.goto(`${provider.service.startURL}?returnTo=${encodeURIComponent('/after/sign-in?x=1')}`);
    assert.equal(new URL(tab.url()).origin, idp.url, 'the start URL leads to the identity provider');
    const [response] = await Promise.all([tab.waitForNavigation(), tab.getByRole('button', { name: 'Continue to Quire' }).click()]);
    return { page: tab, status: response?.status(), text: await tab.locator('body').innerText() };
  }

  it('lists the provider with a start URL that signs a newcomer in, with the default role and team', async () => {
    const sso = await world.members.read.api.get(`/v1/orgs/${world.organizationId}/sso`);
    assert.deepEqual(sso.body.items, [{ id: provider.id, label: 'Acme IdP', startURL: provider.service.startURL }]);

    idp.email = 'ada@acme.test';
    const { page } = await signIn('good');
    const landed = new URL(page.url());
    assert.equal(landed.origin, q.base);
    assert.equal(landed.pathname + landed.search, '/after/sign-in?x=1');
    const session = await page.request.get(`${q.base}/auth/session`);
    assert.equal(session.status(), 200);
    assert.equal((await session.json()).user.email, 'ada@acme.test');
    const user = await q.t.ctx.db.selectFrom('users').selectAll().where('email', '=', 'ada@acme.test').executeTakeFirstOrThrow();
    assert.equal(user.display_name, 'Ada Lovelace');
    const member = await q.t.ctx.db.selectFrom('members').selectAll().where('organization_id', '=', world.organizationId).where('user_id', '=', user.id).executeTakeFirstOrThrow();
    assert.equal(member.role, 'edit');
    assert.equal(member.sso, 1);
    const team = await q.t.ctx.db.selectFrom('team_members').selectAll().where('team_id', '=', teamId).where('user_id', '=', user.id).executeTakeFirst();
    assert.ok(team, 'the first sign-in joins the default team');
    const used = await q.t.ctx.db.selectFrom('saml_used_assertions').selectAll().where('provider_id', '=', provider.id).execute();
    assert.deepEqual(used.map((row) => row.assertion_id), [idp.assertionIds.at(-1)]);
    await page.context().close();
  });

  it('a member keeps their role: a second sign-in changes nothing', async () => {
    idp.email = world.members.read.email;
    const { page } = await signIn('good');
    assert.equal(new URL(page.url()).pathname, '/after/sign-in');
    const member = await q.t.ctx.db.selectFrom('members').selectAll().where('organization_id', '=', world.organizationId).where('user_id', '=', world.members.read.id).executeTakeFirstOrThrow();
    assert.equal(member.role, 'read');
    await page.context().close();
  });

  for (const [mode, words] of [
    ['unsigned', 'not signed with the certificate'],
    ['wrong-audience', 'wrong audience'],
    ['expired', 'outside its time of validity'],
    ['wrong-recipient', 'recipient is not'],
    ['replay', 'does not belong to the sign-in this browser started'],
  ] as const) {
    it(`refuses an answer that is ${mode}`, async () => {
      idp.email = `eve-${mode}@acme.test`;
      const { page, status, text } = await signIn(mode);
      assert.equal(new URL(page.url()).pathname, `/sso/saml/${provider.id}/acs`);
      assert.ok(status === 400 || status === 403, `status ${status}`);
      assert.match(text, /Sign-in refused/);
      assert.ok(text.includes(words), text);
      if (mode !== 'replay') assert.equal(await q.t.ctx.db.selectFrom('users').select('id').where('email', '=', idp.email).executeTakeFirst(), undefined);
      assert.equal((await page.request.get(`${q.base}/auth/session`)).status(), 401, 'no session');
      await page.context().close();
    });
  }

  it('refuses an assertion already used, even when its login is still open on another process', async () => {
    idp.mode = 'good';
    idp.email = world.members.comment.email;
    const start = await q.t.app.inject({ method: 'GET', url: `/sso/saml/${provider.id}/start` });
    assert.equal(start.statusCode, 302);
    const cookie = String(start.headers['set-cookie']).split(';')[0];
    const request = readAuthnRequest(new URL(String(start.headers.location)).searchParams.get('SAMLRequest')!);
    const flow = await q.t.ctx.db.selectFrom('sso_flows').selectAll().where('state', '=', request.id).executeTakeFirstOrThrow();
    const samlResponse = idp.respond(request);
    const post = () =>
      q.t.app.inject({ method: 'POST', url: `/sso/saml/${provider.id}/acs`, headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' }, payload: new URLSearchParams({ SAMLResponse: samlResponse }).toString() });
    const first = await post();
    assert.equal(first.statusCode, 303, first.body);
    // As if a second process still held the login record when the same answer reached it.
    await q.t.ctx.db.insertInto('sso_flows').values(flow).execute();
    const second = await post();
    assert.equal(second.statusCode, 400);
    assert.match(second.body, /already been used/);
    assert.equal(second.headers['content-security-policy']?.toString().includes("default-src 'none'"), true);
  });

  it('refuses an answer in a browser that started no sign-in', async () => {
    const reply = await q.t.app.inject({ method: 'POST', url: `/sso/saml/${provider.id}/acs`, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'SAMLResponse=PHg%2BPC94Pg%3D%3D' });
    assert.equal(reply.statusCode, 400);
    assert.match(reply.body, /no sign-in under way/);
  });

  it('serves its metadata with the entity ID and ACS URL the provider object names', async () => {
    const reply = await q.t.app.inject({ method: 'GET', url: `/sso/saml/${provider.id}/metadata` });
    assert.equal(reply.statusCode, 200);
    assert.match(String(reply.headers['content-type']), /samlmetadata\+xml/);
    assert.ok(reply.body.includes(`entityID="${provider.service.entityID}"`));
    assert.ok(reply.body.includes(`Location="${provider.service.acsURL}"`));
  });

  it('logs, audits and answers no assertion, no SAML answer and no flow cookie (trace level included)', async () => {
    const rows = await q.t.ctx.db.selectFrom('audit_log').selectAll().execute();
    assert.ok(rows.some((row) => row.operation === 'signIn' && JSON.parse(row.object_ids).signInMethod === 'saml'), 'the sign-ins are audited with their method');
    const audit = JSON.stringify(rows);
    for (const id of idp.assertionIds) assert.ok(!audit.includes(id));
    const text = q.log.text;
    assert.ok(q.log.lines.length > 0);
    assert.ok(idp.lastGoodResponse && !text.includes(idp.lastGoodResponse.slice(0, 40)));
    for (const id of idp.assertionIds) assert.ok(!text.includes(id), `assertion id ${id} logged`);
    assert.ok(!/SAMLResponse=/.test(text));
    assert.ok(!text.includes('quire_sso_flow='));
  });
});
