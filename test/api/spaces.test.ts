import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { addMember, cast, createUser, createWorld, type TestUser, type World, postCollection, postSpace } from '../helpers/factories.ts';
import { MEMBER_ROLES, roleAtLeast, type MemberRole } from '../../src/policy/roles.ts';

/** The permissions object a caller with `level` (null: no level, only what visibility opens) should get. */
function permissionsFor(level: MemberRole | null, view = level !== null) {
  const at = (role: MemberRole) => roleAtLeast(level, role) && level !== null;
  return {
    view,
    access: at('read'),
    admin: level === 'admin',
    viewInviteLinks: level === 'admin',
    edit: at('edit'),
    triggerGitSync: at('edit'),
    comment: at('comment'),
    merge: at('review'),
    review: at('review'),
  };
}

for (const dialect of dialects) {
  describe(`spaces [${dialect}]`, () => {
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
    const spaceCount = async () => Number((await t.ctx.db.selectFrom('spaces').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
    const ids = (reply: Reply) => reply.body.items.map((item: { id: string }) => item.id);

    describe('POST /v1/orgs/{organizationId}/spaces', () => {
      it('creates an empty private space at the root, with its first revision, and answers 201 with its address', async () => {
        t.clock.advance(1000);
        const reply = await world.admin.api.post(`${orgUrl}/spaces`, { title: 'Handbook', emoji: '📘' });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        const space = reply.body;
        assert.equal(reply.headers.location, `http://quire.test/v1/spaces/${space.id}`);
        assert.equal(space.object, 'space');
        assert.equal(space.type, 'document');
        assert.equal(space.title, 'Handbook');
        assert.equal(space.emoji, '📘');
        assert.equal(space.visibility, 'private');
        assert.equal(space.editMode, 'live');
        assert.equal(space.defaultLevel, 'inherit');
        assert.equal(space.organization, world.organizationId);
        assert.equal(space.parent, undefined);
        assert.equal(space.deletedAt, undefined);
        assert.equal(space.createdAt, t.clock.now().toISOString());
        assert.equal(space.updatedAt, space.createdAt);
        assert.deepEqual([space.comments, space.changeRequests, space.changeRequestsOpen, space.changeRequestsDraft], [0, 0, 0, 0]);
        assert.deepEqual(space.urls, { location: `http://quire.test/v1/spaces/${space.id}`, app: `http://quire.test/v1/spaces/${space.id}` });
        assert.deepEqual(space.permissions, permissionsFor('admin'));
        const revision = await t.ctx.db.selectFrom('revisions').selectAll().where('id', '=', space.revision).executeTakeFirstOrThrow();
        assert.equal(revision.space_id, space.id);
        assert.deepEqual(JSON.parse(revision.parents), []);
      });

      it('takes the defaults, the edit mode and the visibility; a requested template creates the space empty', async () => {
        const bare = await newSpace(world.admin);
        assert.equal(bare.title, 'Untitled');
        assert.equal(bare.emoji, '');
        const locked = await newSpace(world.admin, { title: 'Frozen', editMode: 'locked', visibility: 'public' });
        assert.equal(locked.editMode, 'locked');
        assert.equal(locked.visibility, 'public');
        assert.equal(locked.urls.published, `http://quire.test/s/${locked.id}`);
        assert.equal(locked.urls.public, `http://quire.test/s/${locked.id}`);
        const unlisted = await newSpace(world.admin, { visibility: 'unlisted' });
        assert.equal(unlisted.urls.published, `http://quire.test/s/${unlisted.id}`);
        assert.equal(unlisted.urls.public, undefined);
        const templated = await newSpace(world.admin, { title: 'From a template', template: { id: 'product-docs', params: { contentRefs: {} } } });
        assert.equal(templated.title, 'From a template');
      });

      it('creates a space inside a collection, "in-collection" by default, after the collection\'s other content', async () => {
        const collection = await newCollection(world.admin, { title: 'Guides' });
        const first = await newSpace(world.members.create, { title: 'First', parent: collection.id });
        assert.equal(first.parent, collection.id);
        assert.equal(first.visibility, 'in-collection');
        assert.equal(first.urls.published, `http://quire.test/s/${first.id}`);
        const second = await newSpace(world.members.create, { title: 'Second', parent: collection.id, visibility: 'private' });
        assert.equal(second.visibility, 'private');
        assert.deepEqual(ids(await world.admin.api.get(`/v1/collections/${collection.id}/spaces`)), [first.id, second.id]);
      });

      it('names the field that fails validation, and creates nothing', async () => {
        const before = await spaceCount();
        const other = await newCollection(world.outsider, {}, world.otherOrganizationId);
        const post = (body: unknown) => world.admin.api.post(`${orgUrl}/spaces`, body);
        assertError(await post({ title: 'x'.repeat(51) }), 400, '"title" must NOT have more than 50 characters');
        assertError(await post({ title: 42 }), 400, '"title"');
        assertError(await post({ emoji: 'x'.repeat(51) }), 400, '"emoji"');
        assertError(await post({ editMode: 'draft' }), 400, '"editMode" must be one of: "live", "locked"');
        assertError(await post({ visibility: 'secret' }), 400, '"visibility"');
        assertError(await post({ parent: '' }), 400, '"parent"');
        assertError(await post({ colour: 'red' }), 400, '"colour"');
        assertError(await post({ computedSource: { type: 'openapi' } }), 400, '"computedSource"');
        assertError(await post({ template: {} }), 400, '"template.id"');
        assertError(await post({ parent: 'nope' }), 400, 'The body member "parent" names collection "nope", which does not exist in this organization');
        assertError(await post({ parent: other.id }), 400, `"parent" names collection "${other.id}"`);
        assertError(await post({ visibility: 'in-collection' }), 400, '"visibility" cannot be "in-collection"');
        assert.equal(await spaceCount(), before);
      });

      it('lets the create role and administrators create; other roles and guests get 403, outsiders 404', async () => {
        const before = await spaceCount();
        for (const [name, user] of cast(world)) {
          const reply = await user.api.post(`${orgUrl}/spaces`, { title: `By ${name}` });
          if (name === 'admin' || name === 'create') assert.equal(reply.status, 201, name);
          else if (name === 'outsider') assertError(reply, 404, 'No organization');
          else assertError(reply, 403, 'create role');
        }
        assert.equal(await spaceCount(), before + 2);
        assertError(await world.admin.api.post('/v1/orgs/nope/spaces', {}), 404);
        assertError(await client(t.app).post(`${orgUrl}/spaces`, {}), 401);
      });

      it('needs the create level in the collection: a collection with default level "read" refuses the create role', async () => {
        const collection = await newCollection(world.admin, { title: 'Read-only' });
        assert.equal((await world.admin.api.patch(`/v1/collections/${collection.id}`, { defaultLevel: 'read' })).status, 200);
        assertError(await world.members.create.api.post(`${orgUrl}/spaces`, { parent: collection.id }), 403, 'create level in this collection');
        assert.equal((await world.admin.api.post(`${orgUrl}/spaces`, { parent: collection.id })).status, 201);
        const hidden = await newCollection(world.admin, { title: 'Hidden' });
        await world.admin.api.patch(`/v1/collections/${hidden.id}`, { defaultLevel: null });
        assertError(await world.members.create.api.post(`${orgUrl}/spaces`, { parent: hidden.id }), 400, `names collection "${hidden.id}", which does not exist`);
      });
    });

    describe('GET /v1/spaces/{spaceId} and the levels', () => {
      it('answers every member with the permissions of their role; guests, outsiders and unknown spaces get 404', async () => {
        const space = await newSpace(world.admin, { title: 'Private' });
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(`/v1/spaces/${space.id}`);
          if (name === 'guest' || name === 'outsider') {
            assertError(reply, 404, `No space "${space.id}" exists that you can read`);
            continue;
          }
          assert.equal(reply.status, 200, name);
          assert.equal(reply.body.id, space.id);
          assert.deepEqual(reply.body.permissions, permissionsFor(name as MemberRole), name);
        }
        assertError(await world.admin.api.get('/v1/spaces/nope'), 404, 'No space "nope"');
        assertError(await client(t.app).get(`/v1/spaces/${space.id}`), 401);
        const shared = await world.members.read.api.get(`/v1/spaces/${space.id}?shareKey=anything`);
        assert.equal(shared.status, 200, 'shareKey is accepted');
      });

      it('inherits the default level of the collections: "read" makes the space read-only, a space level lowers it further, "none" hides it', async () => {
        const readOnly = await newCollection(world.admin, { title: 'Read' });
        await world.admin.api.patch(`/v1/collections/${readOnly.id}`, { defaultLevel: 'read' });
        const inside = await newSpace(world.admin, { parent: readOnly.id });
        const asEdit = await world.members.edit.api.get(`/v1/spaces/${inside.id}`);
        assert.equal(asEdit.status, 200);
        assert.deepEqual(asEdit.body.permissions, permissionsFor('read'));
        assert.deepEqual((await world.admin.api.get(`/v1/spaces/${inside.id}`)).body.permissions, permissionsFor('admin'));

        const commentable = await newCollection(world.admin, { title: 'Comment' });
        await world.admin.api.patch(`/v1/collections/${commentable.id}`, { defaultLevel: 'comment' });
        const child = await newCollection(world.admin, { title: 'Child', parent: commentable.id });
        const deep = await newSpace(world.admin, { parent: child.id });
        assert.deepEqual((await world.members.review.api.get(`/v1/spaces/${deep.id}`)).body.permissions, permissionsFor('comment'), 'inherited through two collections');
        assert.deepEqual((await world.members.read.api.get(`/v1/spaces/${deep.id}`)).body.permissions, permissionsFor('read'), 'a level never raises a role');
        await world.admin.api.patch(`/v1/spaces/${deep.id}`, { defaultLevel: 'review' });
        assert.deepEqual((await world.members.create.api.get(`/v1/spaces/${deep.id}`)).body.permissions, permissionsFor('review'), 'the space\'s own level comes first');

        const hidden = await newCollection(world.admin, { title: 'Hidden' });
        await world.admin.api.patch(`/v1/collections/${hidden.id}`, { defaultLevel: null });
        const secret = await newSpace(world.admin, { parent: hidden.id });
        for (const role of MEMBER_ROLES) {
          const reply = await world.members[role].api.get(`/v1/spaces/${secret.id}`);
          if (role === 'admin') assert.equal(reply.status, 200);
          else assertError(reply, 404, 'No space');
        }
        await world.admin.api.patch(`/v1/spaces/${secret.id}`, { defaultLevel: 'edit' });
        assert.deepEqual((await world.members.review.api.get(`/v1/spaces/${secret.id}`)).body.permissions, permissionsFor('edit'), 'a level on the space opens it again');
        const rootHidden = await newSpace(world.admin);
        await world.admin.api.patch(`/v1/spaces/${rootHidden.id}`, { defaultLevel: null });
        assertError(await world.members.create.api.get(`/v1/spaces/${rootHidden.id}`), 404);
      });

      it('lets anyone read a public or unlisted space (view only), but not a share-link or visitor-auth one', async () => {
        for (const visibility of ['public', 'unlisted'] as const) {
          const space = await newSpace(world.admin, { visibility });
          for (const user of [world.outsider, world.guest]) {
            const reply = await user.api.get(`/v1/spaces/${space.id}`);
            assert.equal(reply.status, 200, visibility);
            assert.deepEqual(reply.body.permissions, permissionsFor(null, true));
            assertError(await user.api.patch(`/v1/spaces/${space.id}`, { title: 'Mine' }), 403, 'administrators');
          }
          assert.deepEqual((await world.members.read.api.get(`/v1/spaces/${space.id}`)).body.permissions, permissionsFor('read'));
        }
        for (const visibility of ['share-link', 'visitor-auth'] as const) {
          const space = await newSpace(world.admin, { visibility });
          assertError(await world.outsider.api.get(`/v1/spaces/${space.id}?shareKey=guess`), 404, 'No space');
          assertError(await world.guest.api.get(`/v1/spaces/${space.id}`), 404, 'No space');
        }
      });
    });

    describe('GET /v1/orgs/{organizationId}/spaces', () => {
      let w: World;
      let url: string;
      let spaces: Record<string, string>;
      before(async () => {
        w = await createWorld(t.ctx, t.app, t.clock);
        url = `/v1/orgs/${w.organizationId}/spaces`;
        spaces = {};
        const hidden = await newCollection(w.admin, { title: 'Hidden' }, w.organizationId);
        await w.admin.api.patch(`/v1/collections/${hidden.id}`, { defaultLevel: null });
        spaces.open = (await newSpace(w.admin, { title: 'Open' }, w.organizationId)).id;
        spaces.none = (await newSpace(w.admin, { title: 'None' }, w.organizationId)).id;
        await w.admin.api.patch(`/v1/spaces/${spaces.none}`, { defaultLevel: null });
        spaces.public = (await newSpace(w.admin, { title: 'Public', visibility: 'public' }, w.organizationId)).id;
        await w.admin.api.patch(`/v1/spaces/${spaces.public}`, { defaultLevel: null });
        spaces.hidden = (await newSpace(w.admin, { title: 'In hidden', parent: hidden.id }, w.organizationId)).id;
        spaces.deleted = (await newSpace(w.admin, { title: 'Deleted' }, w.organizationId)).id;
        assert.equal((await w.admin.api.delete(`/v1/spaces/${spaces.deleted}`)).status, 205);
      });

      it('lists the spaces each caller can see, oldest first, never those in the trash; outsiders get 404', async () => {
        for (const [name, user] of cast(w)) {
          const reply = await user.api.get(url);
          if (name === 'outsider') {
            assertError(reply, 404, 'No organization');
            continue;
          }
          assert.equal(reply.status, 200, name);
          const expected = name === 'admin' ? ['open', 'none', 'public', 'hidden'] : name === 'guest' ? ['public'] : ['open', 'public'];
          assert.deepEqual(ids(reply), expected.map((key) => spaces[key]), name);
          assert.equal(reply.body.count, expected.length, name);
          const publicItem = reply.body.items.find((item: { id: string }) => item.id === spaces.public);
          assert.deepEqual(publicItem.permissions, name === 'admin' ? permissionsFor('admin') : permissionsFor(null, true), name);
        }
      });

      it('walks the list with next.page, and refuses a cursor from another list', async () => {
        const seen: string[] = [];
        let page: string | undefined;
        do {
          const reply = await w.admin.api.get(`${url}?limit=1${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          assert.equal(reply.status, 200);
          assert.equal(reply.body.count, 4);
          seen.push(...ids(reply));
          page = reply.body.next?.page;
        } while (page);
        assert.deepEqual(seen, ['open', 'none', 'public', 'hidden'].map((key) => spaces[key]));
        const first = await w.admin.api.get(`${url}?limit=1`);
        assertError(await w.members.read.api.get(`${url}?page=${encodeURIComponent(first.body.next.page)}`), 400, '"page" cursor');
        assertError(await w.admin.api.get(`${url}?limit=1001`), 400, '"limit"');
      });
    });

    describe('PATCH /v1/spaces/{spaceId}', () => {
      it('changes title, edit mode, default level, language and emoji; an unchanged body leaves updatedAt alone', async () => {
        const space = await newSpace(world.admin, { title: 'Draft', emoji: '📝' });
        t.clock.advance(5000);
        const reply = await world.admin.api.patch(`/v1/spaces/${space.id}`, { title: 'Final', editMode: 'locked', defaultLevel: 'comment', language: 'fr', emoji: '📗' });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.title, 'Final');
        assert.equal(reply.body.editMode, 'locked');
        assert.equal(reply.body.defaultLevel, 'comment');
        assert.equal(reply.body.language, 'fr');
        assert.equal(reply.body.emoji, '📗');
        assert.equal(reply.body.updatedAt, t.clock.now().toISOString());
        assert.equal(reply.body.createdAt, space.createdAt);
        const got = await world.admin.api.get(`/v1/spaces/${space.id}`);
        assert.deepEqual(got.body, reply.body);
        t.clock.advance(5000);
        const same = await world.admin.api.patch(`/v1/spaces/${space.id}`, { title: 'Final' });
        assert.equal(same.body.updatedAt, reply.body.updatedAt);
        const cleared = await world.admin.api.patch(`/v1/spaces/${space.id}`, { defaultLevel: null, language: null, editMode: 'live' });
        assert.equal(cleared.body.defaultLevel, null);
        assert.equal(cleared.body.language, undefined);
        assert.equal(cleared.body.editMode, 'live');
      });

      it('shows an emoji or an icon: each replaces the other, null removes it, both at once is refused', async () => {
        const space = await newSpace(world.admin, { emoji: '🎉' });
        const icon = await world.admin.api.patch(`/v1/spaces/${space.id}`, { icon: 'https://example.com/icon.png' });
        assert.equal(icon.status, 200);
        assert.equal(icon.body.urls.icon, 'https://example.com/icon.png');
        assert.equal(icon.body.emoji, '');
        const emoji = await world.admin.api.patch(`/v1/spaces/${space.id}`, { emoji: '🚀' });
        assert.equal(emoji.body.emoji, '🚀');
        assert.equal(emoji.body.urls.icon, undefined);
        const removed = await world.admin.api.patch(`/v1/spaces/${space.id}`, { emoji: null, icon: null });
        assert.equal(removed.body.emoji, '');
        assert.equal(removed.body.urls.icon, undefined);
        assertError(await world.admin.api.patch(`/v1/spaces/${space.id}`, { emoji: '🚀', icon: 'https://example.com/i.png' }), 400, '"emoji" and "icon" cannot both be set');
        assertError(await world.admin.api.patch(`/v1/spaces/${space.id}`, { icon: 'not a url' }), 400, '"icon"');
      });

      it('changes the visibility; "in-collection" only for a space in a collection', async () => {
        const space = await newSpace(world.admin);
        const reply = await world.admin.api.patch(`/v1/spaces/${space.id}`, { visibility: 'public' });
        assert.equal(reply.body.visibility, 'public');
        assert.equal(reply.body.urls.public, `http://quire.test/s/${space.id}`);
        assert.equal((await world.outsider.api.get(`/v1/spaces/${space.id}`)).status, 200);
        assertError(await world.admin.api.patch(`/v1/spaces/${space.id}`, { visibility: 'in-collection' }), 400, 'The body member "visibility" cannot be "in-collection"');
        const collection = await newCollection(world.admin);
        const inside = await newSpace(world.admin, { parent: collection.id, visibility: 'private' });
        assert.equal((await world.admin.api.patch(`/v1/spaces/${inside.id}`, { visibility: 'in-collection' })).body.visibility, 'in-collection');
      });

      it('names the field that fails validation and changes nothing', async () => {
        const space = await newSpace(world.admin, { title: 'Stable' });
        const patch = (body: unknown) => world.admin.api.patch(`/v1/spaces/${space.id}`, body);
        assertError(await patch({ title: 'x'.repeat(51) }), 400, '"title"');
        assertError(await patch({ editMode: 'frozen' }), 400, '"editMode"');
        assertError(await patch({ defaultLevel: 'owner' }), 400, 'defaultLevel');
        assertError(await patch({ language: 'xx' }), 400, 'language');
        assertError(await patch({ visibility: 'everyone' }), 400, '"visibility"');
        assertError(await patch({ organization: 'elsewhere' }), 400, '"organization"');
        assertError(await patch({ emoji: 5 }), 400, 'emoji');
        assert.equal((await world.admin.api.get(`/v1/spaces/${space.id}`)).body.title, 'Stable');
      });

      it('lets administrators change a space; other members get 403, guests and outsiders 404', async () => {
        const space = await newSpace(world.admin, { title: 'Matrix' });
        for (const [name, user] of cast(world)) {
          const reply = await user.api.patch(`/v1/spaces/${space.id}`, { title: `By ${name}` });
          if (name === 'admin') assert.equal(reply.status, 200);
          else if (name === 'guest' || name === 'outsider') assertError(reply, 404, 'No space');
          else assertError(reply, 403, 'Only administrators of this space');
        }
        assert.equal((await world.admin.api.get(`/v1/spaces/${space.id}`)).body.title, 'By admin');
      });
    });

    describe('GET /v1/orgs/{organizationId}/members/{userId}/spaces and the member count', () => {
      let w: World;
      let spaces: Record<string, string>;
      before(async () => {
        w = await createWorld(t.ctx, t.app, t.clock);
        spaces = {};
        const readOnly = await newCollection(w.admin, { title: 'Read' }, w.organizationId);
        await w.admin.api.patch(`/v1/collections/${readOnly.id}`, { defaultLevel: 'read' });
        spaces.open = (await newSpace(w.admin, { title: 'Open' }, w.organizationId)).id;
        spaces.read = (await newSpace(w.admin, { title: 'Read', parent: readOnly.id }, w.organizationId)).id;
        spaces.none = (await newSpace(w.admin, { title: 'None', visibility: 'public' }, w.organizationId)).id;
        await w.admin.api.patch(`/v1/spaces/${spaces.none}`, { defaultLevel: null });
        spaces.hiddenFromRead = (await newSpace(w.admin, { title: 'Hidden' }, w.organizationId)).id;
        await w.admin.api.patch(`/v1/spaces/${spaces.hiddenFromRead}`, { defaultLevel: null });
      });
      const url = (userId: string) => `/v1/orgs/${w.organizationId}/members/${userId}/spaces`;
      const items = (reply: Reply) => reply.body.items.map((item: { permission: string; space: { id: string } }) => [item.permission, item.space.id]);

      it('lists the spaces a member has a level on, with that level, newest first by default', async () => {
        const reply = await w.admin.api.get(url(w.members.edit.id));
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.deepEqual(items(reply), [['read', spaces.read], ['edit', spaces.open]]);
        assert.equal(reply.body.count, 2);
        assert.deepEqual(reply.body.items[0].space.permissions, permissionsFor('admin'), 'the space as the caller sees it');
        const asc = await w.admin.api.get(`${url(w.members.edit.id)}?order=asc&limit=1`);
        assert.deepEqual(items(asc), [['edit', spaces.open]]);
        const next = await w.admin.api.get(`${url(w.members.edit.id)}?order=asc&limit=1&page=${encodeURIComponent(asc.body.next.page)}`);
        assert.deepEqual(items(next), [['read', spaces.read]]);
        const admin = await w.members.read.api.get(url(w.admin.id));
        assert.deepEqual(items(admin), [['admin', spaces.none], ['admin', spaces.read], ['admin', spaces.open]], 'only the spaces the caller can see (the public one too)');
        assertError(await w.admin.api.get(`${url(w.members.edit.id)}?order=sideways`), 400, '"order"');
      });

      it('lets members ask about anyone and guests about themselves; outsiders get 404, unknown members 404', async () => {
        for (const [name, user] of cast(w)) {
          const reply = await user.api.get(url(w.members.comment.id));
          if (name === 'guest') assertError(reply, 403, 'Guests can only list their own spaces');
          else if (name === 'outsider') assertError(reply, 404, 'No organization');
          else assert.equal(reply.status, 200, name);
        }
        const own = await w.guest.api.get(url(w.guest.id));
        assert.equal(own.status, 200);
        assert.deepEqual(own.body.items, [], 'a guest has no level on any space');
        assertError(await w.admin.api.get(url(w.outsider.id)), 404, `No member "${w.outsider.id}"`);
      });

      it('counts the spaces each member can access in the member\'s "spaces"', async () => {
        const count = async (user: TestUser) => (await w.admin.api.get(`/v1/orgs/${w.organizationId}/members/${user.id}`)).body.spaces;
        assert.equal(await count(w.admin), 4);
        assert.equal(await count(w.members.read), 2);
        assert.equal(await count(w.guest), 0);
        const members = await w.admin.api.get(`/v1/orgs/${w.organizationId}/members`);
        const edit = members.body.items.find((m: { id: string }) => m.id === w.members.edit.id);
        assert.equal(edit.spaces, 2);
        const late = await createUser(t.ctx, t.app, 'late');
        await addMember(t.ctx, w.organizationId, late.id, 'comment');
        assert.equal(await count(late), 2);
      });
    });
  });
}
