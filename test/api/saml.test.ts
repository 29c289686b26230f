import assert from 'node:assert/strict';
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { nowIso, type Context } from '../../src/context.ts';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';

/** A self-signed certificate for idp.example.com, made once with openssl (valid until 2036). */
const CERTIFICATE = readFileSync(new URL('../fixtures/idp-cert.pem', import.meta.url), 'utf8').trim();
const PRIVATE_KEY = generateKeyPairSync('ec', { namedCurve: 'P-256' }).privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();

async function createTeam(ctx: Context, organizationId: string, title: string, members: Array<{ userId: string; role: 'owner' | 'member' }>): Promise<string> {
  const id = randomUUID();
  await ctx.db.insertInto('teams').values({ id, organization_id: organizationId, title, created_at: nowIso(ctx) }).execute();
  for (const member of members) {
    await ctx.db.insertInto('team_members').values({ team_id: id, user_id: member.userId, role: member.role, added_at: nowIso(ctx) }).execute();
  }
  return id;
}

for (const dialect of dialects) {
  describe(`SAML providers [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let samlUrl: string;
    let teamId: string;
    let otherTeamId: string;
    const countProviders = async () => Number((await t.ctx.db.selectFrom('saml_providers').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const full = () => ({ label: 'Okta', entityID: 'http://www.okta.com/exk1', certificate: CERTIFICATE, ssoURL: 'https://acme.okta.com/app/sso/saml', defaultTeam: teamId, defaultRole: 'edit' });

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      samlUrl = `/v1/orgs/${world.organizationId}/saml`;
      teamId = await createTeam(t.ctx, world.organizationId, 'Engineering', [
        { userId: world.members.edit.id, role: 'owner' },
        { userId: world.members.read.id, role: 'member' },
      ]);
      otherTeamId = await createTeam(t.ctx, world.otherOrganizationId, 'Elsewhere team', []);
    });
    after(() => t.close());

    describe('POST /v1/orgs/{organizationId}/saml', () => {
      it('creates an active provider with its default team, and points at it', async () => {
        t.clock.advance(1000);
        const reply = await world.admin.api.post(samlUrl, full());
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        const id: string = reply.body.id;
        assert.equal(reply.headers.location, `http://quire.test${samlUrl}/${id}`);
        assert.equal(reply.body.object, 'saml-provider');
        assert.equal(reply.body.label, 'Okta');
        assert.equal(reply.body.entityID, 'http://www.okta.com/exk1');
        assert.equal(reply.body.ssoURL, 'https://acme.okta.com/app/sso/saml');
        assert.equal(reply.body.certificate, CERTIFICATE);
        assert.equal(reply.body.defaultRole, 'edit');
        assert.equal(reply.body.status, 'active');
        assert.equal(reply.body.createdAt, t.clock.now().toISOString());
        assert.deepEqual(reply.body.defaultTeam, {
          object: 'team',
          id: teamId,
          title: 'Engineering',
          members: 2,
          spaces: 0,
          createdAt: reply.body.defaultTeam.createdAt,
          permissions: { admin: true, view: true },
        });
        assert.deepEqual(reply.body.service, {
          acsURL: `http://quire.test/sso/saml/${id}/acs`,
          startURL: `http://quire.test/sso/saml/${id}/start`,
          entityID: `http://quire.test/sso/saml/${id}/metadata`,
        });
        assert.deepEqual(reply.body.urls, { location: `http://quire.test${samlUrl}/${id}` });
        assert.deepEqual((await world.admin.api.get(`${samlUrl}/${id}`)).body, reply.body);
      });

      it('creates a pending provider from a label alone, with the organization\'s default role', async () => {
        t.clock.advance(1000);
        const reply = await world.admin.api.post(samlUrl, { label: '  Azure AD  ' });
        assert.equal(reply.status, 201);
        assert.equal(reply.body.label, 'Azure AD');
        assert.equal(reply.body.status, 'pending');
        assert.equal(reply.body.ssoURL, 'about:blank');
        assert.equal(reply.body.entityID, '');
        assert.equal(reply.body.certificate, '');
        assert.equal(reply.body.defaultRole, 'read');
        assert.equal(reply.body.defaultTeam, undefined);
        t.clock.advance(1000);
        const guests = await world.admin.api.post(samlUrl, { label: 'Guests', defaultRole: null, defaultTeam: null, entityID: '', certificate: '', ssoURL: null });
        assert.equal(guests.status, 201);
        assert.equal(guests.body.defaultRole, null);
        assert.equal(guests.body.status, 'pending');
      });

      it('names the field that fails validation, and creates nothing', async () => {
        const before = await countProviders();
        assertError(await world.admin.api.post(samlUrl, {}), 400, '"label"');
        assertError(await world.admin.api.post(samlUrl, { label: '' }), 400, '"label"');
        assertError(await world.admin.api.post(samlUrl, { label: '   ' }), 400, '"label" must not be blank');
        assertError(await world.admin.api.post(samlUrl, { label: 'x'.repeat(31) }), 400, '"label"');
        assertError(await world.admin.api.post(samlUrl, { label: 7 }), 400, '"label"');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', entityID: 'e'.repeat(1025) }), 400, '"entityID"');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', certificate: 'hello' }), 400, '"certificate" must be one X.509 certificate in PEM form');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', certificate: CERTIFICATE.split('\n').slice(1, -1).join('') }), 400, '"certificate"');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', certificate: `${CERTIFICATE}\n${CERTIFICATE}` }), 400, '"certificate"');
        const truncated = `${CERTIFICATE.slice(0, 200)}\n-----END CERTIFICATE-----`;
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', certificate: truncated }), 400, '"certificate" is not a readable X.509 certificate');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', certificate: PRIVATE_KEY }), 400, '"certificate" holds a private key');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', certificate: 'c'.repeat(10001) }), 400, '"certificate"');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', ssoURL: 'not a url' }), 400, '"ssoURL"');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', ssoURL: 'ftp://idp.example.com/sso' }), 400, '"ssoURL" is "ftp://idp.example.com/sso"');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', ssoURL: `https://idp.example.com/${'a'.repeat(2048)}` }), 400, '"ssoURL"');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', defaultTeam: otherTeamId }), 400, `"defaultTeam" names team "${otherTeamId}"`);
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', defaultTeam: 'noteam' }), 400, 'noteam');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', defaultRole: 'owner' }), 400, '"defaultRole"');
        assertError(await world.admin.api.post(samlUrl, { label: 'Okta', colour: 'blue' }), 400, '"colour"');
        assert.equal(await countProviders(), before);
      });

      it('lets only administrators create providers: 403 for members and guests, 404 for outsiders', async () => {
        const before = await countProviders();
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.post(samlUrl, { label: 'Intruder' }), name === 'outsider' ? 404 : 403, name === 'outsider' ? 'No organization' : 'SAML');
        }
        assert.equal(await countProviders(), before);
        assertError(await world.admin.api.post('/v1/orgs/nosuchorg/saml', { label: 'Okta' }), 404, 'nosuchorg');
      });
    });

    describe('GET /v1/orgs/{organizationId}/saml', () => {
      it('lists the providers oldest first, page by page, to administrators', async () => {
        const first = await world.admin.api.get(samlUrl);
        assert.equal(first.status, 200);
        assert.ok(first.body.count >= 3);
        const seen: string[] = [];
        let page: string | undefined;
        do {
          const reply = await world.admin.api.get(`${samlUrl}?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          assert.equal(reply.status, 200);
          assert.ok(reply.body.items.length <= 2);
          seen.push(...reply.body.items.map((p: { id: string }) => p.id));
          page = reply.body.next?.page;
        } while (page);
        assert.deepEqual(seen, first.body.items.map((p: { id: string }) => p.id));
        assert.equal(seen.length, first.body.count);
        assert.deepEqual(first.body.items.slice(0, 3).map((p: { label: string }) => p.label), ['Okta', 'Azure AD', 'Guests'], 'the oldest comes first');
        assert.equal(first.body.items[0].defaultTeam.id, teamId);
      });

      it('shows no provider of another organization, and refuses a bad cursor or limit', async () => {
        const elsewhere = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/saml`, { label: 'Elsewhere IdP' });
        assert.equal(elsewhere.status, 201);
        const mine = await world.admin.api.get(samlUrl);
        assert.ok(!mine.body.items.some((p: { id: string }) => p.id === elsewhere.body.id));
        const theirs = await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/saml`);
        assert.deepEqual(theirs.body.items.map((p: { id: string }) => p.id), [elsewhere.body.id]);
        assertError(await world.admin.api.get(`${samlUrl}?page=garbage`), 400, 'page');
        assertError(await world.admin.api.get(`${samlUrl}?limit=1001`), 400, 'limit');
      });

      it('refuses members and guests with 403, outsiders with 404', async () => {
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(samlUrl);
          if (name === 'admin') assert.equal(reply.status, 200);
          else assertError(reply, name === 'outsider' ? 404 : 403);
        }
      });
    });

    describe('GET /v1/orgs/{organizationId}/saml/{samlProviderId}', () => {
      it('answers administrators only, and 404 for a provider that is missing or of another organization', async () => {
        const created = await world.admin.api.post(samlUrl, { label: 'Readable' });
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(`${samlUrl}/${created.body.id}`);
          if (name === 'admin') assert.equal(reply.body.id, created.body.id);
          else assertError(reply, name === 'outsider' ? 404 : 403);
        }
        assertError(await world.admin.api.get(`${samlUrl}/nosuchprovider`), 404, 'No SAML provider "nosuchprovider"');
        const elsewhere = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/saml`, { label: 'Theirs' });
        assertError(await world.admin.api.get(`${samlUrl}/${elsewhere.body.id}`), 404, 'SAML provider');
      });

      it('shows the default team with the caller\'s own rights in it, and forgets a team that was deleted', async () => {
        const team = await createTeam(t.ctx, world.organizationId, 'Short-lived', []);
        const created = await world.admin.api.post(samlUrl, { label: 'With team', defaultTeam: team });
        assert.equal(created.body.defaultTeam.members, 0);
        await t.ctx.db.deleteFrom('teams').where('id', '=', team).execute();
        const reply = await world.admin.api.get(`${samlUrl}/${created.body.id}`);
        assert.equal(reply.status, 200);
        assert.equal(reply.body.defaultTeam, undefined);
      });
    });

    describe('PATCH /v1/orgs/{organizationId}/saml/{samlProviderId}', () => {
      it('completes a pending provider into an active one, and clears members with null or ""', async () => {
        const created = await world.admin.api.post(samlUrl, { label: 'Pending' });
        const url = `${samlUrl}/${created.body.id}`;
        const { label: _label, ...rest } = full();
        const completed = await world.admin.api.patch(url, { ...rest, label: 'Completed' });
        assert.equal(completed.status, 200, JSON.stringify(completed.body));
        assert.equal(completed.body.status, 'active');
        assert.equal(completed.body.label, 'Completed');
        assert.equal(completed.body.defaultTeam.id, teamId);
        assert.equal(completed.body.createdAt, created.body.createdAt);
        const pasted = await world.admin.api.patch(url, { certificate: `\r\n  ${CERTIFICATE.replace(/\n/g, '\r\n')}\r\n` });
        assert.equal(pasted.body.certificate, CERTIFICATE, 'a certificate is kept in canonical PEM form');
        const unchanged = await world.admin.api.patch(url, {});
        assert.deepEqual(unchanged.body, completed.body);
        const cleared = await world.admin.api.patch(url, { entityID: '', certificate: null, ssoURL: null, defaultTeam: null, defaultRole: null });
        assert.equal(cleared.status, 200);
        assert.equal(cleared.body.status, 'pending');
        assert.equal(cleared.body.entityID, '');
        assert.equal(cleared.body.certificate, '');
        assert.equal(cleared.body.ssoURL, 'about:blank');
        assert.equal(cleared.body.defaultTeam, undefined);
        assert.equal(cleared.body.defaultRole, null);
        const { object: _o, id: _i, createdAt: _c, status: _s, service: _v, urls: _u, ...sentBack } = cleared.body;
        const roundTrip = await world.admin.api.patch(url, sentBack);
        assert.equal(roundTrip.status, 200, 'an answer can be sent back unchanged');
        assert.deepEqual(roundTrip.body, cleared.body);
        assert.deepEqual((await world.admin.api.get(url)).body, cleared.body);
      });

      it('names the field that fails validation, and changes nothing', async () => {
        const created = await world.admin.api.post(samlUrl, full());
        const url = `${samlUrl}/${created.body.id}`;
        assertError(await world.admin.api.patch(url, { label: '' }), 400, '"label"');
        assertError(await world.admin.api.patch(url, { label: 'Renamed', certificate: 'nope' }), 400, '"certificate"');
        assertError(await world.admin.api.patch(url, { label: 'Renamed', ssoURL: 'mailto:sso@example.com' }), 400, '"ssoURL"');
        assertError(await world.admin.api.patch(url, { label: 'Renamed', defaultTeam: otherTeamId }), 400, '"defaultTeam"');
        assertError(await world.admin.api.patch(url, { defaultRole: 'guest' }), 400, '"defaultRole"');
        assertError(await world.admin.api.patch(url, { entityID: 5 }), 400, '"entityID"');
        assertError(await world.admin.api.patch(url, { object: 'saml-provider' }), 400, '"object"');
        assert.deepEqual((await world.admin.api.get(url)).body, created.body);
      });

      it('lets only administrators change a provider, and answers 404 for one that is missing', async () => {
        const created = await world.admin.api.post(samlUrl, { label: 'Guarded' });
        const url = `${samlUrl}/${created.body.id}`;
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.patch(url, { label: 'Taken over' }), name === 'outsider' ? 404 : 403);
        }
        assert.equal((await world.admin.api.get(url)).body.label, 'Guarded');
        assertError(await world.admin.api.patch(`${samlUrl}/nosuchprovider`, { label: 'x' }), 404, 'nosuchprovider');
        const elsewhere = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/saml`, { label: 'Theirs' });
        assertError(await world.admin.api.patch(`${samlUrl}/${elsewhere.body.id}`, { label: 'Mine now' }), 404);
        assert.equal((await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/saml/${elsewhere.body.id}`)).body.label, 'Theirs');
      });
    });

    describe('DELETE /v1/orgs/{organizationId}/saml/{samlProviderId}', () => {
      it('answers 205 when it deletes, then 204 when there is nothing to delete', async () => {
        const created = await world.admin.api.post(samlUrl, { label: 'Doomed' });
        const url = `${samlUrl}/${created.body.id}`;
        const deleted = await world.admin.api.delete(url);
        assert.equal(deleted.status, 205);
        assert.equal(deleted.body, undefined);
        assertError(await world.admin.api.get(url), 404);
        const again = await world.admin.api.delete(url);
        assert.equal(again.status, 204);
        assert.equal(again.body, undefined);
      });

      it('lets only administrators delete, and never reaches into another organization', async () => {
        const created = await world.admin.api.post(samlUrl, { label: 'Kept' });
        const url = `${samlUrl}/${created.body.id}`;
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.delete(url), name === 'outsider' ? 404 : 403);
        }
        assert.equal((await world.admin.api.get(url)).status, 200);
        const elsewhere = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/saml`, { label: 'Theirs' });
        assert.equal((await world.admin.api.delete(`${samlUrl}/${elsewhere.body.id}`)).status, 204);
        assert.equal((await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/saml/${elsewhere.body.id}`)).status, 200);
      });
    });

    describe('GET /v1/orgs/{organizationId}/sso', () => {
      it('lists the active providers to every member and guest, and hides the organization from outsiders', async () => {
        const fresh = await createWorld(t.ctx, t.app, t.clock);
        const url = `/v1/orgs/${fresh.organizationId}/saml`;
        assert.deepEqual((await fresh.guest.api.get(`/v1/orgs/${fresh.organizationId}/sso`)).body, { items: [] });
        t.clock.advance(1000);
        const active = await fresh.admin.api.post(url, { ...full(), label: 'Okta', defaultTeam: undefined });
        t.clock.advance(1000);
        await fresh.admin.api.post(url, { label: 'Half done', ssoURL: 'https://idp.example.com/sso', entityID: 'idp' });
        t.clock.advance(1000);
        const second = await fresh.admin.api.post(url, { ...full(), label: 'Google', defaultTeam: undefined });
        const expected = {
          items: [
            { id: active.body.id, label: 'Okta', startURL: `http://quire.test/sso/saml/${active.body.id}/start` },
            { id: second.body.id, label: 'Google', startURL: `http://quire.test/sso/saml/${second.body.id}/start` },
          ],
        };
        for (const [name, user] of cast(fresh)) {
          const reply = await user.api.get(`/v1/orgs/${fresh.organizationId}/sso`);
          if (name === 'outsider') assertError(reply, 404, 'No organization');
          else assert.deepEqual(reply.body, expected, name);
        }
        assertError(await world.admin.api.get(`/v1/orgs/${fresh.organizationId}/sso`), 404);
      });
    });
  });
}
