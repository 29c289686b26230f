import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { createOrganization } from '../../src/modules/orgs/service.ts';
import { issueApiToken } from '../../src/modules/users/service.ts';

for (const dialect of dialects) {
  describe(`organizations [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let orgUrl: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      orgUrl = `/v1/orgs/${world.organizationId}`;
    });
    after(() => t.close());

    describe('GET /v1/orgs/{organizationId}', () => {
      it('answers every member and guest, with permissions from their role', async () => {
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(orgUrl);
          if (name === 'outsider') {
            assertError(reply, 404, 'No organization');
            continue;
          }
          assert.equal(reply.status, 200, name);
          assert.equal(reply.body.object, 'organization');
          assert.equal(reply.body.id, world.organizationId);
          assert.equal(reply.body.title, 'Acme Docs');
          assert.equal(reply.body.permissions.admin, name === 'admin', name);
          assert.equal(reply.body.permissions.createContent, name === 'admin' || name === 'create', name);
          assert.equal(reply.body.permissions.listMembers, name !== 'guest', name);
          assert.equal(reply.body.urls.location, `http://quire.test${orgUrl}`);
        }
      });

      it('says ownTeam only to owners of a team, in the organization and in the list', async () => {
        const reader = world.members.read;
        const team = await world.admin.api.put(`${orgUrl}/teams`, { title: 'Writers', members: [world.members.comment.id] });
        assert.equal(team.status, 201);
        const ownTeam = async () => [
          (await reader.api.get(orgUrl)).body.permissions.ownTeam,
          (await reader.api.get('/v1/orgs')).body.items.find((o: { id: string }) => o.id === world.organizationId).permissions.ownTeam,
        ];
        assert.deepEqual(await ownTeam(), [false, false]);
        assert.equal((await world.admin.api.put(`${orgUrl}/teams/${team.body.id}/members/${reader.id}`, { role: 'owner' })).status, 204);
        assert.deepEqual(await ownTeam(), [true, true]);
        assert.equal((await world.members.comment.api.get(orgUrl)).body.permissions.ownTeam, false, 'a plain team member owns nothing');
        assert.equal((await world.admin.api.delete(`${orgUrl}/teams/${team.body.id}`)).status, 205);
        assert.deepEqual(await ownTeam(), [false, false]);
      });

      it('answers 404 for an organization that does not exist, and 401 without a valid token', async () => {
        assertError(await world.admin.api.get('/v1/orgs/nope'), 404);
        assertError(await client(t.app).get(orgUrl), 401, 'Bearer');
        assertError(await client(t.app, 'qrt_forged').get(orgUrl), 401, 'not valid');
        assertError(await client(t.app).raw('GET', orgUrl, undefined, { authorization: 'Basic abc' }), 401, 'Bearer <token>');
      });
    });

    describe('GET /v1/orgs', () => {
      it('lists the organizations of the caller only', async () => {
        const reply = await world.members.read.api.get('/v1/orgs');
        assert.equal(reply.status, 200);
        assert.deepEqual(reply.body.items.map((o: { id: string }) => o.id), [world.organizationId]);
        assert.equal(reply.body.count, 1);
        const outsider = await world.outsider.api.get('/v1/orgs');
        assert.deepEqual(outsider.body.items.map((o: { id: string }) => o.id), [world.otherOrganizationId]);
      });

      it('walks every organization once with next.page, even while organizations are added', async () => {
        const owner = world.outsider;
        for (let i = 0; i < 5; i++) {
          t.clock.advance(1000);
          await createOrganization(t.ctx, { title: `Org ${i}`, ownerEmail: owner.email });
        }
        const seen: string[] = [];
        let page: string | undefined;
        let added = false;
        do {
          const reply = await owner.api.get(`/v1/orgs?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          assert.equal(reply.status, 200);
          assert.ok(reply.body.items.length <= 2);
          seen.push(...reply.body.items.map((o: { id: string }) => o.id));
          page = reply.body.next?.page;
          if (!added) {
            t.clock.advance(1000);
            await createOrganization(t.ctx, { title: 'Added while walking', ownerEmail: owner.email });
            added = true;
          }
        } while (page);
        assert.equal(seen.length, 7, 'the first organization, five more and the one added while walking');
        assert.equal(new Set(seen).size, seen.length, 'no organization is visited twice');
      });

      it('refuses a forged or corrupted cursor, a cursor from another listing, and a limit above 1000', async () => {
        assertError(await world.admin.api.get('/v1/orgs?page=garbage'), 400, 'page');
        const first = await world.outsider.api.get('/v1/orgs?limit=1');
        const cursor: string = first.body.next.page;
        const [payload, signature] = cursor.split('.');
        const forged = Buffer.from(JSON.stringify(['2000-01-01T00:00:00.000Z', 'x'])).toString('base64url');
        assertError(await world.outsider.api.get(`/v1/orgs?page=${forged}.${signature}`), 400, 'page');
        assertError(await world.outsider.api.get(`/v1/orgs?page=${payload}.${signature.slice(0, -2)}xx`), 400);
        assertError(await world.admin.api.get(`/v1/orgs?page=${encodeURIComponent(cursor)}`), 400, 'page');
        assertError(await world.admin.api.get('/v1/orgs?limit=1001'), 400, 'limit');
        assertError(await world.admin.api.get('/v1/orgs?limit=ten'), 400, 'limit');
      });
    });

    describe('PATCH /v1/orgs/{organizationId}', () => {
      it('lets an admin change every setting', async () => {
        const reply = await world.admin.api.patch(orgUrl, {
          title: 'Acme Documentation',
          emailDomains: ['Acme.test', 'acme.example'],
          hostname: 'acme-docs',
          defaultRole: 'comment',
          logo: 'https://cdn.example.com/logo.png',
          sso: true,
          ai: true,
          inviteLinks: false,
        });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.title, 'Acme Documentation');
        assert.deepEqual(reply.body.emailDomains, ['acme.example', 'acme.test']);
        assert.equal(reply.body.hostname, 'acme-docs');
        assert.equal(reply.body.defaultRole, 'comment');
        assert.equal(reply.body.urls.logo, 'https://cdn.example.com/logo.png');
        assert.equal(reply.body.sso, true);
        assert.equal(reply.body.ai, true);
        assert.equal(reply.body.inviteLinks, false);
        const read = await world.members.read.api.get(orgUrl);
        assert.equal(read.body.title, 'Acme Documentation');
        const cleared = await world.admin.api.patch(orgUrl, { logo: null, defaultRole: null, defaultContent: null });
        assert.equal(cleared.status, 200);
        assert.equal(cleared.body.urls.logo, undefined);
        assert.equal(cleared.body.defaultRole, null);
      });

      it('refuses every other role with 403 and an outsider with 404', async () => {
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.patch(orgUrl, { title: 'Taken over' }), name === 'outsider' ? 404 : 403);
        }
        assert.equal((await world.admin.api.get(orgUrl)).body.title, 'Acme Documentation');
      });

      it('names the field that fails validation', async () => {
        assertError(await world.admin.api.patch(orgUrl, { title: 'A' }), 400, '"title"');
        assertError(await world.admin.api.patch(orgUrl, { title: 12 }), 400, '"title"');
        assertError(await world.admin.api.patch(orgUrl, { colour: 'red' }), 400, '"colour"');
        assertError(await world.admin.api.patch(orgUrl, { hostname: 'Not A Host' }), 400, '"hostname"');
        assertError(await world.admin.api.patch(orgUrl, { emailDomains: ['not a domain'] }), 400, 'emailDomains');
        assertError(await world.admin.api.patch(orgUrl, { defaultRole: 'owner' }), 400, 'defaultRole');
        assertError(await world.admin.api.patch(orgUrl, { logo: 'not a url' }), 400, 'logo');
        assertError(await world.admin.api.patch(orgUrl, { defaultContent: { type: 'site', site: 'nosuchsite' } }), 400, 'nosuchsite');
        assertError(await world.admin.api.patch(orgUrl, '{"title": "x"'), 400, 'not valid JSON');
        assert.equal((await world.admin.api.get(orgUrl)).body.title, 'Acme Documentation', 'a refused patch changes nothing');
      });

      it('refuses a hostname another organization holds, with 409, and changes nothing', async () => {
        const other = await world.outsider.api.patch(`/v1/orgs/${world.otherOrganizationId}`, { hostname: 'taken-host' });
        assert.equal(other.status, 200);
        assertError(await world.admin.api.patch(orgUrl, { hostname: 'taken-host', title: 'Should not stick' }), 409, 'taken-host');
        assert.equal((await world.admin.api.get(orgUrl)).body.title, 'Acme Documentation');
      });
    });

    describe('GET /v1/email-domains/{emailDomain}/orgs', () => {
      it('shows organizations of the caller\'s own domain, and those the caller belongs to', async () => {
        await world.admin.api.patch(orgUrl, { emailDomains: ['acme.test'] });
        const { organization, owner } = await createOrganization(t.ctx, { title: 'Stranger', ownerEmail: `someone@acme.test` });
        const token = await issueApiToken(t.ctx, owner.id);
        const stranger = client(t.app, token);
        const own = await stranger.get('/v1/email-domains/acme.test/orgs');
        assert.equal(own.status, 200);
        assert.deepEqual(own.body.organizations.map((o: { id: string }) => o.id), [world.organizationId]);
        assert.equal(own.body.organizations[0].permissions.admin, false);
        const member = await world.members.read.api.get('/v1/email-domains/ACME.test/orgs');
        assert.deepEqual(member.body.organizations.map((o: { id: string }) => o.id), [world.organizationId]);
        const other = await world.outsider.api.get('/v1/email-domains/acme.test/orgs');
        assert.deepEqual(other.body.organizations, []);
        assert.ok(organization.id);
      });
    });
  });
}

describe('HTTP contract', () => {
  let t: TestApp;
  let world: World;
  before(async () => {
    t = await createTestApp('sqlite', { QUIRE_BODY_LIMIT: '2048' });
    world = await createWorld(t.ctx, t.app);
  });
  after(() => t.close());

  it('answers unknown routes with a 404 error body', async () => {
    assertError(await world.admin.api.get('/v1/nothing-here'), 404, '/openapi.json');
    assertError(await client(t.app).get('/nothing'), 404);
  });

  it('refuses a body over the size limit with 413', async () => {
    assertError(await world.admin.api.patch(`/v1/orgs/${world.organizationId}`, { title: 'x'.repeat(5000) }), 413, 'larger');
  });

  it('serves health, readiness and its own OpenAPI document without a token', async () => {
    assert.equal((await client(t.app).get('/healthz')).status, 200);
    assert.deepEqual((await client(t.app).get('/readyz')).body, { status: 'ready' });
    const doc = await client(t.app).get('/openapi.json');
    assert.equal(doc.status, 200);
    assert.ok(doc.body.paths['/v1/orgs/{organizationId}'].patch);
    // The client's `GET /` (getApiInformation) is declared where the client calls it: `/v1/`.
    assert.equal(doc.body.paths['/v1/']?.get?.operationId, 'getApiInformation', Object.keys(doc.body.paths).filter((p) => p.length < 5).join(', '));
    assert.equal((await world.admin.api.get('/v1')).status, 200, 'answered without the slash too');
    const page = await t.app.inject({ method: 'GET', url: '/docs/' });
    assert.equal(page.statusCode, 200);
    assert.match(page.body, /swagger/i);
  });
});
