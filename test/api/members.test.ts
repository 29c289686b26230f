import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { jwtVerify } from 'jose';
import { sql } from 'kysely';
import { nowIso } from '../../src/context.ts';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { addMember, cast, createUser, createWorld, postSpace, type TestUser, type World } from '../helpers/factories.ts';

type Item = { id: string; role: string | null };
const ids = (body: { items: Array<{ id: string }> }) => body.items.map((m) => m.id);

/** A refusal in the role matrix: 404 for the outsider, 403 for everyone else. */
function refused(reply: Reply, name: string): void {
  const status = name === 'outsider' ? 404 : 403;
  assert.equal(reply.status, status, `${name}: ${JSON.stringify(reply.body)}`);
  assertError(reply, status);
}

for (const dialect of dialects) {
  describe(`members [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    /** A team of the organization, with the given members; created one second after the previous one. */
    async function createTeam(organizationId: string, title: string, members: Array<[string, 'owner' | 'member']>): Promise<string> {
      t.clock.advance(1000);
      const id = t.ctx.ids.next();
      await t.ctx.db.insertInto('teams').values({ id, organization_id: organizationId, title, created_at: nowIso(t.ctx) }).execute();
      for (const [userId, role] of members) {
        await t.ctx.db.insertInto('team_members').values({ team_id: id, user_id: userId, role, added_at: nowIso(t.ctx) }).execute();
      }
      return id;
    }
    const memberRow = (organizationId: string, userId: string) =>
      t.ctx.db.selectFrom('members').selectAll().where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();

    describe('GET /v1/orgs/{organizationId}/members', () => {
      let world: World;
      let url: string;
      // Newest first: the order in which createWorld adds them, reversed.
      let newestFirst: string[];
      before(async () => {
        world = await createWorld(t.ctx, t.app, t.clock);
        url = `/v1/orgs/${world.organizationId}/members`;
        const m = world.members;
        newestFirst = [world.guest, m.read, m.comment, m.edit, m.review, m.create, m.admin].map((u) => u.id);
        await createTeam(world.organizationId, 'Writers', [[m.edit.id, 'owner'], [m.read.id, 'member']]);
        await createTeam(world.organizationId, 'Readers', [[m.read.id, 'member']]);
        await createTeam(world.otherOrganizationId, 'Elsewhere', [[world.outsider.id, 'owner']]);
      });

      it('lists every member and guest, newest first by default, with their counts', async () => {
        const reply = await world.members.comment.api.get(url);
        assert.equal(reply.status, 200);
        assert.equal(reply.body.count, 7);
        assert.deepEqual(ids(reply.body), newestFirst);
        assert.equal(reply.body.next, undefined);
        const read = reply.body.items.find((m: Item) => m.id === world.members.read.id);
        assert.equal(read.object, 'member');
        assert.equal(read.role, 'read');
        assert.equal(read.user.id, world.members.read.id);
        assert.equal(read.user.email, world.members.read.email);
        assert.equal(read.teams, 2);
        assert.equal(read.spaces, 0);
        assert.equal(read.disabled, false);
        assert.equal(read.sso, false);
        assert.equal(read.lastSeenAt, undefined);
        assert.equal(reply.body.items.find((m: Item) => m.id === world.guest.id).role, null);
        const ascending = await world.members.comment.api.get(`${url}?order=asc`);
        assert.deepEqual(ids(ascending.body), [...newestFirst].reverse());
      });

      it('filters by role ("guest" for guests) and by text in the display name or e-mail, in any case', async () => {
        assert.deepEqual(ids((await world.admin.api.get(`${url}?role=edit`)).body), [world.members.edit.id]);
        assert.deepEqual(ids((await world.admin.api.get(`${url}?role=guest`)).body), [world.guest.id]);
        const admins = await world.admin.api.get(`${url}?role=admin`);
        assert.deepEqual(ids(admins.body), [world.admin.id]);
        assert.equal(admins.body.count, 1);
        assert.deepEqual(ids((await world.admin.api.get(`${url}?search=ADA%20adm`)).body), [world.admin.id], 'display name');
        assert.deepEqual(ids((await world.admin.api.get(`${url}?search=ACME.TEST`)).body), [world.admin.id], 'e-mail');
        assert.deepEqual(ids((await world.admin.api.get(`${url}?search=${encodeURIComponent(world.members.review.email)}`)).body), [world.members.review.id]);
        const none = await world.admin.api.get(`${url}?search=%25`);
        assert.deepEqual(none.body, { count: 0, items: [] }, 'LIKE wildcards are taken literally');
        assert.equal((await world.admin.api.get(`${url}?search=_`)).body.count, 0);
        const both = await world.admin.api.get(`${url}?role=read&search=example.com`);
        assert.deepEqual(ids(both.body), [world.members.read.id]);
      });

      it('sorts by lastSeenAt, listing only the members who have been seen', async () => {
        assert.deepEqual((await world.admin.api.get(`${url}?sort=lastSeenAt`)).body, { count: 0, items: [] });
        for (const user of [world.members.edit, world.guest, world.members.read]) {
          t.clock.advance(60_000);
          assert.equal((await user.api.post(`/v1/orgs/${world.organizationId}/ping`)).status, 200);
        }
        const seen = await world.admin.api.get(`${url}?sort=lastSeenAt`);
        assert.equal(seen.body.count, 3);
        assert.deepEqual(ids(seen.body), [world.members.read.id, world.guest.id, world.members.edit.id]);
        const oldest = await world.admin.api.get(`${url}?sort=lastSeenAt&order=asc&limit=1`);
        assert.deepEqual(ids(oldest.body), [world.members.edit.id]);
        const next = await world.admin.api.get(`${url}?sort=lastSeenAt&order=asc&limit=5&page=${encodeURIComponent(oldest.body.next.page)}`);
        assert.deepEqual(ids(next.body), [world.guest.id, world.members.read.id]);
      });

      it('walks every member once with next.page, and refuses a cursor carried to another filter', async () => {
        const seen: string[] = [];
        let page: string | undefined;
        let first: string | undefined;
        do {
          const reply = await world.admin.api.get(`${url}?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          assert.equal(reply.status, 200);
          assert.equal(reply.body.count, 7);
          seen.push(...ids(reply.body));
          page = reply.body.next?.page;
          first ??= page;
        } while (page);
        assert.deepEqual(seen, newestFirst);
        assertError(await world.admin.api.get(`${url}?limit=2&order=asc&page=${encodeURIComponent(first!)}`), 400, 'page');
        assertError(await world.admin.api.get(`${url}?limit=2&role=read&page=${encodeURIComponent(first!)}`), 400, 'page');
        assertError(await world.admin.api.get(`${url}?limit=2&search=a&page=${encodeURIComponent(first!)}`), 400, 'page');
      });

      it('shows a disabled member, flagged', async () => {
        const user = await createUser(t.ctx, t.app, 'dormant');
        await addMember(t.ctx, world.organizationId, user.id, 'read');
        await t.ctx.db.updateTable('members').set({ disabled: 1 }).where('user_id', '=', user.id).execute();
        const reply = await world.admin.api.get(`${url}?search=dormant`);
        assert.deepEqual(ids(reply.body), [user.id]);
        assert.equal(reply.body.items[0].disabled, true);
        assertError(await user.api.get(url), 404, 'No organization');
        await t.ctx.db.deleteFrom('members').where('user_id', '=', user.id).execute();
      });

      it('names the query parameter that fails validation', async () => {
        assertError(await world.admin.api.get(`${url}?role=owner`), 400, '"role"');
        assertError(await world.admin.api.get(`${url}?sort=title`), 400, '"sort"');
        assertError(await world.admin.api.get(`${url}?order=up`), 400, '"order"');
        assertError(await world.admin.api.get(`${url}?limit=1001`), 400, '"limit"');
        assertError(await world.admin.api.get(`${url}?search=${'x'.repeat(300)}`), 400, '"search"');
        assertError(await world.admin.api.get(`${url}?colour=red`), 400, '"colour"');
      });

      it('answers members, refuses guests with 403 and outsiders with 404', async () => {
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(url);
          if (name === 'guest') assertError(reply, 403, 'Guests');
          else if (name === 'outsider') assertError(reply, 404, 'No organization');
          else assert.equal(reply.status, 200, name);
        }
        assertError(await world.admin.api.get('/v1/orgs/nope/members'), 404);
      });
    });

    describe('GET /v1/orgs/{organizationId}/members/{userId}', () => {
      let world: World;
      before(async () => {
        world = await createWorld(t.ctx, t.app, t.clock);
        await createTeam(world.organizationId, 'Editors', [[world.members.edit.id, 'member']]);
      });
      const url = (userId: string) => `/v1/orgs/${world.organizationId}/members/${userId}`;

      it('shows any member to a member; a guest sees only their own membership; an outsider nothing', async () => {
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(url(world.members.edit.id));
          if (name === 'guest') assertError(reply, 403, 'own membership');
          else if (name === 'outsider') assertError(reply, 404, 'No organization');
          else {
            assert.equal(reply.status, 200, name);
            assert.equal(reply.body.id, world.members.edit.id);
            assert.equal(reply.body.role, 'edit');
            assert.equal(reply.body.teams, 1);
            assert.equal(reply.body.user.urls.location, `http://quire.test/v1/users/${world.members.edit.id}`);
          }
        }
        const own = await world.guest.api.get(url(world.guest.id));
        assert.equal(own.status, 200);
        assert.equal(own.body.role, null);
      });

      it('answers 404 for a user who is not a member, or does not exist', async () => {
        assertError(await world.admin.api.get(url(world.outsider.id)), 404, world.outsider.id);
        assertError(await world.admin.api.get(url('nobody')), 404, '"nobody"');
      });
    });

    describe('PATCH /v1/orgs/{organizationId}/members/{userId}', () => {
      let world: World;
      before(async () => {
        world = await createWorld(t.ctx, t.app, t.clock);
      });
      const url = (userId: string) => `/v1/orgs/${world.organizationId}/members/${userId}`;

      it('lets an admin change a role, to a guest and back, and a body without role changes nothing', async () => {
        const reply = await world.admin.api.patch(url(world.members.read.id), { role: 'review' });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.role, 'review');
        assert.equal((await memberRow(world.organizationId, world.members.read.id))?.role, 'review');
        assert.equal((await world.admin.api.patch(url(world.members.read.id), { role: null })).body.role, null);
        assertError(await world.members.read.api.get(`/v1/orgs/${world.organizationId}/members`), 403);
        assert.equal((await world.admin.api.patch(url(world.members.read.id), { role: 'read' })).body.role, 'read');
        const unchanged = await world.admin.api.patch(url(world.members.read.id), {});
        assert.equal(unchanged.status, 200);
        assert.equal(unchanged.body.role, 'read');
      });

      it('names the body member that fails validation, and changes nothing', async () => {
        const target = url(world.members.comment.id);
        assertError(await world.admin.api.patch(target, { role: 'owner' }), 400, '"role"');
        assertError(await world.admin.api.patch(target, { role: 12 }), 400, '"role"');
        assertError(await world.admin.api.patch(target, { role: 'read', colour: 'red' }), 400, '"colour"');
        assertError(await world.admin.api.patch(target, '{"role": '), 400, 'not valid JSON');
        assert.equal((await memberRow(world.organizationId, world.members.comment.id))?.role, 'comment');
      });

      it('refuses every other role and a guest with 403, an outsider with 404, and changes nothing', async () => {
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          refused(await user.api.patch(url(world.members.comment.id), { role: 'admin' }), name);
          refused(await user.api.patch(url(user.id), { role: 'admin' }), name);
        }
        assert.equal((await memberRow(world.organizationId, world.members.comment.id))?.role, 'comment');
        assert.equal((await memberRow(world.organizationId, world.guest.id))?.role, null);
      });

      it('answers 404 for a user who is not a member', async () => {
        assertError(await world.admin.api.patch(url(world.outsider.id), { role: 'read' }), 404, world.outsider.id);
        assert.equal(await memberRow(world.organizationId, world.outsider.id), undefined);
      });

      it('refuses to demote the last enabled administrator with 409; another admin makes it possible', async () => {
        assertError(await world.admin.api.patch(url(world.admin.id), { role: 'create' }), 409, 'last administrator');
        assert.equal((await memberRow(world.organizationId, world.admin.id))?.role, 'admin');
        await t.ctx.db.updateTable('members').set({ role: 'admin', disabled: 1 }).where('user_id', '=', world.members.create.id).execute();
        assertError(await world.admin.api.patch(url(world.admin.id), { role: 'create' }), 409, 'last administrator');
        assert.equal((await world.admin.api.patch(url(world.members.create.id), { role: 'create' })).body.role, 'create', 'a disabled admin may be demoted');
        await t.ctx.db.updateTable('members').set({ disabled: 0 }).where('user_id', '=', world.members.create.id).execute();
        assert.equal((await world.admin.api.patch(url(world.members.review.id), { role: 'admin' })).body.role, 'admin');
        const demoted = await world.admin.api.patch(url(world.admin.id), { role: 'create' });
        assert.equal(demoted.status, 200);
        assert.equal(demoted.body.role, 'create');
        assertError(await world.members.review.api.patch(url(world.members.review.id), { role: 'read' }), 409, 'last administrator');
      });

      it('keeps one administrator when two step down at the same moment', async () => {
        const other = await createWorld(t.ctx, t.app);
        const second = other.members.create;
        await other.admin.api.patch(`/v1/orgs/${other.organizationId}/members/${second.id}`, { role: 'admin' });
        const stepDown = () =>
          Promise.all([
            other.admin.api.patch(`/v1/orgs/${other.organizationId}/members/${other.admin.id}`, { role: 'read' }),
            second.api.patch(`/v1/orgs/${other.organizationId}/members/${second.id}`, { role: 'read' }),
          ]);
        let replies: Reply[];
        if (dialect === 'sqlite') {
          replies = await stepDown();
        } else {
          // Hold the organization and its admin rows so that both requests are in flight at once, then let go.
          const held = await t.ctx.db.transaction().execute(async (trx) => {
            await trx.selectFrom('organizations').select('id').where('id', '=', other.organizationId).forUpdate().execute();
            await trx.selectFrom('members').select('user_id').where('organization_id', '=', other.organizationId).where('role', '=', 'admin').forUpdate().execute();
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(trx);
            const pending = stepDown();
            for (let waiting = 0, polls = 0; waiting < 2; polls++) {
              assert.ok(polls < 100_000, 'both requests should end up waiting for the held rows');
              // Sessions waiting, directly or behind another waiter, for the rows this transaction holds.
              const blocked = await sql<{ n: number }>`with recursive chain(pid) as (select ${rows[0].pid}::int union select a.pid from pg_stat_activity a join chain c on c.pid = any(pg_blocking_pids(a.pid))) select count(*)::int - 1 as n from chain`.execute(t.ctx.db);
              waiting = blocked.rows[0].n;
            }
            return { pending }; // committing lets them go: one steps down, the other is refused
          });
          replies = await held.pending;
        }
        assert.deepEqual(replies.map((r) => r.status).sort(), [200, 409]);
        const admins = await t.ctx.db.selectFrom('members').select('user_id').where('organization_id', '=', other.organizationId).where('role', '=', 'admin').execute();
        assert.equal(admins.length, 1);
      });
    });

    describe('DELETE /v1/orgs/{organizationId}/members/{userId}', () => {
      let world: World;
      before(async () => {
        world = await createWorld(t.ctx, t.app, t.clock);
      });
      const url = (userId: string) => `/v1/orgs/${world.organizationId}/members/${userId}`;

      it('lets an admin remove a member (205), with their teams here, keeping the user, their token and other teams', async () => {
        const gone = world.members.edit;
        const here = await createTeam(world.organizationId, 'Here', [[gone.id, 'owner'], [world.members.read.id, 'member']]);
        await addMember(t.ctx, world.otherOrganizationId, gone.id, 'read');
        const there = await createTeam(world.otherOrganizationId, 'There', [[gone.id, 'member']]);
        const reply = await world.admin.api.delete(url(gone.id));
        assert.equal(reply.status, 205);
        assert.equal(reply.body, undefined);
        assert.equal(await memberRow(world.organizationId, gone.id), undefined);
        assertError(await world.admin.api.get(url(gone.id)), 404);
        const teams = await t.ctx.db.selectFrom('team_members').select(['team_id', 'user_id']).where('team_id', 'in', [here, there]).orderBy('team_id').execute();
        assert.deepEqual(teams.map((r) => `${r.team_id === here ? 'here' : 'there'}:${r.user_id}`).sort(), [`here:${world.members.read.id}`, `there:${gone.id}`].sort());
        assert.ok(await t.ctx.db.selectFrom('users').select('id').where('id', '=', gone.id).executeTakeFirst(), 'the user stays');
        assert.equal((await gone.api.get('/v1/user')).status, 200, 'their token still works');
        assertError(await gone.api.get(`/v1/orgs/${world.organizationId}`), 404);
        assert.equal((await world.admin.api.delete(url(gone.id))).status, 204, 'removing again: not a member');
        assert.equal((await world.admin.api.delete(url('nobody'))).status, 204);
      });

      it('lets any member or guest leave; others may not remove anyone else (403), an outsider gets 404', async () => {
        for (const [name, user] of cast(world)) {
          if (name === 'admin' || name === 'edit' || name === 'review') continue;
          refused(await user.api.delete(url(world.members.review.id)), name);
        }
        assert.ok(await memberRow(world.organizationId, world.members.review.id), 'a refused removal changes nothing');
        assert.equal((await world.members.comment.api.delete(url(world.members.comment.id))).status, 205);
        assert.equal((await world.guest.api.delete(url(world.guest.id))).status, 205);
        assert.equal(await memberRow(world.organizationId, world.guest.id), undefined);
        assertError(await world.guest.api.delete(url(world.guest.id)), 404, 'No organization');
      });

      it('refuses to remove the last enabled administrator with 409, even when they leave', async () => {
        assertError(await world.admin.api.delete(url(world.admin.id)), 409, 'last administrator');
        assert.equal((await memberRow(world.organizationId, world.admin.id))?.role, 'admin');
        await world.admin.api.patch(url(world.members.create.id), { role: 'admin' });
        assert.equal((await world.members.create.api.delete(url(world.admin.id))).status, 205);
        assertError(await world.members.create.api.delete(url(world.members.create.id)), 409, 'last administrator');
      });
    });

    describe('POST /v1/orgs/{organizationId}/ping', () => {
      let world: World;
      before(async () => {
        world = await createWorld(t.ctx, t.app, t.clock);
      });

      async function verify(token: string) {
        const org = await t.ctx.db.selectFrom('organizations').select('signing_key').where('id', '=', world.organizationId).executeTakeFirstOrThrow();
        const key = t.ctx.secrets.decrypt(org.signing_key);
        return (await jwtVerify(token, key, { issuer: 'http://quire.test', algorithms: ['HS256'], currentDate: t.clock.now() })).payload;
      }

      it('records lastSeenAt and answers signed claims about the caller', async () => {
        const user = world.members.edit;
        const mine = await createTeam(world.organizationId, 'Mine', [[user.id, 'member']]);
        await createTeam(world.organizationId, 'Not mine', [[world.members.read.id, 'member']]);
        await addMember(t.ctx, world.otherOrganizationId, user.id, 'read');
        await createTeam(world.otherOrganizationId, 'Other org', [[user.id, 'owner']]);
        t.clock.advance(5000);
        const reply = await user.api.post(`/v1/orgs/${world.organizationId}/ping`);
        assert.equal(reply.status, 200);
        const claims = await verify(reply.body.gitbookVisitorClaims);
        assert.equal(claims.sub, user.id);
        assert.equal(claims.email, user.email);
        assert.equal(claims.name, 'edit');
        assert.equal(claims.organization, world.organizationId);
        assert.equal(claims.role, 'edit');
        assert.deepEqual(claims.teams, [mine]);
        assert.equal(claims.iat, Math.floor(t.clock.now().getTime() / 1000));
        assert.equal(claims.exp, claims.iat! + 3600);
        const first = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/members/${user.id}`)).body.lastSeenAt;
        assert.equal(first, t.clock.now().toISOString());
        t.clock.advance(90_000);
        await user.api.post(`/v1/orgs/${world.organizationId}/ping`);
        const second = (await world.admin.api.get(`/v1/orgs/${world.organizationId}/members/${user.id}`)).body.lastSeenAt;
        assert.equal(second, t.clock.now().toISOString());
        assert.notEqual(first, second);
      });

      it('answers every member and the guest; an outsider and an unknown organization get 404 and nothing is recorded', async () => {
        for (const [name, user] of cast(world)) {
          const reply = await user.api.post(`/v1/orgs/${world.organizationId}/ping`);
          if (name === 'outsider') {
            assertError(reply, 404, 'No organization');
            continue;
          }
          assert.equal(reply.status, 200, name);
          const claims = await verify(reply.body.gitbookVisitorClaims);
          assert.equal(claims.role, name === 'guest' ? null : name);
          assert.ok(Array.isArray(claims.teams));
          if (name === 'guest') assert.deepEqual(claims.teams, []);
        }
        assert.equal(await memberRow(world.organizationId, world.outsider.id), undefined);
        assert.equal((await memberRow(world.otherOrganizationId, world.outsider.id))?.last_seen_at, null);
        assertError(await world.admin.api.post('/v1/orgs/nope/ping'), 404);
      });

      it('signs with the key of the organization, not of another one', async () => {
        const reply = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/ping`);
        assert.equal(reply.status, 200);
        await assert.rejects(verify(reply.body.gitbookVisitorClaims));
      });
    });

    describe('POST /v1/orgs/{organizationId}/members/{userId}/sso', () => {
      let world: World;
      let stranger: TestUser;
      before(async () => {
        world = await createWorld(t.ctx, t.app, t.clock);
        stranger = await createUser(t.ctx, t.app, 'stranger');
      });
      const url = (userId: string) => `/v1/orgs/${world.organizationId}/members/${userId}/sso`;

      it('refuses every role but admin with 403, an outsider with 404, and adds no one', async () => {
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          refused(await user.api.post(url(stranger.id)), name);
          refused(await user.api.post(url(world.members.read.id)), name);
        }
        assert.equal(await memberRow(world.organizationId, stranger.id), undefined);
        assert.equal((await memberRow(world.organizationId, world.members.read.id))?.sso, 0);
      });

      it('makes an existing member an SSO member, keeping their role', async () => {
        const reply = await world.admin.api.post(url(world.members.read.id));
        assert.equal(reply.status, 200);
        assert.equal(reply.body.sso, true);
        assert.equal(reply.body.role, 'read');
        assert.equal((await world.admin.api.post(url(world.members.read.id))).body.sso, true, 'again: no change');
      });

      it('refuses a user who is not a member (of no organization, or only of another one) with 404, and adds no one', async () => {
        for (const user of [stranger, world.outsider]) {
          const reply = await world.admin.api.post(url(user.id));
          assertError(reply, 404, 'only members can be made SSO members');
          assert.ok(!JSON.stringify(reply.body).includes('@'), 'no address in the refusal');
          assert.equal(await memberRow(world.organizationId, user.id), undefined);
          assert.equal((await user.api.get(`/v1/orgs/${world.organizationId}`)).status, 404);
          assert.equal((await world.admin.api.get(`/v1/users/${user.id}`)).status, 404, 'the administrator still cannot read them');
        }
      });

      it('answers 404 for a user who does not exist', async () => {
        assertError(await world.admin.api.post(url('nobody')), 404, '"nobody"');
        assert.equal(await memberRow(world.organizationId, 'nobody'), undefined);
      });
    });

    describe('GET /v1/orgs/{organizationId}/members/{userId}/teams', () => {
      let world: World;
      let teams: Record<string, string>;
      before(async () => {
        world = await createWorld(t.ctx, t.app, t.clock);
        const { edit, read, comment } = world.members;
        teams = {
          alpha: await createTeam(world.organizationId, 'Alpha writers', [[edit.id, 'owner'], [read.id, 'member']]),
          beta: await createTeam(world.organizationId, 'Beta', [[edit.id, 'member'], [comment.id, 'owner']]),
          gamma: await createTeam(world.organizationId, 'Gamma WRITERS', [[edit.id, 'member'], [world.guest.id, 'member']]),
          none: await createTeam(world.organizationId, 'Writers without edit', [[read.id, 'owner']]),
        };
        await addMember(t.ctx, world.otherOrganizationId, edit.id, 'read');
        await createTeam(world.otherOrganizationId, 'Writers elsewhere', [[edit.id, 'owner']]);
      });
      const url = (userId: string, query = '') => `/v1/orgs/${world.organizationId}/members/${userId}/teams${query}`;

      it('lists the teams of the organization a member is in, oldest first, with their role and the caller\'s permissions', async () => {
        const reply = await world.members.comment.api.get(url(world.members.edit.id));
        assert.equal(reply.status, 200);
        assert.equal(reply.body.count, 3);
        assert.deepEqual(reply.body.items.map((i: { team: { id: string } }) => i.team.id), [teams.alpha, teams.beta, teams.gamma]);
        assert.deepEqual(reply.body.items.map((i: { member: { role: string } }) => i.member.role), ['owner', 'member', 'member']);
        const [alpha, beta] = reply.body.items;
        assert.equal(alpha.team.object, 'team');
        assert.equal(alpha.team.title, 'Alpha writers');
        assert.equal(alpha.team.members, 2);
        assert.equal(alpha.team.spaces, 0);
        assert.deepEqual(alpha.team.permissions, { admin: false, view: true });
        assert.deepEqual(beta.team.permissions, { admin: true, view: true }, 'the caller owns Beta');
        const asAdmin = await world.admin.api.get(url(world.members.edit.id));
        assert.ok(asAdmin.body.items.every((i: { team: { permissions: { admin: boolean } } }) => i.team.permissions.admin));
      });

      it('filters by title in any case, and walks the list with next.page', async () => {
        const writers = await world.members.read.api.get(url(world.members.edit.id, '?title=wRiTeRs'));
        assert.deepEqual(writers.body.items.map((i: { team: { id: string } }) => i.team.id), [teams.alpha, teams.gamma]);
        assert.equal(writers.body.count, 2);
        assert.equal((await world.members.read.api.get(url(world.members.edit.id, '?title=%25'))).body.count, 0);
        const first = await world.members.read.api.get(url(world.members.edit.id, '?limit=2'));
        assert.equal(first.body.items.length, 2);
        const rest = await world.members.read.api.get(url(world.members.edit.id, `?limit=2&page=${encodeURIComponent(first.body.next.page)}`));
        assert.deepEqual(rest.body.items.map((i: { team: { id: string } }) => i.team.id), [teams.gamma]);
        assert.equal(rest.body.next, undefined);
        assertError(await world.members.read.api.get(url(world.members.read.id, `?limit=2&page=${encodeURIComponent(first.body.next.page)}`)), 400, 'page');
      });

      it('shows members anyone\'s teams, a guest only their own, an outsider nothing', async () => {
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(url(world.members.edit.id));
          if (name === 'guest') assertError(reply, 403, 'own teams');
          else if (name === 'outsider') assertError(reply, 404, 'No organization');
          else assert.equal(reply.status, 200, name);
        }
        const own = await world.guest.api.get(url(world.guest.id));
        assert.equal(own.status, 200);
        assert.deepEqual(own.body.items.map((i: { team: { id: string } }) => i.team.id), [teams.gamma]);
        assert.deepEqual(own.body.items[0].team.permissions, { admin: false, view: true });
      });

      it('answers 404 for a user who is not a member, and names the query parameter that fails validation', async () => {
        assertError(await world.admin.api.get(url(world.outsider.id)), 404, world.outsider.id);
        assertError(await world.admin.api.get(url('nobody')), 404, '"nobody"');
        assertError(await world.admin.api.get(url(world.members.edit.id, '?limit=1001')), 400, '"limit"');
        assertError(await world.admin.api.get(url(world.members.edit.id, '?order=asc')), 400, '"order"');
        assertError(await world.admin.api.get(url(world.members.edit.id, `?title=${'x'.repeat(300)}`)), 400, '"title"');
      });
    });

    describe('the role matrix: no operation makes a user of another organization a member, except an invite they accept', () => {
      it('refuses or leaves alone every operation an administrator can aim at such a user, and an accepted invite link adds them', async () => {
        const world = await createWorld(t.ctx, t.app, t.clock);
        const org = `/v1/orgs/${world.organizationId}`;
        const outsider = world.outsider;
        const team = (await world.admin.api.post(`${org}/teams`, { title: 'Team' })).body.id as string;
        const space = (await postSpace(t.clock, world.admin, world.organizationId)).id as string;
        const attempts: Array<[string, () => Promise<Reply>]> = [
          ['set as SSO member', () => world.admin.api.post(`${org}/members/${outsider.id}/sso`)],
          ['change the role', () => world.admin.api.patch(`${org}/members/${outsider.id}`, { role: 'admin' })],
          ['read the membership', () => world.admin.api.get(`${org}/members/${outsider.id}`)],
          ['add to a team by id', () => world.admin.api.put(`${org}/teams/${team}/members/${outsider.id}`, {})],
          ['add to a team by id in a body', () => world.admin.api.put(`${org}/teams/${team}/members`, { add: [outsider.id] })],
          ['add to a team by e-mail', () => world.admin.api.put(`${org}/teams/${team}/members`, { add: [outsider.email] })],
          ['share a space', () => world.admin.api.post(`/v1/spaces/${space}/permissions`, { role: 'edit', users: [outsider.id] })],
          ['share a space with one user', () => world.admin.api.patch(`/v1/spaces/${space}/permissions/users/${outsider.id}`, { role: 'edit' })],
        ];
        for (const [what, attempt] of attempts) {
          const reply = await attempt();
          assert.ok(reply.status >= 400 && reply.status < 500, `${what}: answered ${reply.status} ${JSON.stringify(reply.body)}`);
          assert.ok(!JSON.stringify(reply.body).includes(outsider.email), `${what}: the refusal shows no address`);
          assert.equal(await memberRow(world.organizationId, outsider.id), undefined, `${what}: no membership created`);
        }
        const link = await world.admin.api.post(`${org}/link-invites`, { role: 'read' });
        assert.equal(link.status, 201, JSON.stringify(link.body));
        const joined = await outsider.api.post(`${org}/invites/${link.body.id}`);
        assert.equal(joined.status, 200, JSON.stringify(joined.body));
        assert.equal((await memberRow(world.organizationId, outsider.id))?.role, 'read');
      });
    });

    describe('who sees the e-mail addresses of members', () => {
      it('every member with a role sees every member\'s address in the list; a guest sees no list and no address', async () => {
        const world = await createWorld(t.ctx, t.app, t.clock);
        const url = `/v1/orgs/${world.organizationId}/members`;
        const list = await world.members.read.api.get(url);
        assert.equal(list.status, 200);
        for (const item of list.body.items) assert.match(item.user.email, /@/, 'a read member sees each address');
        assertError(await world.guest.api.get(url), 403);
        assertError(await world.guest.api.get(`${url}/${world.members.edit.id}`), 403);
        const user = await world.guest.api.get(`/v1/users/${world.members.edit.id}`);
        assert.equal(user.status, 200);
        assert.equal(user.body.email, undefined, 'a guest reads the user without their address');
        assert.equal((await world.guest.api.get(`/v1/users/${world.guest.id}`)).body.email, world.guest.email, 'their own address');
        assert.equal((await world.members.read.api.get(`/v1/users/${world.members.edit.id}`)).body.email, world.members.edit.email);
      });
    });
  });
}
