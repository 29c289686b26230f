import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, MemberRole } from '@gitbook/api';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createUser, createWorld, type World } from '../helpers/factories.ts';

/** Changing one's own profile; changing an invite link's role; joining an organization through an invite link. */
for (const dialect of dialects) {
  describe(`profiles and invite links [${dialect}]`, () => {
    let t: TestApp;
    let w: World;
    let address: string;
    before(async () => {
      t = await createTestApp(dialect);
      w = await createWorld(t.ctx, t.app, t.clock);
      address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      await w.admin.api.patch(`/v1/orgs/${w.organizationId}`, { inviteLinks: true });
    });
    after(() => t.close());

    it('changes only your own profile', async () => {
      const api = new GitBookAPI({ endpoint: address, authToken: w.members.read.token });
      const updated = await api.users.updateUserById(w.members.read.id, { displayName: 'Rea Reader', photoURL: 'https://example.com/rea.png' });
      assert.equal(updated.data.displayName, 'Rea Reader');
      assert.equal(updated.data.photoURL, 'https://example.com/rea.png');
      assertError(await w.members.read.api.patch(`/v1/users/${w.admin.id}`, { displayName: 'Mallory' }), 403, 'only change your own profile');
      assertError(await w.members.read.api.patch(`/v1/users/${w.outsider.id}`, { displayName: 'Mallory' }), 404);
      assertError(await w.members.read.api.patch(`/v1/users/${w.members.read.id}`, {}), 400);
      assertError(await w.members.read.api.patch(`/v1/users/${w.members.read.id}`, { displayName: '   ' }), 400, 'blank');
      assertError(await w.members.read.api.patch(`/v1/users/${w.members.read.id}`, { photoURL: 'not a url' }), 400, 'photoURL');
    });

    it('changes the role of an invite link, and lets a newcomer join with it; members are raised, never lowered', async () => {
      const admin = new GitBookAPI({ endpoint: address, authToken: w.admin.token });
      const created = await w.admin.api.post(`/v1/orgs/${w.organizationId}/link-invites`, { role: 'read' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const inviteId = created.body.id;
      const updated = await admin.orgs.updateOrganizationInviteById(w.organizationId, inviteId, { role: MemberRole.Comment });
      assert.equal((updated.data as { role: string }).role, 'comment');
      assertError(await w.admin.api.patch(`/v1/orgs/${w.organizationId}/link-invites/${inviteId}`, { level: 'read' }), 400, '"level"');
      assertError(await w.members.create.api.patch(`/v1/orgs/${w.organizationId}/link-invites/${inviteId}`, { role: 'admin' }), 403);
      assertError(await w.admin.api.patch(`/v1/orgs/${w.organizationId}/link-invites/nope`, { role: 'read' }), 404);

      const newcomer = await createUser(t.ctx, t.app, 'newcomer');
      assertError(await newcomer.api.get(`/v1/orgs/${w.organizationId}`), 404);
      const joined = await new GitBookAPI({ endpoint: address, authToken: newcomer.token }).orgs.joinOrganizationWithInvite(w.organizationId, inviteId);
      assert.equal(joined.status, 200);
      assert.equal((await w.admin.api.get(`/v1/orgs/${w.organizationId}/members/${newcomer.id}`)).body.role, 'comment');
      assert.equal((await w.guest.api.post(`/v1/orgs/${w.organizationId}/invites/${inviteId}`)).status, 200);
      assert.equal((await w.admin.api.get(`/v1/orgs/${w.organizationId}/members/${w.guest.id}`)).body.role, 'comment', 'a guest is raised');
      assert.equal((await w.members.edit.api.post(`/v1/orgs/${w.organizationId}/invites/${inviteId}`)).status, 200);
      assert.equal((await w.admin.api.get(`/v1/orgs/${w.organizationId}/members/${w.members.edit.id}`)).body.role, 'edit', 'never lowered');
      assertError(await newcomer.api.post(`/v1/orgs/${w.organizationId}/invites/wrong`), 404, 'No invite link');
      await w.admin.api.patch(`/v1/orgs/${w.organizationId}`, { inviteLinks: false });
      const late = await createUser(t.ctx, t.app, 'late');
      assertError(await late.api.post(`/v1/orgs/${w.organizationId}/invites/${inviteId}`), 403, 'turned off');
      await w.admin.api.patch(`/v1/orgs/${w.organizationId}`, { inviteLinks: true });
    });
  });
}
