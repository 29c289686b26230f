import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, MemberRole } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addMember, createWorld, type World } from '../helpers/factories.ts';

/**
 * The public client, over real HTTP against a listening Quire, calls every operation of spaces and
 * collections. Every answer is validated against the client's document by the test app's contract hook.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: spaces and collections [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let api: GitBookAPI;
    let orgId: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: world.admin.token });
      orgId = world.organizationId;
      await addMember(t.ctx, world.otherOrganizationId, world.admin.id, 'admin');
    });
    after(() => t.close());

    it('creates, reads, changes, duplicates, moves, transfers, deletes and restores spaces', async () => {
      const collection = await api.orgs.createCollection(orgId, { title: 'Guides' });
      assert.equal(collection.status, 201);
      const created = await api.orgs.createSpace(orgId, { title: 'Handbook', emoji: '📘', parent: collection.data.id });
      assert.equal(created.status, 201);
      const spaceId = created.data.id;
      assert.equal((await api.spaces.getSpaceById(spaceId, { shareKey: 'unused' })).data.title, 'Handbook');
      const listed = await api.orgs.listSpacesInOrganizationById(orgId, { limit: 10 });
      assert.deepEqual(listed.data.items.map((s) => s.id), [spaceId]);
      const patched = await api.spaces.updateSpaceById(spaceId, { title: 'Staff handbook', emoji: '📗' });
      assert.equal(patched.data.title, 'Staff handbook');
      const cleared = await api.spaces.updateSpaceById(spaceId, { emoji: null, icon: null });
      assert.equal(cleared.data.emoji, '');
      t.clock.advance(1000);
      const copy = await api.spaces.duplicateSpace(spaceId);
      assert.equal(copy.status, 201);
      assert.equal(copy.data.title, 'Staff handbook (copy)');
      const moved = await api.spaces.moveSpace(copy.data.id, { parent: null });
      assert.equal(moved.data.parent, undefined);
      const back = await api.spaces.moveSpace(copy.data.id, { parent: collection.data.id, position: { before: { type: 'space', space: spaceId } } });
      assert.equal(back.data.parent, collection.data.id);
      const inCollection = await api.collections.listSpacesInCollectionById(collection.data.id);
      assert.deepEqual(inCollection.data.items.map((s) => s.id), [copy.data.id, spaceId]);
      const mine = await api.orgs.listSpacesForOrganizationMember(orgId, world.admin.id, { order: 'asc' });
      assert.deepEqual(mine.data.items.map((item) => [item.permission, item.space.id]), [['admin', spaceId], ['admin', copy.data.id]]);
      const transferred = await api.spaces.transferSpace(copy.data.id, { organization: world.otherOrganizationId });
      assert.equal(transferred.data.organization, world.otherOrganizationId);
      assert.equal((await api.spaces.deleteSpaceById(spaceId)).status, 205);
      assert.equal((await api.spaces.deleteSpaceById(spaceId)).status, 204);
      const restored = await api.spaces.restoreSpace(spaceId);
      assert.equal(restored.status, 200);
      assert.equal(restored.data.deletedAt, undefined);
    });

    it('creates, lists, reads, changes, moves, transfers and deletes collections', async () => {
      const top = await api.orgs.createCollection(orgId, { title: 'Top' });
      const child = await api.orgs.createCollection(orgId, { title: 'Child', parent: top.data.id });
      assert.equal(child.data.parent, top.data.id);
      const nested = await api.orgs.listCollectionsInOrganizationById(orgId, { nested: true });
      assert.ok(nested.data.items.some((c) => c.id === child.data.id));
      const roots = await api.orgs.listCollectionsInOrganizationById(orgId, { nested: false });
      assert.ok(!roots.data.items.some((c) => c.id === child.data.id));
      assert.equal((await api.collections.getCollectionById(top.data.id)).data.title, 'Top');
      const patched = await api.collections.updateCollectionById(top.data.id, { title: 'Renamed', description: 'All of it', defaultLevel: MemberRole.Read });
      assert.equal(patched.data.defaultLevel, 'read');
      const moved = await api.collections.moveCollection(child.data.id, { parent: null });
      assert.equal(moved.data.parent, undefined);
      const transferred = await api.collections.transferCollection(child.data.id, { organization: world.otherOrganizationId });
      assert.equal(transferred.data.organization, world.otherOrganizationId);
      assert.equal((await api.collections.deleteCollectionById(top.data.id)).status, 205);
      assert.equal((await api.collections.deleteCollectionById(top.data.id)).status, 204);
    });
  });
}
