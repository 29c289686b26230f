import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { runDueJobs } from '../../src/jobs/index.ts';
import { cast, createWorld, postCollection, postSpace, type TestUser, type World } from '../helpers/factories.ts';

/**
 * Sharing spaces and collections with users and teams: the routes, and what a grant does to every way of
 * reaching content (the space itself, the lists of an organization, of a collection, of a member, search).
 */
for (const dialect of dialects) {
  describe(`sharing [${dialect}]`, () => {
    let t: TestApp;
    let w: World;
    let org: string;
    /** shared: the space given to the guest; other: a space nobody shares; inner: in collection top; deep: in top/child; closed: default level none. */
    const s: Record<string, string> = {};
    const c: Record<string, string> = {};
    before(async () => {
      t = await createTestApp(dialect);
      w = await createWorld(t.ctx, t.app, t.clock);
      org = w.organizationId;
      s.shared = (await postSpace(t.clock, w.admin, org, { title: 'Shared' })).id;
      s.other = (await postSpace(t.clock, w.admin, org, { title: 'Other' })).id;
      c.top = (await postCollection(t.clock, w.admin, org, { title: 'Top' })).id;
      c.child = (await postCollection(t.clock, w.admin, org, { title: 'Child', parent: c.top })).id;
      s.inner = (await postSpace(t.clock, w.admin, org, { title: 'Inner', parent: c.top })).id;
      s.deep = (await postSpace(t.clock, w.admin, org, { title: 'Deep', parent: c.child })).id;
      s.closed = (await postSpace(t.clock, w.admin, org, { title: 'Closed' })).id;
      const closed = await w.admin.api.patch(`/v1/spaces/${s.closed}`, { defaultLevel: null });
      assert.equal(closed.status, 200, JSON.stringify(closed.body));
    });
    after(() => t.close());

    const ids = (reply: Reply) => {
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.items.map((item: { id: string }) => item.id).sort();
    };
    const sorted = (...keys: string[]) => keys.map((key) => s[key]).sort();
    const share = async (user: TestUser, spaceId: string, subject: string, role: string | null) => {
      const reply = await user.api.patch(`/v1/spaces/${spaceId}/permissions/users/${subject}`, { role });
      assert.equal(reply.status, 204, JSON.stringify(reply.body));
    };

    it('a guest with edit on one space reads and edits exactly that space, and sees nothing else', async () => {
      const guest = w.guest;
      assertError(await guest.api.get(`/v1/spaces/${s.shared}`), 404);
      assert.deepEqual(ids(await guest.api.get(`/v1/orgs/${org}/spaces`)), []);

      await share(w.admin, s.shared, guest.id, 'edit');

      const space = await guest.api.get(`/v1/spaces/${s.shared}`);
      assert.equal(space.status, 200, JSON.stringify(space.body));
      assert.equal(space.body.permissions.edit, true);
      assert.equal(space.body.permissions.comment, true);
      assert.equal(space.body.permissions.admin, false);
      assert.equal(space.body.permissions.merge, false);
      const cr = await guest.api.post(`/v1/spaces/${s.shared}/change-requests`, { subject: 'A fix from a contractor' });
      assert.equal(cr.status, 201, JSON.stringify(cr.body));
      assertError(await guest.api.patch(`/v1/spaces/${s.shared}`, { title: 'Mine now' }), 403);

      assert.deepEqual(ids(await guest.api.get(`/v1/orgs/${org}/spaces`)), [s.shared]);
      assert.deepEqual(ids(await guest.api.get(`/v1/orgs/${org}/collections`)), []);
      for (const key of ['other', 'inner', 'deep', 'closed']) assertError(await guest.api.get(`/v1/spaces/${s[key]}`), 404);
      assertError(await guest.api.get(`/v1/collections/${c.top}/spaces`), 404);
      const mine = await guest.api.get(`/v1/orgs/${org}/members/${guest.id}/spaces`);
      assert.equal(mine.status, 200, JSON.stringify(mine.body));
      assert.deepEqual(mine.body.items.map((item: { space: { id: string }; permission: string }) => [item.space.id, item.permission]), [[s.shared, 'edit']]);
      const search = await guest.api.get(`/v1/orgs/${org}/search?query=anything`);
      assert.equal(search.status, 200, JSON.stringify(search.body));
    });

    it('lists the users a space is shared with, and everyone who can access it with their level', async () => {
      const users = await w.members.read.api.get(`/v1/spaces/${s.shared}/permissions/users`);
      assert.equal(users.status, 200, JSON.stringify(users.body));
      assert.deepEqual(users.body.items.map((item: { user: { id: string }; permission: string }) => [item.user.id, item.permission]), [[w.guest.id, 'edit']]);
      assert.equal(users.body.items[0].user.object, 'user');

      const aggregate = await w.admin.api.get(`/v1/spaces/${s.shared}/permissions/aggregate`);
      assert.equal(aggregate.status, 200, JSON.stringify(aggregate.body));
      const levels = Object.fromEntries(aggregate.body.items.map((item: { user: { id: string }; permission: string }) => [item.user.id, item.permission]));
      assert.deepEqual(levels, {
        [w.admin.id]: 'admin',
        [w.members.create.id]: 'create',
        [w.members.review.id]: 'review',
        [w.members.edit.id]: 'edit',
        [w.members.comment.id]: 'comment',
        [w.members.read.id]: 'read',
        [w.guest.id]: 'edit',
      });
      const editors = await w.admin.api.get(`/v1/spaces/${s.shared}/permissions/aggregate?role=edit&limit=1`);
      assert.equal(editors.status, 200);
      assert.equal(editors.body.count, 2);
      assert.equal(editors.body.items.length, 1);
      const rest = await w.admin.api.get(`/v1/spaces/${s.shared}/permissions/aggregate?role=edit&limit=1&page=${encodeURIComponent(editors.body.next.page)}`);
      assert.deepEqual([editors.body.items[0].user.id, rest.body.items[0].user.id].sort(), [w.members.edit.id, w.guest.id].sort());
      assert.equal(rest.body.next, undefined);

      const closed = await w.admin.api.get(`/v1/spaces/${s.closed}/permissions/aggregate`);
      assert.deepEqual(closed.body.items.map((item: { user: { id: string } }) => item.user.id), [w.admin.id], 'default level none: administrators only');
      assertError(await w.guest.api.get(`/v1/spaces/${s.other}/permissions/users`), 404);
      assertError(await w.outsider.api.get(`/v1/spaces/${s.shared}/permissions/aggregate`), 404);
      // A guest with a grant reads the space, but not who else it is shared with (the lists carry e-mails).
      assert.equal((await w.guest.api.get(`/v1/spaces/${s.shared}`)).status, 200);
      for (const list of ['users', 'teams', 'aggregate']) {
        const refused = await w.guest.api.get(`/v1/spaces/${s.shared}/permissions/${list}`);
        assertError(refused, 403, 'Only members of the organization');
        assert.equal(JSON.stringify(refused.body).includes('@'), false, 'no e-mail in the refusal');
      }
    });

    it('never lowers a member below what their organization role gives, and opens a closed space to the one it is given to', async () => {
      await share(w.admin, s.shared, w.members.edit.id, 'read');
      const edit = await w.members.edit.api.get(`/v1/spaces/${s.shared}`);
      assert.equal(edit.body.permissions.edit, true);
      await share(w.admin, s.shared, w.members.edit.id, null);

      assertError(await w.members.read.api.get(`/v1/spaces/${s.closed}`), 404);
      assert.ok(!ids(await w.members.read.api.get(`/v1/orgs/${org}/spaces`)).includes(s.closed));
      await share(w.admin, s.closed, w.members.read.id, 'review');
      const closed = await w.members.read.api.get(`/v1/spaces/${s.closed}`);
      assert.equal(closed.status, 200);
      assert.equal(closed.body.permissions.review, true);
      assert.equal(closed.body.permissions.admin, false);
      assert.ok(ids(await w.members.read.api.get(`/v1/orgs/${org}/spaces`)).includes(s.closed));
      const listed = (await w.members.read.api.get(`/v1/orgs/${org}/spaces`)).body.items.find((item: { id: string }) => item.id === s.closed);
      assert.equal(listed.permissions.review, true, 'lists say what the space says');
      const removed = await w.admin.api.delete(`/v1/spaces/${s.closed}/permissions/users/${w.members.read.id}`);
      assert.equal(removed.status, 205);
      assertError(await w.members.read.api.get(`/v1/spaces/${s.closed}`), 404);
      assert.equal((await w.admin.api.delete(`/v1/spaces/${s.closed}/permissions/users/${w.members.read.id}`)).status, 204);
    });

    it("a team's role on a collection reaches every space under it, and leaves when the grant does", async () => {
      t.clock.advance(1000);
      const team = await w.admin.api.put(`/v1/orgs/${org}/teams`, { title: 'Contractors', members: [w.guest.id] });
      assert.equal(team.status, 201, JSON.stringify(team.body));
      const teamId = team.body.id;
      const given = await w.admin.api.patch(`/v1/collections/${c.top}/permissions/teams/${teamId}`, { role: 'admin' });
      assert.equal(given.status, 204, JSON.stringify(given.body));

      const guest = w.guest.api;
      assert.deepEqual(ids(await guest.get(`/v1/orgs/${org}/spaces`)), sorted('shared', 'inner', 'deep'));
      assert.deepEqual(ids(await guest.get(`/v1/orgs/${org}/collections`)), [c.top, c.child].sort());
      assert.deepEqual(ids(await guest.get(`/v1/collections/${c.child}/spaces`)), [s.deep]);
      const deep = await guest.get(`/v1/spaces/${s.deep}`);
      assert.equal(deep.body.permissions.admin, true);
      const collection = await guest.get(`/v1/collections/${c.child}`);
      assert.equal(collection.status, 200);
      assert.equal(collection.body.permissions.admin, true);

      const teams = await guest.get(`/v1/collections/${c.top}/permissions/teams`);
      assert.equal(teams.status, 200, JSON.stringify(teams.body));
      assert.deepEqual(teams.body.items.map((item: { team: { id: string }; permission: string }) => [item.team.id, item.permission]), [[teamId, 'admin']]);
      const inherited = await w.admin.api.get(`/v1/collections/${c.child}/permissions/aggregate?role=admin`);
      assert.ok(inherited.body.items.some((item: { user: { id: string } }) => item.user.id === w.guest.id));
      const spaceAggregate = await w.admin.api.get(`/v1/spaces/${s.deep}/permissions/aggregate?role=admin`);
      assert.ok(spaceAggregate.body.items.some((item: { user: { id: string } }) => item.user.id === w.guest.id));

      const removed = await w.admin.api.delete(`/v1/collections/${c.top}/permissions/teams/${teamId}`);
      assert.equal(removed.status, 205);
      assert.deepEqual(ids(await guest.get(`/v1/orgs/${org}/spaces`)), [s.shared]);
      assertError(await guest.get(`/v1/spaces/${s.deep}`), 404);
      assertError(await guest.get(`/v1/collections/${c.child}`), 404);
    });

    it('invites users and teams at once, all or nothing', async () => {
      t.clock.advance(1000);
      const team = await w.admin.api.put(`/v1/orgs/${org}/teams`, { title: 'Reviewers', members: [w.members.comment.id] });
      const body = { role: 'comment', users: [w.members.read.id], teams: [team.body.id] };
      assertError(await w.admin.api.post(`/v1/spaces/${s.closed}/permissions`, { ...body, users: [w.members.read.id, w.outsider.id] }), 404, w.outsider.id);
      assertError(await w.members.read.api.get(`/v1/spaces/${s.closed}`), 404, undefined);
      const invited = await w.admin.api.post(`/v1/spaces/${s.closed}/permissions`, body);
      assert.equal(invited.status, 204, JSON.stringify(invited.body));
      assert.equal((await w.members.read.api.get(`/v1/spaces/${s.closed}`)).body.permissions.comment, true);
      assert.equal((await w.members.comment.api.get(`/v1/spaces/${s.closed}`)).body.permissions.comment, true);
      const teams = await w.admin.api.get(`/v1/spaces/${s.closed}/permissions/teams`);
      assert.equal(teams.body.items[0].team.spaces, 1, 'the team counts the space it was given');
      const collectionInvite = await w.admin.api.post(`/v1/collections/${c.child}/permissions`, { role: 'read', users: [w.guest.id] });
      assert.equal(collectionInvite.status, 204);
      const collectionUsers = await w.admin.api.get(`/v1/collections/${c.child}/permissions/users`);
      assert.deepEqual(collectionUsers.body.items.map((item: { user: { id: string } }) => item.user.id), [w.guest.id]);
      const removedByNull = await w.admin.api.patch(`/v1/collections/${c.child}/permissions/users/${w.guest.id}`, { role: null });
      assert.equal(removedByNull.status, 204);
      assert.equal((await w.admin.api.get(`/v1/collections/${c.child}/permissions/users`)).body.count, 0);
    });

    it('lets only administrators of the content share it; names bad bodies and unknown users and teams', async () => {
      const url = `/v1/spaces/${s.other}/permissions/users/${w.members.read.id}`;
      for (const [name, user] of cast(w)) {
        const reply = await user.api.patch(url, { role: 'edit' });
        if (name === 'admin') assert.equal(reply.status, 204);
        else if (name === 'guest' || name === 'outsider') assertError(reply, 404, 'No space');
        else assertError(reply, 403, 'Only administrators of this space');
      }
      assertError(await w.members.edit.api.patch(`/v1/collections/${c.top}/permissions/users/${w.guest.id}`, { role: 'read' }), 403, 'Only administrators of this collection');
      assertError(await w.admin.api.patch(url, { role: 'owner' }), 400, 'role');
      assertError(await w.admin.api.patch(url, {}), 400, 'role');
      assertError(await w.admin.api.patch(`/v1/spaces/${s.other}/permissions/users/nobody`, { role: 'read' }), 404, 'No user "nobody"');
      assertError(await w.admin.api.patch(`/v1/spaces/${s.other}/permissions/users/${w.outsider.id}`, { role: 'read' }), 404, 'invite them to the organization');
      assertError(await w.admin.api.patch(`/v1/spaces/${s.other}/permissions/teams/nope`, { role: 'read' }), 404, 'No team "nope"');
      assertError(await w.admin.api.post(`/v1/spaces/${s.other}/permissions`, { role: 'read' }), 400, '"users" or "teams"');
      assertError(await w.admin.api.post(`/v1/spaces/${s.other}/permissions`, { role: 'read', users: [] }), 400, 'users');
      assertError(await w.admin.api.patch(`/v1/spaces/missing/permissions/users/${w.guest.id}`, { role: 'read' }), 404, 'No space');
      assert.equal((await w.admin.api.delete(`/v1/spaces/${s.other}/permissions/teams/nope`)).status, 204);
    });

    it('removes grants with what they name: a purged space or collection, a deleted team, a member who leaves', async () => {
      const grants = (column: 'resource_id' | 'subject_id', id: string) =>
        t.ctx.db.selectFrom('content_permissions').select('id').where(column, '=', id).execute().then((rows) => rows.length);
      t.clock.advance(1000);
      const team = await w.admin.api.put(`/v1/orgs/${org}/teams`, { title: 'Short-lived', members: [w.members.read.id] });
      assert.equal(team.status, 201, JSON.stringify(team.body));
      const doomed = (await postSpace(t.clock, w.admin, org, { title: 'Doomed' })).id;
      const folder = (await postCollection(t.clock, w.admin, org, { title: 'Doomed folder' })).id;
      await share(w.admin, doomed, w.members.comment.id, 'edit');
      assert.equal((await w.admin.api.patch(`/v1/spaces/${s.other}/permissions/teams/${team.body.id}`, { role: 'edit' })).status, 204);
      assert.equal((await w.admin.api.patch(`/v1/collections/${folder}/permissions/users/${w.members.comment.id}`, { role: 'admin' })).status, 204);
      await share(w.admin, s.other, w.members.comment.id, 'review');
      assert.deepEqual([await grants('resource_id', doomed), await grants('subject_id', team.body.id), await grants('resource_id', folder)], [1, 1, 1]);

      assert.equal((await w.admin.api.delete(`/v1/orgs/${org}/teams/${team.body.id}`)).status, 205);
      assert.equal(await grants('subject_id', team.body.id), 0, 'a deleted team keeps no grant');

      assert.equal((await w.admin.api.delete(`/v1/spaces/${doomed}`)).status, 205);
      assert.equal((await w.admin.api.delete(`/v1/collections/${folder}`)).status, 205);
      assert.equal(await grants('resource_id', doomed), 1, 'a space in the trash keeps its grants, to be restored with them');
      t.clock.advance(8 * 24 * 3600 * 1000);
      for (let round = 0; round < 5; round++) if ((await runDueJobs(t.ctx, { workerId: 'test' })).claimed === 0) break;
      assert.deepEqual([await grants('resource_id', doomed), await grants('resource_id', folder)], [0, 0], 'purged content keeps no grant');

      assert.ok((await grants('subject_id', w.members.comment.id)) >= 1);
      assert.equal((await w.admin.api.delete(`/v1/orgs/${org}/members/${w.members.comment.id}`)).status, 205);
      assert.equal(await grants('subject_id', w.members.comment.id), 0, 'a member who leaves keeps no grant');
    });
  });
}
