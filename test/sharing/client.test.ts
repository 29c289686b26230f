import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, MemberRole } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, postCollection, postSpace, type World } from '../helpers/factories.ts';

/**
 * The public client, over real HTTP, calls every sharing operation of spaces and collections; each answer is
 * validated against the client's document by the test app's contract hook.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: sharing [${dialect}]`, () => {
    let t: TestApp;
    let w: World;
    let api: GitBookAPI;
    let guestApi: GitBookAPI;
    before(async () => {
      t = await createTestApp(dialect);
      w = await createWorld(t.ctx, t.app, t.clock);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: w.admin.token });
      guestApi = new GitBookAPI({ endpoint: address, authToken: w.guest.token });
    });
    after(() => t.close());

    it('shares a space and a collection with users and teams, lists them, and takes them back', async () => {
      const spaceId = (await postSpace(t.clock, w.admin, w.organizationId, { title: 'Handbook' })).id;
      const collectionId = (await postCollection(t.clock, w.admin, w.organizationId, { title: 'Guides' })).id;
      const inner = (await postSpace(t.clock, w.admin, w.organizationId, { title: 'Inner', parent: collectionId })).id;
      const team = await api.orgs.createOrganizationTeam(w.organizationId, { title: 'Partners', members: [w.members.read.id] });

      await api.spaces.updateUserPermissionInSpace(spaceId, w.guest.id, { role: MemberRole.Edit });
      await api.spaces.updateTeamPermissionInSpace(spaceId, team.data.id, { role: MemberRole.Review });
      await api.spaces.inviteToSpace(spaceId, { role: MemberRole.Comment, users: [w.members.read.id] });
      const users = await api.spaces.listUserPermissionsInSpace(spaceId);
      assert.deepEqual(users.data.items.map((item) => [item.user.id, item.permission]).sort(), [[w.guest.id, 'edit'], [w.members.read.id, 'comment']].sort());
      const teams = await api.spaces.listTeamPermissionsInSpace(spaceId);
      assert.deepEqual(teams.data.items.map((item) => [item.team.id, item.permission]), [[team.data.id, 'review']]);
      const aggregate = await api.spaces.listPermissionsAggregateInSpace(spaceId, { role: MemberRole.Review });
      assert.deepEqual(aggregate.data.items.map((item) => item.user.id).sort(), [w.members.review.id, w.members.read.id].sort());
      const seen = await guestApi.orgs.listSpacesInOrganizationById(w.organizationId);
      assert.deepEqual(seen.data.items.map((space) => space.id), [spaceId]);

      await api.collections.updateTeamPermissionInCollection(collectionId, team.data.id, { role: MemberRole.Edit });
      await api.collections.updateUserPermissionInCollection(collectionId, w.guest.id, { role: MemberRole.Read });
      await api.collections.inviteToCollection(collectionId, { role: MemberRole.Read, users: [w.members.comment.id] });
      assert.equal((await api.collections.listTeamPermissionsInCollection(collectionId)).data.count, 1);
      assert.equal((await api.collections.listUserPermissionsInCollection(collectionId)).data.count, 2);
      const everyone = await api.collections.listPermissionsAggregateInCollection(collectionId);
      assert.equal(everyone.data.items.find((item) => item.user.id === w.guest.id)?.permission, 'read');
      assert.deepEqual((await guestApi.spaces.getSpaceById(inner)).data.id, inner);

      assert.equal((await api.spaces.removeUserFromSpace(spaceId, w.guest.id)).status, 205);
      assert.equal((await api.spaces.removeTeamFromSpace(spaceId, team.data.id)).status, 205);
      assert.equal((await api.collections.removeUserFromCollection(collectionId, w.guest.id)).status, 205);
      assert.equal((await api.collections.removeTeamFromCollection(collectionId, team.data.id)).status, 205);
      const left = await guestApi.orgs.listSpacesInOrganizationById(w.organizationId);
      assert.deepEqual(left.data.items, []);
    });
  });
}
