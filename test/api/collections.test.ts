import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { addMember, cast, createWorld, type TestUser, type World, postCollection, postSpace } from '../helpers/factories.ts';
import { runDueJobs } from '../../src/jobs/index.ts';

const DAY = 24 * 60 * 60 * 1000;

for (const dialect of dialects) {
  describe(`collections [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let orgUrl: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      orgUrl = `/v1/orgs/${world.organizationId}`;
    });
    after(() => t.close());

    const newSpace = (user: TestUser, body: Record<string, unknown> = {}, organizationId = world.organizationId) => postSpace(t.clock, user, organizationId, body);
    const newCollection = (user: TestUser, body: Record<string, unknown> = {}, organizationId = world.organizationId) => postCollection(t.clock, user, organizationId, body);
    const collectionCount = async () => Number((await t.ctx.db.selectFrom('collections').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const ids = (reply: Reply) => reply.body.items.map((item: { id: string }) => item.id);
    const assertEmpty = (reply: Reply, status: 204 | 205) => {
      assert.equal(reply.status, status, JSON.stringify(reply.body));
      assert.equal(reply.body, undefined);
    };
    const permissions = (level: 'admin' | 'create' | 'read') => ({ view: true, admin: level === 'admin', viewInviteLinks: level === 'admin', create: level !== 'read' });

    describe('POST /v1/orgs/{organizationId}/collections', () => {
      it('creates a collection at the root or inside another, and answers 201 with its address', async () => {
        t.clock.advance(1000);
        const reply = await world.admin.api.post(`${orgUrl}/collections`, { title: 'Guides' });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        const collection = reply.body;
        assert.equal(reply.headers.location, `http://quire.test/v1/collections/${collection.id}`);
        assert.deepEqual(collection, {
          object: 'collection',
          id: collection.id,
          title: 'Guides',
          organization: world.organizationId,
          defaultLevel: 'inherit',
          urls: { location: `http://quire.test/v1/collections/${collection.id}`, app: `http://quire.test/v1/collections/${collection.id}` },
          permissions: permissions('admin'),
        });
        const child = await newCollection(world.members.create, { title: 'Child', parent: collection.id });
        assert.equal(child.parent, collection.id);
        assert.deepEqual(child.permissions, permissions('create'));
        assert.equal((await newCollection(world.admin)).title, 'Untitled');
      });

      it('names the field that fails validation and creates nothing; collections nest at most 16 deep', async () => {
        const before = await collectionCount();
        const other = await newCollection(world.outsider, {}, world.otherOrganizationId);
        const post = (body: unknown) => world.admin.api.post(`${orgUrl}/collections`, body);
        assertError(await post({ title: 'x'.repeat(51) }), 400, '"title"');
        assertError(await post({ title: 3 }), 400, '"title"');
        assertError(await post({ description: 'Not here' }), 400, '"description"');
        assertError(await post({ parent: 'nope' }), 400, 'The body member "parent" names collection "nope", which does not exist in this organization');
        assertError(await post({ parent: other.id }), 400, `"parent" names collection "${other.id}"`);
        assert.equal(await collectionCount(), before + 1);
        let parent: string | undefined;
        for (let depth = 1; depth <= 16; depth++) parent = (await newCollection(world.admin, parent ? { parent } : {})).id;
        assertError(await post({ parent }), 400, 'collections nest at most 16 levels');
      });

      it('lets the create role and administrators create; others get 403, outsiders 404; the parent needs the create level', async () => {
        for (const [name, user] of cast(world)) {
          const reply = await user.api.post(`${orgUrl}/collections`, { title: name });
          if (name === 'admin' || name === 'create') assert.equal(reply.status, 201, name);
          else if (name === 'outsider') assertError(reply, 404, 'No organization');
          else assertError(reply, 403, 'create role in this organization to create collections');
        }
        const readOnly = await newCollection(world.admin);
        await world.admin.api.patch(`/v1/collections/${readOnly.id}`, { defaultLevel: 'read' });
        assertError(await world.members.create.api.post(`${orgUrl}/collections`, { parent: readOnly.id }), 403, 'create level in this collection');
        assertError(await client(t.app).post(`${orgUrl}/collections`, {}), 401);
      });
    });

    describe('GET /v1/orgs/{organizationId}/collections', () => {
      let w: World;
      let url: string;
      let c: Record<string, string>;
      before(async () => {
        w = await createWorld(t.ctx, t.app, t.clock);
        url = `/v1/orgs/${w.organizationId}/collections`;
        c = {};
        c.top = (await newCollection(w.admin, { title: 'Top' }, w.organizationId)).id;
        c.child = (await newCollection(w.admin, { title: 'Child', parent: c.top }, w.organizationId)).id;
        c.hidden = (await newCollection(w.admin, { title: 'Hidden' }, w.organizationId)).id;
        await w.admin.api.patch(`/v1/collections/${c.hidden}`, { defaultLevel: null });
        c.hiddenChild = (await newCollection(w.admin, { title: 'Hidden child', parent: c.hidden }, w.organizationId)).id;
        c.reopened = (await newCollection(w.admin, { title: 'Reopened', parent: c.hidden }, w.organizationId)).id;
        await w.admin.api.patch(`/v1/collections/${c.reopened}`, { defaultLevel: 'read' });
        c.deleted = (await newCollection(w.admin, { title: 'Deleted' }, w.organizationId)).id;
        await w.admin.api.delete(`/v1/collections/${c.deleted}`);
      });

      it('lists every collection the caller can see, nested ones too by default, oldest first', async () => {
        for (const [name, user] of cast(w)) {
          const reply = await user.api.get(url);
          if (name === 'outsider') {
            assertError(reply, 404, 'No organization');
            continue;
          }
          assert.equal(reply.status, 200, name);
          const expected = name === 'admin' ? ['top', 'child', 'hidden', 'hiddenChild', 'reopened'] : name === 'guest' ? [] : ['top', 'child', 'reopened'];
          assert.deepEqual(ids(reply), expected.map((key) => c[key]), name);
          assert.equal(reply.body.count, expected.length);
        }
        const asRead = await w.members.read.api.get(url);
        assert.deepEqual(asRead.body.items[0].permissions, permissions('read'));
        const reopened = (await w.members.create.api.get(url)).body.items.find((item: { id: string }) => item.id === c.reopened);
        assert.deepEqual(reopened.permissions, permissions('read'), 'its own level, "read", caps the create role');
      });

      it('lists only the collections at the root with nested=false, and walks pages', async () => {
        assert.deepEqual(ids(await w.admin.api.get(`${url}?nested=false`)), [c.top, c.hidden]);
        assert.deepEqual(ids(await w.members.edit.api.get(`${url}?nested=false`)), [c.top]);
        const first = await w.admin.api.get(`${url}?limit=2`);
        assert.deepEqual(ids(first), [c.top, c.child]);
        const second = await w.admin.api.get(`${url}?limit=2&page=${encodeURIComponent(first.body.next.page)}`);
        assert.deepEqual(ids(second), [c.hidden, c.hiddenChild]);
        assertError(await w.admin.api.get(`${url}?nested=false&page=${encodeURIComponent(first.body.next.page)}`), 400, '"page" cursor');
        assertError(await w.admin.api.get(`${url}?nested=maybe`), 400, '"nested"');
      });
    });

    describe('GET, PATCH /v1/collections/{collectionId}', () => {
      it('answers members with the permissions of their level; guests, outsiders and unknown collections get 404', async () => {
        const collection = await newCollection(world.admin, { title: 'Shown' });
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(`/v1/collections/${collection.id}`);
          if (name === 'guest' || name === 'outsider') {
            assertError(reply, 404, `No collection "${collection.id}"`);
            continue;
          }
          assert.equal(reply.status, 200, name);
          assert.deepEqual(reply.body.permissions, permissions(name === 'admin' ? 'admin' : name === 'create' ? 'create' : 'read'), name);
        }
        assertError(await world.admin.api.get('/v1/collections/nope'), 404);
      });

      it('changes title, description and default level (null: nobody but administrators); names bad fields', async () => {
        const collection = await newCollection(world.admin, { title: 'Before' });
        const reply = await world.admin.api.patch(`/v1/collections/${collection.id}`, { title: 'After', description: 'All the guides', defaultLevel: 'comment' });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.title, 'After');
        assert.equal(reply.body.description, 'All the guides');
        assert.equal(reply.body.defaultLevel, 'comment');
        assert.deepEqual((await world.admin.api.get(`/v1/collections/${collection.id}`)).body, reply.body);
        const hidden = await world.admin.api.patch(`/v1/collections/${collection.id}`, { defaultLevel: null, description: '' });
        assert.equal(hidden.body.defaultLevel, null);
        assert.equal(hidden.body.description, '');
        assertError(await world.members.create.api.get(`/v1/collections/${collection.id}`), 404);
        const patch = (body: unknown) => world.admin.api.patch(`/v1/collections/${collection.id}`, body);
        assertError(await patch({ title: 'x'.repeat(51) }), 400, '"title"');
        assertError(await patch({ description: 'x'.repeat(101) }), 400, '"description"');
        assertError(await patch({ defaultLevel: 'everyone' }), 400, 'defaultLevel');
        assertError(await patch({ parent: null }), 400, '"parent"');
      });

      it('lets administrators change a collection; other members get 403, guests and outsiders 404', async () => {
        const collection = await newCollection(world.admin);
        for (const [name, user] of cast(world)) {
          const reply = await user.api.patch(`/v1/collections/${collection.id}`, { title: name });
          if (name === 'admin') assert.equal(reply.status, 200);
          else if (name === 'guest' || name === 'outsider') assertError(reply, 404, 'No collection');
          else assertError(reply, 403, 'Only administrators of this collection');
        }
      });
    });

    describe('GET /v1/collections/{collectionId}/spaces', () => {
      it('lists the spaces directly in the collection that the caller can see, in their order', async () => {
        const collection = await newCollection(world.admin);
        const child = await newCollection(world.admin, { parent: collection.id });
        const a = await newSpace(world.admin, { title: 'A', parent: collection.id });
        const b = await newSpace(world.admin, { title: 'B', parent: collection.id });
        const hidden = await newSpace(world.admin, { title: 'Hidden', parent: collection.id });
        await world.admin.api.patch(`/v1/spaces/${hidden.id}`, { defaultLevel: null });
        const deleted = await newSpace(world.admin, { parent: collection.id });
        await world.admin.api.delete(`/v1/spaces/${deleted.id}`);
        await newSpace(world.admin, { parent: child.id });
        await world.admin.api.post(`/v1/spaces/${b.id}/move`, { position: { before: { type: 'space', space: a.id } } });
        const url = `/v1/collections/${collection.id}/spaces`;
        assert.deepEqual(ids(await world.admin.api.get(url)), [b.id, a.id, hidden.id]);
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(url);
          if (name === 'guest' || name === 'outsider') assertError(reply, 404, 'No collection');
          else if (name !== 'admin') {
            assert.deepEqual(ids(reply), [b.id, a.id], name);
            assert.equal(reply.body.count, 2);
          }
        }
        const first = await world.members.read.api.get(`${url}?limit=1`);
        const next = await world.members.read.api.get(`${url}?limit=1&page=${encodeURIComponent(first.body.next.page)}`);
        assert.deepEqual(ids(next), [a.id]);
        assert.equal(next.body.next, undefined);
        assert.deepEqual(next.body.items[0].permissions.edit, false, 'read member');
      });
    });

    describe('DELETE /v1/collections/{collectionId}: everything inside goes to the trash', () => {
      it('deletes the collection, its collections and their spaces together, restorable one by one for 7 days, then purged', async () => {
        const top = await newCollection(world.admin, { title: 'Top' });
        const child = await newCollection(world.admin, { title: 'Child', parent: top.id });
        const s1 = await newSpace(world.admin, { parent: top.id });
        const s2 = await newSpace(world.admin, { parent: child.id });
        const s3 = await newSpace(world.admin, { parent: child.id });
        await world.admin.api.delete(`/v1/spaces/${s3.id}`);
        const s3DeletedAt = (await t.ctx.db.selectFrom('spaces').select('deleted_at').where('id', '=', s3.id).executeTakeFirstOrThrow()).deleted_at;
        t.clock.advance(1000);
        assertEmpty(await world.admin.api.delete(`/v1/collections/${top.id}`), 205);
        const now = t.clock.now().toISOString();
        for (const id of [top.id, child.id]) assertError(await world.admin.api.get(`/v1/collections/${id}`), 404);
        for (const id of [s1.id, s2.id, s3.id]) assertError(await world.admin.api.get(`/v1/spaces/${id}`), 404);
        const rows = await t.ctx.db.selectFrom('spaces').select(['id', 'deleted_at']).where('id', 'in', [s1.id, s2.id, s3.id]).orderBy('id').execute();
        assert.deepEqual(Object.fromEntries(rows.map((r) => [r.id, r.deleted_at])), { [s1.id]: now, [s2.id]: now, [s3.id]: s3DeletedAt });
        assert.ok(!ids(await world.admin.api.get(`${orgUrl}/collections`)).includes(child.id));
        const jobs = await t.ctx.db.selectFrom('jobs').select(['kind', 'singleton_key']).where('status', '=', 'pending').execute();
        const keys = jobs.map((j) => j.singleton_key);
        for (const key of [`purge-space:${s1.id}`, `purge-space:${s2.id}`, `purge-space:${s3.id}`, `purge-collection:${top.id}`]) assert.ok(keys.includes(key), key);
        assertEmpty(await world.admin.api.delete(`/v1/collections/${top.id}`), 204);
        assertEmpty(await world.admin.api.delete('/v1/collections/nope'), 204);

        t.clock.advance(3 * DAY);
        const restored = await world.admin.api.post(`/v1/spaces/${s2.id}/restore`);
        assert.equal(restored.status, 200);
        assert.equal(restored.body.parent, undefined, 'back at the root: its collection is still in the trash');
        t.clock.advance(4 * DAY);
        await runDueJobs(t.ctx, { workerId: 'test', limit: 100 });
        assert.deepEqual(await t.ctx.db.selectFrom('collections').select('id').where('id', 'in', [top.id, child.id]).execute(), []);
        assert.deepEqual((await t.ctx.db.selectFrom('spaces').select('id').where('id', 'in', [s1.id, s2.id, s3.id]).execute()).map((r) => r.id), [s2.id]);
        const failed = await t.ctx.db.selectFrom('jobs').select(['kind', 'last_error']).where('status', '!=', 'done').where('run_at', '<=', t.clock.now().toISOString()).execute();
        assert.deepEqual(failed, []);
      });

      it('never leaves a live space or collection inside a deleted collection when both happen at once', async () => {
        for (let round = 0; round < 10; round++) {
          const collection = await newCollection(world.admin);
          const child = await newCollection(world.admin, { parent: collection.id });
          const [space, nested, deleted] = await Promise.all([
            world.admin.api.post(`${orgUrl}/spaces`, { parent: child.id }),
            world.admin.api.post(`${orgUrl}/collections`, { parent: child.id }),
            world.admin.api.delete(`/v1/collections/${collection.id}`),
          ]);
          assert.equal(deleted.status, 205);
          assert.ok([201, 400].includes(space.status) && [201, 400].includes(nested.status), `${space.status} ${nested.status}`);
          const liveSpaces = await t.ctx.db.selectFrom('spaces').select('id').where('collection_id', '=', child.id).where('deleted_at', 'is', null).execute();
          const liveCollections = await t.ctx.db.selectFrom('collections').select('id').where('parent_id', '=', child.id).where('deleted_at', 'is', null).execute();
          assert.deepEqual([liveSpaces, liveCollections], [[], []], `round ${round}`);
        }
      });

      it('lets administrators delete; other members get 403; guests and outsiders, who cannot see it, get 204', async () => {
        const collection = await newCollection(world.admin);
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          const reply = await user.api.delete(`/v1/collections/${collection.id}`);
          if (name === 'guest' || name === 'outsider') assertEmpty(reply, 204);
          else assertError(reply, 403, 'Only administrators of this collection can delete it');
        }
        assert.equal((await world.admin.api.get(`/v1/collections/${collection.id}`)).status, 200);
      });
    });

    describe('POST /v1/collections/{collectionId}/move', () => {
      it('moves a collection with its content into another, among siblings, and to the root', async () => {
        const a = await newCollection(world.admin, { title: 'A' });
        const b = await newCollection(world.admin, { title: 'B' });
        const inside = await newSpace(world.admin, { parent: b.id });
        const sibling = await newSpace(world.admin, { parent: a.id });
        const moved = await world.admin.api.post(`/v1/collections/${b.id}/move`, { parent: a.id, position: { before: { type: 'space', space: sibling.id } } });
        assert.equal(moved.status, 200, JSON.stringify(moved.body));
        assert.equal(moved.body.parent, a.id);
        assert.equal((await world.admin.api.get(`/v1/spaces/${inside.id}`)).body.parent, b.id, 'its spaces move with it');
        assert.equal((await world.admin.api.post(`/v1/collections/${b.id}/move`, { position: { after: { type: 'space', space: sibling.id } } })).status, 200);
        assertError(await world.admin.api.post(`/v1/collections/${b.id}/move`, { position: { after: { type: 'space', space: sibling.id } } }), 409, 'would change nothing');
        const root = await world.admin.api.post(`/v1/collections/${b.id}/move`, { parent: null });
        assert.equal(root.status, 200);
        assert.equal(root.body.parent, undefined);
        await world.admin.api.patch(`/v1/collections/${a.id}`, { defaultLevel: 'read' });
        await world.admin.api.post(`/v1/collections/${b.id}/move`, { parent: a.id });
        assert.equal((await world.members.edit.api.get(`/v1/spaces/${inside.id}`)).body.permissions.edit, false, 'the new parent\'s level applies');
      });

      it('refuses a move into itself or its own collections (400), a missing parent (400), too deep (400), and a move that changes nothing (409)', async () => {
        const top = await newCollection(world.admin, { title: 'Top' });
        const child = await newCollection(world.admin, { parent: top.id });
        const grandchild = await newCollection(world.admin, { parent: child.id });
        const move = (body: unknown) => world.admin.api.post(`/v1/collections/${top.id}/move`, body);
        assertError(await move({ parent: top.id }), 400, 'a collection cannot move into itself');
        assertError(await move({ parent: grandchild.id }), 400, `names collection "${grandchild.id}", which is inside collection "${top.id}"`);
        assertError(await move({ parent: 'nope' }), 400, '"parent" names collection "nope"');
        assertError(await move({}), 400, 'properties');
        assertError(await move({ position: { before: { type: 'collection', collection: top.id } } }), 400, 'itself');
        assertError(await move({ position: { after: { type: 'collection', collection: child.id } } }), 400, `"position.after" names collection "${child.id}", which is not at the root of the organization`);
        assertError(await world.admin.api.post(`/v1/collections/${grandchild.id}/move`, { parent: child.id }), 409, 'would change nothing');
        let deep = (await newCollection(world.admin)).id;
        for (let i = 0; i < 14; i++) deep = (await newCollection(world.admin, { parent: deep })).id;
        assertError(await move({ parent: deep }), 400, 'too deep');
        assertError(await world.admin.api.post('/v1/collections/nope/move', { parent: null }), 404);
      });

      it('lets administrators move; other members get 403, guests and outsiders 404', async () => {
        const collection = await newCollection(world.admin);
        const target = await newCollection(world.admin);
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          const reply = await user.api.post(`/v1/collections/${collection.id}/move`, { parent: target.id });
          if (name === 'guest' || name === 'outsider') assertError(reply, 404, 'No collection');
          else assertError(reply, 403, 'Only administrators');
        }
      });
    });

    describe('POST /v1/collections/{collectionId}/transfer', () => {
      it('moves a collection with everything in it (the trash too) to another organization the caller administers', async () => {
        await addMember(t.ctx, world.otherOrganizationId, world.admin.id, 'admin');
        const top = await newCollection(world.admin, { title: 'Top' });
        const child = await newCollection(world.admin, { parent: top.id });
        const live = await newSpace(world.admin, { parent: child.id });
        const trashed = await newSpace(world.admin, { parent: top.id });
        await world.admin.api.delete(`/v1/spaces/${trashed.id}`);
        const reply = await world.admin.api.post(`/v1/collections/${top.id}/transfer`, { organization: world.otherOrganizationId });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.organization, world.otherOrganizationId);
        assert.equal(reply.body.parent, undefined);
        const childNow = await world.outsider.api.get(`/v1/collections/${child.id}`);
        assert.equal(childNow.body.organization, world.otherOrganizationId);
        assert.equal(childNow.body.parent, top.id);
        const liveNow = await world.outsider.api.get(`/v1/spaces/${live.id}`);
        assert.equal(liveNow.body.organization, world.otherOrganizationId);
        assert.equal(liveNow.body.parent, child.id);
        const restored = await world.outsider.api.post(`/v1/spaces/${trashed.id}/restore`);
        assert.equal(restored.body.organization, world.otherOrganizationId);
        assertError(await world.members.read.api.get(`/v1/collections/${top.id}`), 404);
        assertError(await world.admin.api.post(`/v1/collections/${top.id}/transfer`, { organization: world.otherOrganizationId }), 409, 'would change nothing');
      });

      it('needs the admin level on the collection and the admin role in the target organization', async () => {
        const collection = await newCollection(world.admin);
        const third = await createWorld(t.ctx, t.app, t.clock);
        await addMember(t.ctx, third.organizationId, world.admin.id, 'edit');
        const transfer = (user: TestUser, organization: string) => user.api.post(`/v1/collections/${collection.id}/transfer`, { organization });
        assertError(await transfer(world.admin, third.organizationId), 403, 'Only administrators of the target organization');
        assertError(await transfer(world.admin, 'nope'), 404, 'No organization');
        assertError(await transfer(world.members.create, world.otherOrganizationId), 403, 'Only administrators of this collection');
        assertError(await transfer(world.guest, world.otherOrganizationId), 404, 'No collection');
        assertError(await transfer(world.outsider, world.otherOrganizationId), 404, 'No collection');
        assertError(await world.admin.api.post(`/v1/collections/${collection.id}/transfer`, { organization: 5 }), 400, '"organization"');
      });
    });
  });
}
