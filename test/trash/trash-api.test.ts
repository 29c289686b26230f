import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, postCollection, postSpace, type World } from '../helpers/factories.ts';

/** The organization's trash (src/modules/trash): one list, a collection's restore, and "delete now". */
for (const dialect of dialects) {
  describe(`the trash [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const trash = async () => (await world.admin.api.get(`/v1/orgs/${world.organizationId}/trash`)).body.items as Array<{ kind: string; id: string; title: string; spaces: number; restorableUntil: string; deletedAt: string }>;

    it('lists a deleted collection once, with the spaces deleted with it, and restores them together', async () => {
      const collection = await postCollection(t.clock, world.admin, world.organizationId, { title: 'Guides' });
      const inner = await postCollection(t.clock, world.admin, world.organizationId, { title: 'Inner', parent: collection.id });
      const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Setup', parent: inner.id });
      t.clock.advance(1000);
      assert.equal((await world.admin.api.delete(`/v1/collections/${collection.id}`)).status, 205);
      const items = await trash();
      assert.deepEqual(items.map((item) => [item.kind, item.title, item.spaces]), [['collection', 'Guides', 0]]);
      assert.equal(new Date(items[0].restorableUntil).getTime() - new Date(items[0].deletedAt).getTime(), 7 * 24 * 3600 * 1000);
      // Only administrators see it.
      const refused = await world.members.create.api.get(`/v1/orgs/${world.organizationId}/trash`);
      assert.equal(refused.status, 403);
      assert.ok(refused.body.error.message);

      const restored = await world.admin.api.post(`/v1/orgs/${world.organizationId}/trash/collections/${collection.id}/restore`, {});
      assert.equal(restored.status, 200, JSON.stringify(restored.body));
      assert.equal((await world.admin.api.get(`/v1/spaces/${space.id}`)).status, 200);
      assert.equal((await world.admin.api.get(`/v1/collections/${inner.id}`)).body.parent, collection.id);
      assert.deepEqual(await trash(), []);
      assert.equal((await world.admin.api.post(`/v1/orgs/${world.organizationId}/trash/collections/${collection.id}/restore`, {})).status, 409);
    });

    it('deletes a space for good at once, and refuses a restore after the seven days', async () => {
      const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Scratch' });
      const old = await postCollection(t.clock, world.admin, world.organizationId, { title: 'Old' });
      t.clock.advance(1000);
      await world.admin.api.delete(`/v1/spaces/${space.id}`);
      await world.admin.api.delete(`/v1/collections/${old.id}`);
      assert.deepEqual((await trash()).map((item) => item.title).sort(), ['Old', 'Scratch']);
      assert.equal((await world.admin.api.delete(`/v1/orgs/${world.organizationId}/trash/spaces/${space.id}`)).status, 204);
      assert.equal((await world.admin.api.post(`/v1/spaces/${space.id}/restore`, {})).status, 404);
      assert.equal((await world.admin.api.delete(`/v1/orgs/${world.organizationId}/trash/spaces/${space.id}`)).status, 404);
      t.clock.advance(8 * 24 * 3600 * 1000);
      assert.deepEqual(await trash(), []);
      assert.equal((await world.admin.api.post(`/v1/orgs/${world.organizationId}/trash/collections/${old.id}/restore`, {})).status, 410);
    });
  });
}
