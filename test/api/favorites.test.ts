import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, postSpace, type World } from '../helpers/factories.ts';
import { createSpace } from '../helpers/content-factory.ts';
import { MAX_FAVORITES } from '../../src/modules/favorites/service.ts';

/** Favourite spaces (Quire's own operations): per person, kept on the server, filtered by access at each read. */
for (const dialect of dialects) {
  describe(`favourite spaces: GET/PUT/DELETE /v1/user/favorites/spaces [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const ids = (reply: Reply) => reply.body.items.map((item: { id: string }) => item.id);

    it('each role that reads a space may star it; a guest and an outsider get 404 and nothing is kept', async () => {
      const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Handbook' });
      for (const [role, user] of cast(world)) {
        const starred = await user.api.put(`/v1/user/favorites/spaces/${space.id}`);
        if (role === 'guest' || role === 'outsider') {
          assertError(starred, 404, /No space/);
          assert.deepEqual(ids(await user.api.get('/v1/user/favorites/spaces')), [], role);
          continue;
        }
        assert.equal(starred.status, 200, `${role}: ${JSON.stringify(starred.body)}`);
        assert.equal(starred.body.id, space.id);
        const listed = await user.api.get('/v1/user/favorites/spaces');
        assert.equal(listed.status, 200);
        assert.deepEqual(ids(listed), [space.id], role);
        assert.equal(listed.body.count, 1);
        assert.equal(listed.body.items[0].title, 'Handbook');
      }
    });

    it('is per person, idempotent, newest first, and removed with 205 then 204', async () => {
      const reader = world.members.read;
      const editor = world.members.edit;
      const first = await postSpace(t.clock, world.admin, world.organizationId, { title: 'First' });
      const second = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Second' });
      const before = ids(await reader.api.get('/v1/user/favorites/spaces'));
      assert.equal((await reader.api.put(`/v1/user/favorites/spaces/${first.id}`)).status, 200);
      t.clock.advance(1000);
      assert.equal((await reader.api.put(`/v1/user/favorites/spaces/${second.id}`)).status, 200);
      assert.equal((await reader.api.put(`/v1/user/favorites/spaces/${first.id}`)).status, 200, 'starring again is no error');
      assert.deepEqual(ids(await reader.api.get('/v1/user/favorites/spaces')), [second.id, first.id, ...before]);
      assert.ok(!ids(await editor.api.get('/v1/user/favorites/spaces')).includes(second.id), "another person's stars are theirs");

      const removed = await reader.api.delete(`/v1/user/favorites/spaces/${second.id}`);
      assert.equal(removed.status, 205);
      assert.equal((await reader.api.delete(`/v1/user/favorites/spaces/${second.id}`)).status, 204);
      assert.deepEqual(ids(await reader.api.get('/v1/user/favorites/spaces')), [first.id, ...before]);
    });

    it('leaves out a space the person can no longer read, shows it again when access returns, and never after the trash', async () => {
      const reader = world.members.read;
      const space = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Secret plans' });
      assert.equal((await reader.api.put(`/v1/user/favorites/spaces/${space.id}`)).status, 200);
      assert.ok(ids(await reader.api.get('/v1/user/favorites/spaces')).includes(space.id));

      const closed = await world.admin.api.patch(`/v1/spaces/${space.id}`, { defaultLevel: null });
      assert.equal(closed.status, 200, JSON.stringify(closed.body));
      const hidden = await reader.api.get('/v1/user/favorites/spaces');
      assert.ok(!ids(hidden).includes(space.id), 'a space the reader may not read is not listed');
      assert.ok(!JSON.stringify(hidden.body).includes('Secret plans'));
      assertError(await reader.api.put(`/v1/user/favorites/spaces/${space.id}`), 404);

      assert.equal((await world.admin.api.patch(`/v1/spaces/${space.id}`, { defaultLevel: 'inherit' })).status, 200);
      assert.ok(ids(await reader.api.get('/v1/user/favorites/spaces')).includes(space.id), 'the star was kept');

      assert.equal((await world.admin.api.delete(`/v1/spaces/${space.id}`)).status, 205);
      assert.ok(!ids(await reader.api.get('/v1/user/favorites/spaces')).includes(space.id), 'a space in the trash is not listed');
      assert.equal((await reader.api.delete(`/v1/user/favorites/spaces/${space.id}`)).status, 205, 'its star may still be removed');
    });

    it(`keeps at most ${MAX_FAVORITES} stars a person, and says to remove one`, async () => {
      const comment = world.members.comment;
      const starred = (await t.ctx.db.selectFrom('favorite_spaces').select('space_id').where('user_id', '=', comment.id).execute()).length;
      const spaceIds: string[] = [];
      for (let index = starred; index < MAX_FAVORITES + 1; index++) spaceIds.push(await createSpace(t.ctx, world.organizationId, { title: `Space ${index}` }));
      // Stars up to one below the most, written directly (the API would take as many requests).
      await t.ctx.db
        .insertInto('favorite_spaces')
        .values(spaceIds.slice(0, -2).map((id, index) => ({ user_id: comment.id, space_id: id, created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, index)).toISOString() })))
        .execute();
      const last = spaceIds[spaceIds.length - 2];
      const over = spaceIds[spaceIds.length - 1];
      assert.equal((await comment.api.put(`/v1/user/favorites/spaces/${last}`)).status, 200, 'the last one allowed');
      assertError(await comment.api.put(`/v1/user/favorites/spaces/${over}`), 400, /remove a star/);
      assert.equal((await comment.api.put(`/v1/user/favorites/spaces/${spaceIds[0]}`)).status, 200, 'starring a starred space again is no new star');
      const listed = await comment.api.get('/v1/user/favorites/spaces');
      assert.equal(listed.body.count, MAX_FAVORITES);
      assert.ok(!ids(listed).includes(over));
    });

    it('refuses a missing token (401), an overlong id (414) and a space that does not exist (404)', async () => {
      assertError(await client(t.app).get('/v1/user/favorites/spaces'), 401);
      assertError(await client(t.app).put('/v1/user/favorites/spaces/anything'), 401);
      assertError(await world.admin.api.put('/v1/user/favorites/spaces/no-such-space'), 404, /No space "no-such-space"/);
      assertError(await world.admin.api.put(`/v1/user/favorites/spaces/${'x'.repeat(101)}`), 414);
    });
  });
}
