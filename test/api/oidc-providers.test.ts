import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { nowIso } from '../../src/context.ts';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';

const SECRET = 'oidc-client-secret-that-must-never-come-back';

for (const dialect of dialects) {
  describe(`OpenID Connect providers [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let url: string;
    let teamId: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      url = `/v1/orgs/${world.organizationId}/oidc`;
      teamId = randomUUID();
      await t.ctx.db.insertInto('teams').values({ id: teamId, organization_id: world.organizationId, title: 'Writers', created_at: nowIso(t.ctx) }).execute();
    });
    after(() => t.close());

    it('creates, reads, lists, updates and deletes a provider; the client secret is sealed and never returned', async () => {
      t.clock.advance(1000);
      const created = await world.admin.api.post(url, { label: 'Acme ID', issuer: 'https://id.acme.test/', clientId: 'quire', clientSecret: SECRET, defaultTeam: teamId, defaultRole: 'edit' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const id: string = created.body.id;
      assert.equal(created.headers.location, `http://quire.test${url}/${id}`);
      assert.equal(created.body.object, 'oidc-provider');
      assert.equal(created.body.issuer, 'https://id.acme.test');
      assert.equal(created.body.clientId, 'quire');
      assert.equal(created.body.hasClientSecret, true);
      assert.deepEqual(created.body.scopes, ['openid', 'email', 'profile']);
      assert.equal(created.body.defaultRole, 'edit');
      assert.equal(created.body.defaultTeam.id, teamId);
      assert.deepEqual(created.body.service, { startURL: `http://quire.test/sso/oidc/${id}/start`, redirectURL: `http://quire.test/sso/oidc/${id}/callback` });
      assert.ok(!JSON.stringify(created.body).includes(SECRET));

      const row = await t.ctx.db.selectFrom('oidc_providers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      assert.ok(row.client_secret && !row.client_secret.includes(SECRET), 'the secret is stored sealed');
      assert.equal(t.ctx.secrets.decrypt(row.client_secret).toString(), SECRET);

      for (const reply of [await world.admin.api.get(`${url}/${id}`), await world.admin.api.get(url)]) {
        assert.equal(reply.status, 200);
        assert.ok(!JSON.stringify(reply.body).includes(SECRET));
      }
      assert.deepEqual((await world.admin.api.get(url)).body.items.map((p: { id: string }) => p.id), [id]);

      const updated = await world.admin.api.patch(`${url}/${id}`, { scopes: ['email', 'groups'], clientSecret: null, defaultTeam: null, defaultRole: 'read' });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
      assert.deepEqual(updated.body.scopes, ['openid', 'email', 'groups']);
      assert.equal(updated.body.hasClientSecret, false);
      assert.equal(updated.body.defaultTeam, undefined);
      assert.equal(updated.body.defaultRole, 'read');

      const sso = await world.guest.api.get(`/v1/orgs/${world.organizationId}/sso`);
      assert.deepEqual(sso.body, { items: [{ id, label: 'Acme ID', startURL: `http://quire.test/sso/oidc/${id}/start` }] });

      const audit = await t.ctx.db.selectFrom('audit_log').selectAll().execute();
      assert.ok(audit.length >= 2, 'the writes are audited');
      assert.ok(!JSON.stringify(audit).includes(SECRET), 'the client secret is not audited');

      assert.equal((await world.admin.api.delete(`${url}/${id}`)).status, 205);
      assert.equal((await world.admin.api.delete(`${url}/${id}`)).status, 204);
      assertError(await world.admin.api.get(`${url}/${id}`), 404, 'No OpenID Connect provider');
    });

    it('refuses what is not an issuer, a team of another organization, and anyone but administrators', async () => {
      assertError(await world.admin.api.post(url, { label: 'X', issuer: 'ftp://id.acme.test', clientId: 'c' }), 400, '"issuer"');
      assertError(await world.admin.api.post(url, { label: 'X', issuer: 'https://id.acme.test/?a=1', clientId: 'c' }), 400, '"issuer"');
      assertError(await world.admin.api.post(url, { label: 'X', issuer: 'https://id.acme.test', clientId: 'c', defaultTeam: 'nope' }), 400, '"defaultTeam"');
      assertError(await world.admin.api.post(url, { label: 'X', issuer: 'https://id.acme.test', clientId: 'c', extra: 1 }), 400);
      assertError(await world.members.create.api.post(url, { label: 'X', issuer: 'https://id.acme.test', clientId: 'c' }), 403, 'administrators');
      assertError(await world.members.create.api.get(url), 403, 'administrators');
      assertError(await world.outsider.api.get(url), 404);
    });
  });
}
