import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { addMember, cast, createUser, createWorld, type TestUser, type World } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`teams [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let orgUrl: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      orgUrl = `/v1/orgs/${world.organizationId}`;
    });
    after(() => t.close());

    /** Every team and team membership in the database, to show that a refused write changed nothing. */
    const snapshot = async () =>
      JSON.stringify([
        await t.ctx.db.selectFrom('teams').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('team_members').selectAll().orderBy('team_id').orderBy('user_id').execute(),
      ]);
    const newTeam = async (title: string, members: string[] = []): Promise<string> => {
      t.clock.advance(1000);
      const reply = await world.admin.api.put(`${orgUrl}/teams`, { title, members });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return reply.body.id;
    };
    const roles = async (teamId: string): Promise<Record<string, string>> =>
      Object.fromEntries(
        (await t.ctx.db.selectFrom('team_members').select(['user_id', 'role']).where('team_id', '=', teamId).execute()).map((r) => [r.user_id, r.role]),
      );
    const ids = (reply: Reply) => reply.body.items.map((item: { id: string }) => item.id);
    const assertEmpty = (reply: Reply, status: 204 | 205) => {
      assert.equal(reply.status, status, JSON.stringify(reply.body));
      assert.equal(reply.body, undefined, 'no content');
    };

    describe('PUT /v1/orgs/{organizationId}/teams', () => {
      it('lets an admin create a team, trimming the title and adding the given members as plain members', async () => {
        const { read } = world.members;
        t.clock.advance(1000);
        const reply = await world.admin.api.put(`${orgUrl}/teams`, { title: '  Writers  ', members: [read.id, world.guest.id, read.id] });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        assert.equal(reply.body.object, 'team');
        assert.equal(reply.body.title, 'Writers');
        assert.equal(reply.body.members, 2);
        assert.equal(reply.body.spaces, 0);
        assert.equal(reply.body.createdAt, t.clock.now().toISOString());
        assert.deepEqual(reply.body.permissions, { admin: true, view: true });
        assert.deepEqual(await roles(reply.body.id), { [read.id]: 'member', [world.guest.id]: 'member' }, 'the creator is not added');
        const bare = await world.admin.api.put(`${orgUrl}/teams`, { title: 'Empty' });
        assert.equal(bare.status, 201);
        assert.equal(bare.body.members, 0);
      });

      it('names the field that fails validation, and a member that is not in the organization; nothing is created', async () => {
        const before = await snapshot();
        const put = (body: unknown) => world.admin.api.put(`${orgUrl}/teams`, body);
        assertError(await put({}), 400, 'missing the required member "title"');
        assertError(await put({ title: '' }), 400, '"title"');
        assertError(await put({ title: 'x'.repeat(65) }), 400, '"title"');
        assertError(await put({ title: '   ' }), 400, '"title" must not be blank');
        assertError(await put({ title: 42 }), 400, '"title"');
        assertError(await put({ title: 'Team', members: 'everyone' }), 400, '"members"');
        assertError(await put({ title: 'Team', members: [7] }), 400, 'members');
        assertError(await put({ title: 'Team', colour: 'red' }), 400, '"colour"');
        assertError(await put({ title: 'Team', members: [world.members.read.id, world.outsider.id, 'nobody'] }), 400, `"${world.outsider.id}", "nobody", who are not members`);
        assert.equal(await snapshot(), before);
      });

      it('refuses every other role and a guest with 403, an outsider and an unknown organization with 404', async () => {
        const before = await snapshot();
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.put(`${orgUrl}/teams`, { title: 'Mine' }), name === 'outsider' ? 404 : 403, name === 'outsider' ? 'No organization' : 'administrators');
        }
        assertError(await world.admin.api.put('/v1/orgs/nope/teams', { title: 'Mine' }), 404);
        assert.equal(await snapshot(), before);
      });
    });

    describe('GET /v1/orgs/{organizationId}/teams', () => {
      let w: World;
      let url: string;
      let teams: Record<string, string>;
      before(async () => {
        w = await createWorld(t.ctx, t.app, t.clock);
        url = `/v1/orgs/${w.organizationId}/teams`;
        teams = {};
        for (const title of ['Alpha writers', 'Beta readers', 'Gamma 100%', 'alphabet soup']) {
          t.clock.advance(1000);
          teams[title] = (await w.admin.api.put(url, { title })).body.id;
        }
        await w.admin.api.put(`${url}/${teams['Beta readers']}/members/${w.members.read.id}`, { role: 'owner' });
        await w.admin.api.put(`${url}/${teams['Gamma 100%']}/members/${w.members.read.id}`, { role: 'member' });
      });

      it('lists the teams oldest first to every member, with the caller\'s permissions; guests get 403, outsiders 404', async () => {
        assertError(await client(t.app).get(url), 401);
        assertError(await w.admin.api.get('/v1/orgs/nope/teams'), 404, 'No organization');
        for (const [name, user] of cast(w)) {
          const reply = await user.api.get(url);
          if (name === 'guest' || name === 'outsider') {
            assertError(reply, name === 'guest' ? 403 : 404, name === 'guest' ? 'Guests' : 'No organization');
            continue;
          }
          assert.equal(reply.status, 200, name);
          assert.deepEqual(ids(reply), Object.values(teams), name);
          assert.equal(reply.body.count, 4);
          const admin = reply.body.items.map((team: { permissions: { admin: boolean } }) => team.permissions.admin);
          assert.deepEqual(admin, name === 'admin' ? [true, true, true, true] : name === 'read' ? [false, true, false, false] : [false, false, false, false], name);
        }
        const beta = (await w.members.read.api.get(url)).body.items[1];
        assert.equal(beta.members, 1);
      });

      it('filters by title, ignoring case and treating % and _ as plain characters', async () => {
        const alpha = await w.members.edit.api.get(`${url}?title=ALPHA`);
        assert.deepEqual(ids(alpha), [teams['Alpha writers'], teams['alphabet soup']]);
        assert.equal(alpha.body.count, 2);
        assert.deepEqual(ids(await w.members.edit.api.get(`${url}?title=${encodeURIComponent('0%')}`)), [teams['Gamma 100%']]);
        assert.deepEqual(ids(await w.members.edit.api.get(`${url}?title=_`)), []);
      });

      it('filters by owner: every team for an admin, the owned teams for anyone else, none for a disabled member', async () => {
        assert.deepEqual(ids(await w.members.comment.api.get(`${url}?owner=${w.admin.id}`)), Object.values(teams));
        const owned = await w.members.comment.api.get(`${url}?owner=${w.members.read.id}`);
        assert.deepEqual(ids(owned), [teams['Beta readers']]);
        assert.equal(owned.body.count, 1);
        assert.deepEqual(ids(await w.members.read.api.get(`${url}?owner=${w.members.edit.id}&title=alpha`)), []);
        assert.deepEqual(ids(await w.admin.api.get(`${url}?owner=${w.admin.id}&title=alpha`)), [teams['Alpha writers'], teams['alphabet soup']]);
        const disabled = await createUser(t.ctx, t.app, 'disabled');
        await addMember(t.ctx, w.organizationId, disabled.id, 'admin');
        await t.ctx.db.updateTable('members').set({ disabled: 1 }).where('user_id', '=', disabled.id).execute();
        assert.deepEqual(ids(await w.admin.api.get(`${url}?owner=${disabled.id}`)), []);
        assertError(await w.admin.api.get(`${url}?owner=${w.outsider.id}`), 400, `"owner" names "${w.outsider.id}", who is not a member`);
      });

      it('walks the list page by page, and refuses a cursor carried to another filter or a bad limit', async () => {
        const seen: string[] = [];
        let page: string | undefined;
        do {
          const reply = await w.members.read.api.get(`${url}?limit=3${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          assert.equal(reply.status, 200);
          assert.equal(reply.body.count, 4);
          seen.push(...ids(reply));
          page = reply.body.next?.page;
        } while (page);
        assert.deepEqual(seen, Object.values(teams));
        const first = await w.admin.api.get(`${url}?limit=1&title=a`);
        assertError(await w.admin.api.get(`${url}?limit=1&title=b&page=${encodeURIComponent(first.body.next.page)}`), 400, 'page');
        assertError(await w.admin.api.get(`${url}?limit=1001`), 400, 'limit');
        assertError(await w.admin.api.get(`${url}?sort=title`), 400, '"sort"');
      });
    });

    describe('GET /v1/orgs/{organizationId}/teams/{teamId}', () => {
      it('shows a team to every member, and to a guest who is in it; others get 403 or 404', async () => {
        const teamId = await newTeam('Visible', [world.members.edit.id]);
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(`${orgUrl}/teams/${teamId}`);
          if (name === 'guest' || name === 'outsider') {
            assertError(reply, name === 'guest' ? 403 : 404);
            continue;
          }
          assert.equal(reply.status, 200, name);
          assert.equal(reply.body.title, 'Visible');
          assert.equal(reply.body.members, 1);
          assert.deepEqual(reply.body.permissions, { admin: name === 'admin', view: true }, name);
        }
        await world.admin.api.put(`${orgUrl}/teams/${teamId}/members/${world.guest.id}`, {});
        const guest = await world.guest.api.get(`${orgUrl}/teams/${teamId}`);
        assert.equal(guest.status, 200);
        assert.deepEqual(guest.body.permissions, { admin: false, view: true });
      });

      it('answers 404 for an unknown team and for a team of another organization', async () => {
        assertError(await world.admin.api.get(`${orgUrl}/teams/nope`), 404, 'No team "nope"');
        const elsewhere = await world.outsider.api.put(`/v1/orgs/${world.otherOrganizationId}/teams`, { title: 'Elsewhere' });
        assert.equal(elsewhere.status, 201);
        assertError(await world.admin.api.get(`${orgUrl}/teams/${elsewhere.body.id}`), 404, 'No team');
      });
    });

    describe('PATCH /v1/orgs/{organizationId}/teams/{teamId}', () => {
      it('lets an admin rename a team', async () => {
        const teamId = await newTeam('Old name', [world.members.read.id]);
        const reply = await world.admin.api.patch(`${orgUrl}/teams/${teamId}`, { title: ' New name ' });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.title, 'New name');
        assert.equal(reply.body.members, 1);
        assert.equal((await world.members.read.api.get(`${orgUrl}/teams/${teamId}`)).body.title, 'New name');
      });

      it('names the field that fails validation, refuses other roles, and changes nothing', async () => {
        const teamId = await newTeam('Stable', [world.members.edit.id]);
        const before = await snapshot();
        const patch = (body: unknown) => world.admin.api.patch(`${orgUrl}/teams/${teamId}`, body);
        assertError(await patch({}), 400, 'missing the required member "title"');
        assertError(await patch({ title: '' }), 400, '"title"');
        assertError(await patch({ title: ' ' }), 400, '"title" must not be blank');
        assertError(await patch({ title: 'y'.repeat(65) }), 400, '"title"');
        assertError(await patch({ title: 'Ok', members: [] }), 400, '"members"');
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.patch(`${orgUrl}/teams/${teamId}`, { title: 'Taken' }), name === 'outsider' ? 404 : 403, name === 'outsider' ? undefined : 'owners of the team');
        }
        assertError(await world.admin.api.patch(`${orgUrl}/teams/nope`, { title: 'Taken' }), 404, 'No team');
        assert.equal(await snapshot(), before);
      });
    });

    describe('a team owner who is a read member of the organization', () => {
      let owner: TestUser;
      let plain: TestUser;
      let teamId: string;
      before(async () => {
        owner = world.members.read;
        plain = world.members.edit;
        teamId = await newTeam('Owned');
        const set = await world.admin.api.put(`${orgUrl}/teams/${teamId}/members`, { add: [owner.id, plain.email], memberships: { [owner.id]: { role: 'owner' } } });
        assertEmpty(set, 204);
      });

      it('renames the team and manages its members, but cannot delete it', async () => {
        const team = await owner.api.get(`${orgUrl}/teams/${teamId}`);
        assert.deepEqual(team.body.permissions, { admin: true, view: true });
        assert.equal((await owner.api.patch(`${orgUrl}/teams/${teamId}`, { title: 'Renamed by owner' })).status, 200);
        assertEmpty(await owner.api.put(`${orgUrl}/teams/${teamId}/members`, { add: [world.members.comment.id] }), 204);
        assertEmpty(await owner.api.put(`${orgUrl}/teams/${teamId}/members/${world.members.review.id}`, { role: 'owner' }), 204);
        assertEmpty(await owner.api.delete(`${orgUrl}/teams/${teamId}/members/${world.members.review.id}`), 205);
        const before = await snapshot();
        assertError(await owner.api.delete(`${orgUrl}/teams/${teamId}`), 403, 'administrators');
        assert.equal(await snapshot(), before);
      });

      it('a plain member of the team can see it but not manage it', async () => {
        const before = await snapshot();
        const team = await plain.api.get(`${orgUrl}/teams/${teamId}`);
        assert.deepEqual(team.body.permissions, { admin: false, view: true });
        assertError(await plain.api.patch(`${orgUrl}/teams/${teamId}`, { title: 'Mine' }), 403);
        assertError(await plain.api.put(`${orgUrl}/teams/${teamId}/members`, { add: [world.members.create.id] }), 403);
        assertError(await plain.api.put(`${orgUrl}/teams/${teamId}/members/${plain.id}`, { role: 'owner' }), 403);
        assertError(await plain.api.delete(`${orgUrl}/teams/${teamId}/members/${owner.id}`), 403, 'remove');
        assert.equal(await snapshot(), before);
      });
    });

    describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}', () => {
      it('refuses everyone but an admin, then deletes the team and its memberships only (205), and answers 204 after', async () => {
        const teamId = await newTeam('Doomed', [world.members.read.id, world.guest.id]);
        const before = await snapshot();
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.delete(`${orgUrl}/teams/${teamId}`), name === 'outsider' ? 404 : 403);
        }
        assert.equal(await snapshot(), before);
        assertEmpty(await world.admin.api.delete(`${orgUrl}/teams/${teamId}`), 205);
        assertError(await world.admin.api.get(`${orgUrl}/teams/${teamId}`), 404);
        assert.deepEqual(await roles(teamId), {});
        const members = await t.ctx.db.selectFrom('members').select('user_id').where('organization_id', '=', world.organizationId).execute();
        assert.ok(members.some((m) => m.user_id === world.members.read.id), 'the members stay in the organization');
        assertEmpty(await world.admin.api.delete(`${orgUrl}/teams/${teamId}`), 204);
        assertEmpty(await world.admin.api.delete(`${orgUrl}/teams/nope`), 204);
      });

      it('does not reach a team of another organization', async () => {
        const elsewhere = await world.outsider.api.put(`/v1/orgs/${world.otherOrganizationId}/teams`, { title: 'Theirs' });
        assertEmpty(await world.admin.api.delete(`${orgUrl}/teams/${elsewhere.body.id}`), 204);
        assert.equal((await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/teams/${elsewhere.body.id}`)).status, 200);
      });
    });

    describe('GET /v1/orgs/{organizationId}/teams/{teamId}/members', () => {
      it('lists the members in the order they were added, with their membership of the organization and their team role', async () => {
        const { read, edit, comment } = world.members;
        const teamId = await newTeam('Listed', [edit.id]);
        t.clock.advance(1000);
        await world.admin.api.put(`${orgUrl}/teams/${teamId}/members`, { add: [read.email.toUpperCase(), comment.id], memberships: { [comment.id]: { role: 'owner' } } });
        const reply = await world.members.create.api.get(`${orgUrl}/teams/${teamId}/members`);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.count, 3);
        const listed = reply.body.items.map((i: { organization: { id: string } }) => i.organization.id);
        assert.equal(listed[0], edit.id, 'the first added comes first');
        assert.deepEqual([...listed.slice(1)].sort(), [read.id, comment.id].sort(), 'then those added together, by user id');
        const first = reply.body.items[0];
        assert.equal(first.organization.object, 'member');
        assert.equal(first.organization.role, 'edit');
        assert.equal(first.organization.user.email, edit.email);
        assert.equal(first.organization.spaces, 0);
        assert.ok(first.organization.teams >= 1);
        assert.deepEqual(first.team, { role: 'member' });
        assert.deepEqual(first.permissions, { view: true });
        const owner = reply.body.items.find((i: { organization: { id: string } }) => i.organization.id === comment.id);
        assert.deepEqual(owner.team, { role: 'owner' });
        const pages: string[] = [];
        let page: string | undefined;
        do {
          const next = await edit.api.get(`${orgUrl}/teams/${teamId}/members?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          assert.equal(next.status, 200);
          pages.push(...next.body.items.map((i: { organization: { id: string } }) => i.organization.id));
          page = next.body.next?.page;
        } while (page);
        assert.deepEqual(pages, listed);
      });

      it('answers members; a guest only when in the team, seeing only their own membership; 404 for outsiders and unknown teams', async () => {
        const teamId = await newTeam('Guests welcome', [world.members.read.id]);
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(`${orgUrl}/teams/${teamId}/members`);
          if (name === 'guest' || name === 'outsider') assertError(reply, name === 'guest' ? 403 : 404);
          else assert.equal(reply.status, 200, name);
        }
        await world.admin.api.put(`${orgUrl}/teams/${teamId}/members/${world.guest.id}`);
        const guest = await world.guest.api.get(`${orgUrl}/teams/${teamId}/members`);
        assert.equal(guest.status, 200);
        const views = Object.fromEntries(guest.body.items.map((i: { organization: { id: string }; permissions: { view: boolean } }) => [i.organization.id, i.permissions.view]));
        assert.deepEqual(views, { [world.members.read.id]: false, [world.guest.id]: true });
        assertError(await world.admin.api.get(`${orgUrl}/teams/nope/members`), 404, 'No team');
        assertError(await world.admin.api.get(`${orgUrl}/teams/${teamId}/members?limit=-1`), 400, 'limit');
      });
    });

    describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members', () => {
      it('adds by id or e-mail, removes, and sets roles; a user in both add and remove ends up removed', async () => {
        const { read, edit, comment, review } = world.members;
        const teamId = await newTeam('Bulk', [read.id, edit.id]);
        await world.admin.api.put(`${orgUrl}/teams/${teamId}/members/${edit.id}`, { role: 'owner' });
        const reply = await world.admin.api.put(`${orgUrl}/teams/${teamId}/members`, {
          add: [comment.email.toUpperCase(), review.id, world.guest.id, edit.id],
          remove: [read.email, world.guest.email, world.members.create.id],
          memberships: { [review.email]: { role: 'owner' }, [world.guest.id]: { role: 'owner' } },
        });
        assertEmpty(reply, 204);
        assert.deepEqual(await roles(teamId), { [edit.id]: 'owner', [comment.id]: 'member', [review.id]: 'owner' }, 'edit keeps their role; the guest is removed');
        assertEmpty(await world.admin.api.put(`${orgUrl}/teams/${teamId}/members`, { memberships: { [edit.id]: { role: 'member' } } }), 204);
        assert.equal((await roles(teamId))[edit.id], 'member');
        assertEmpty(await world.admin.api.put(`${orgUrl}/teams/${teamId}/members`, { add: [], remove: [] }), 204);
        assert.equal((await world.admin.api.get(`${orgUrl}/teams/${teamId}`)).body.members, 3);
      });

      it('refuses an empty body, bad members and users outside the organization, changing nothing', async () => {
        const teamId = await newTeam('Strict', [world.members.read.id]);
        const before = await snapshot();
        const put = (body: unknown) => world.admin.api.put(`${orgUrl}/teams/${teamId}/members`, body);
        assertError(await put({}), 400, '"add", "remove" or "memberships"');
        assertError(await put({ add: 'x' }), 400, '"add"');
        assertError(await put({ remove: [''] }), 400, 'remove');
        assertError(await put({ memberships: { [world.members.edit.id]: { role: 'admin' } } }), 400, 'must be one of: "owner", "member"');
        assertError(await put({ memberships: { [world.members.edit.id]: {} } }), 400, 'role');
        assertError(await put({ invite: [] }), 400, '"invite"');
        assertError(
          await put({ add: [world.members.edit.id, world.outsider.email, 'ghost@example.com'], remove: [world.members.read.id] }),
          400,
          `"${world.outsider.email}" (in "add"), "ghost@example.com" (in "add")`,
        );
        assertError(await put({ remove: ['nobody'] }), 400, '"nobody" (in "remove")');
        assertError(await put({ memberships: { [world.outsider.id]: { role: 'owner' } } }), 400, 'in "memberships"');
        assertError(await put({ memberships: { [world.members.edit.id]: { role: 'owner' } } }), 400, 'not in the team: name them in "add"');
        assertError(
          await put({ add: [world.members.edit.id], memberships: { [world.members.edit.id]: { role: 'owner' }, [world.members.edit.email]: { role: 'member' } } }),
          400,
          'two roles',
        );
        assert.equal(await snapshot(), before);
      });

      it('lets only admins and team owners change members; 404 for outsiders and unknown teams', async () => {
        const teamId = await newTeam('Guarded');
        const before = await snapshot();
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.put(`${orgUrl}/teams/${teamId}/members`, { add: [user.id] }), name === 'outsider' ? 404 : 403);
        }
        assertError(await world.admin.api.put(`${orgUrl}/teams/nope/members`, { add: [world.admin.id] }), 404);
        assert.equal(await snapshot(), before);
      });
    });

    describe('PUT /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
      it('adds a member or guest (as member by default) and changes a role; leaving out the role keeps it', async () => {
        const teamId = await newTeam('One by one');
        const url = `${orgUrl}/teams/${teamId}/members`;
        assertEmpty(await world.admin.api.raw('PUT', `${url}/${world.members.read.id}`), 204);
        assertEmpty(await world.admin.api.put(`${url}/${world.guest.id}`, { role: 'owner' }), 204);
        assert.deepEqual(await roles(teamId), { [world.members.read.id]: 'member', [world.guest.id]: 'owner' });
        assertEmpty(await world.admin.api.put(`${url}/${world.members.read.id}`, { role: 'owner' }), 204);
        assertEmpty(await world.admin.api.put(`${url}/${world.members.read.id}`, {}), 204);
        assertEmpty(await world.admin.api.put(`${url}/${world.guest.id}`, { role: 'member' }), 204);
        assert.deepEqual(await roles(teamId), { [world.members.read.id]: 'owner', [world.guest.id]: 'member' });
      });

      it('refuses users outside the organization, bad roles, other roles, and changes nothing', async () => {
        const teamId = await newTeam('Closed');
        const url = `${orgUrl}/teams/${teamId}/members`;
        const before = await snapshot();
        assertError(await world.admin.api.put(`${url}/${world.outsider.id}`, {}), 404, `No user "${world.outsider.id}" is a member or guest`);
        assertError(await world.admin.api.put(`${url}/nobody`, {}), 404, 'nobody');
        assertError(await world.admin.api.put(`${url}/${world.members.read.id}`, { role: 'admin' }), 400, '"role"');
        assertError(await world.admin.api.put(`${url}/${world.members.read.id}`, { role: 'owner', title: 'x' }), 400, '"title"');
        assertError(await world.admin.api.put(`${orgUrl}/teams/nope/members/${world.members.read.id}`, {}), 404, 'No team');
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.put(`${url}/${user.id}`, { role: 'owner' }), name === 'outsider' ? 404 : 403);
        }
        assert.equal(await snapshot(), before);
      });
    });

    describe('DELETE /v1/orgs/{organizationId}/teams/{teamId}/members/{userId}', () => {
      it('lets a manager remove anyone (205, then 204) and anyone leave; others are refused and nothing changes', async () => {
        const { read, edit, comment } = world.members;
        const teamId = await newTeam('Leaving', [read.id, edit.id, comment.id, world.guest.id]);
        const url = `${orgUrl}/teams/${teamId}/members`;
        const before = await snapshot();
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          const someoneElse = user.id === read.id ? edit.id : read.id;
          assertError(await user.api.delete(`${url}/${someoneElse}`), name === 'outsider' ? 404 : 403);
        }
        assert.equal(await snapshot(), before);
        assertEmpty(await read.api.delete(`${url}/${read.id}`), 205);
        assertEmpty(await world.guest.api.delete(`${url}/${world.guest.id}`), 205);
        assertEmpty(await world.admin.api.delete(`${url}/${edit.id}`), 205);
        assertEmpty(await world.admin.api.delete(`${url}/${edit.id}`), 204);
        assertEmpty(await world.admin.api.delete(`${url}/nobody`), 204);
        assertEmpty(await world.members.review.api.delete(`${url}/${world.members.review.id}`), 204);
        assert.deepEqual(await roles(teamId), { [comment.id]: 'member' });
        assertError(await world.admin.api.delete(`${orgUrl}/teams/nope/members/${comment.id}`), 404, 'No team');
      });
    });
  });
}
