import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { cast, createUser, createWorld, type World } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`invitations [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let invitesUrl: string;
    const membership = (organizationId: string, email: string) =>
      t.ctx.db
        .selectFrom('members')
        .innerJoin('users', 'users.id', 'members.user_id')
        .select(['users.id', 'members.role', 'members.sso', 'members.disabled'])
        .where('members.organization_id', '=', organizationId)
        .where('users.email', '=', email)
        .executeTakeFirst();
    const userExists = async (email: string) => Boolean(await t.ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst());
    const memberCount = async () =>
      Number((await t.ctx.db.selectFrom('members').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', world.organizationId).executeTakeFirstOrThrow()).n);

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      invitesUrl = `/v1/orgs/${world.organizationId}/invites`;
    });
    after(() => t.close());

    describe('POST /v1/orgs/{organizationId}/invites', () => {
      it('adds new people with their roles, invites known people to accept, and counts only those added', async () => {
        const known = await createUser(t.ctx, t.app, 'known');
        const reply = await world.admin.api.post(invitesUrl, {
          emails: ['New.Person@Example.com', { email: known.email, role: 'review' }, { email: 'guest-invite@example.com', role: null }, { email: 'plain@example.com' }],
        });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.invited, 3);
        const added = [
          await membership(world.organizationId, 'new.person@example.com'),
          await membership(world.organizationId, 'guest-invite@example.com'),
          await membership(world.organizationId, 'plain@example.com'),
        ];
        assert.deepEqual(reply.body.users, added.map((m) => m?.id), 'the ids of the users added, in the order of the request');
        assert.deepEqual(added.map((m) => m?.role), ['read', null, 'read'], 'entries without a role get the organization\'s default role');
        assert.deepEqual(added.map((m) => Number(m?.sso)), [0, 0, 0]);
        assert.equal(await membership(world.organizationId, known.email), undefined, 'a person Quire knew is not added before accepting');
        assert.deepEqual(reply.body.pendingInvitations.map((p: { email: string }) => p.email), [known.email]);
        const mine = await known.api.get('/v1/user/invitations');
        assert.equal(mine.status, 200);
        assert.deepEqual(mine.body.items.map((i: { organization: { id: string }; role: string }) => [i.organization.id, i.role]), [[world.organizationId, 'review']]);
        const accepted = await known.api.post(`${invitesUrl}/${mine.body.items[0].id}`);
        assert.equal(accepted.status, 200, JSON.stringify(accepted.body));
        assert.equal((await membership(world.organizationId, known.email))?.role, 'review', 'a member once accepted, with the role offered');
        assert.deepEqual((await known.api.get('/v1/user/invitations')).body.items, []);
      });

      it('uses the body\'s role and sso flag, leaves existing members as they are, and counts an address once', async () => {
        const reply = await world.admin.api.post(invitesUrl, {
          emails: [world.members.read.email, 'sso-one@example.com', 'SSO-ONE@example.com', { email: 'sso-two@example.com', role: 'admin' }, world.guest.email.toUpperCase()],
          role: 'comment',
          sso: true,
        });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.invited, 2);
        const one = await membership(world.organizationId, 'sso-one@example.com');
        const two = await membership(world.organizationId, 'sso-two@example.com');
        assert.deepEqual(reply.body.users, [one?.id, two?.id]);
        assert.equal(one?.role, 'comment');
        assert.equal(two?.role, 'admin');
        assert.equal(Number(one?.sso), 1);
        assert.equal((await membership(world.organizationId, world.members.read.email))?.role, 'read', 'an existing member keeps their role');
        assert.equal(Number((await membership(world.organizationId, world.members.read.email))?.sso), 0);
        assert.equal((await membership(world.organizationId, world.guest.email))?.role, null, 'a guest stays a guest');
        const again = await world.admin.api.post(invitesUrl, { emails: ['sso-one@example.com'] });
        assert.deepEqual(again.body, { users: [], invited: 0 });
      });

      it('does not add a member of another organization: they get an invitation, and join only when they accept', async () => {
        const reply = await world.admin.api.post(invitesUrl, { emails: [world.outsider.email], role: 'edit', sso: true });
        assert.equal(reply.status, 200);
        assert.deepEqual(reply.body.users, []);
        assert.equal(reply.body.invited, 0);
        assert.deepEqual(reply.body.pendingInvitations.map((p: { email: string }) => p.email), [world.outsider.email]);
        assert.equal(await membership(world.organizationId, world.outsider.email), undefined, 'no membership without acceptance');
        assertError(await world.admin.api.get(`/v1/orgs/${world.organizationId}/members/${world.outsider.id}`), 404);
        assert.equal((await membership(world.otherOrganizationId, world.outsider.email))?.role, 'admin');
        const [invitation] = (await world.outsider.api.get('/v1/user/invitations')).body.items;
        assert.equal(invitation.organization.title, 'Acme Docs');
        // Nobody else can accept or decline it, and it does not open another organization.
        assertError(await world.members.read.api.post(`${invitesUrl}/${invitation.id}`), 404);
        assert.equal((await world.members.read.api.delete(`${invitesUrl}/${invitation.id}`)).status, 204);
        assertError(await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/invites/${invitation.id}`), 404);
        // Declined: gone, and no membership.
        assert.equal((await world.outsider.api.delete(`${invitesUrl}/${invitation.id}`)).status, 205);
        assertError(await world.outsider.api.post(`${invitesUrl}/${invitation.id}`), 404);
        assert.equal(await membership(world.organizationId, world.outsider.email), undefined);
        // Invited again and accepted: a member with the role and SSO flag of the invitation; the other membership untouched.
        await world.admin.api.post(invitesUrl, { emails: [world.outsider.email], role: 'edit', sso: true });
        const [again] = (await world.outsider.api.get('/v1/user/invitations')).body.items;
        assert.equal((await world.outsider.api.post(`${invitesUrl}/${again.id}`)).status, 200);
        assert.equal((await membership(world.organizationId, world.outsider.email))?.role, 'edit');
        assert.equal(Number((await membership(world.organizationId, world.outsider.email))?.sso), 1);
        assert.equal((await membership(world.otherOrganizationId, world.outsider.email))?.role, 'admin');
        assertError(await world.outsider.api.post(`${invitesUrl}/${again.id}`), 404); // spent
        await t.ctx.db.deleteFrom('members').where('organization_id', '=', world.organizationId).where('user_id', '=', world.outsider.id).execute();
      });

      it('lets an invitation expire', async () => {
        const late = await createUser(t.ctx, t.app, 'late');
        await world.admin.api.post(invitesUrl, { emails: [late.email] });
        const [invitation] = (await late.api.get('/v1/user/invitations')).body.items;
        t.clock.advance(31 * 86_400_000);
        assert.deepEqual((await late.api.get('/v1/user/invitations')).body.items, []);
        assertError(await late.api.post(`${invitesUrl}/${invitation.id}`), 404);
        assert.equal(await membership(world.organizationId, late.email), undefined);
      });

      it('names the entry that fails validation, and then adds and creates nobody', async () => {
        const before = await memberCount();
        const body = (emails: unknown[]) => ({ emails });
        assertError(await world.admin.api.post(invitesUrl, body(['fine-1@example.com', 'not-an-address'])), 400, '"emails.1" is "not-an-address"');
        assertError(await world.admin.api.post(invitesUrl, body(['fine-1@example.com', { email: 'a b@example.com', role: 'read' }])), 400, '"emails.1.email"');
        assertError(await world.admin.api.post(invitesUrl, body(['fine-1@example.com', `${'x'.repeat(250)}@example.com`])), 400, '"emails.1"');
        assertError(await world.admin.api.post(invitesUrl, body(['fine-1@example.com', 42])), 400, 'emails.1');
        assertError(await world.admin.api.post(invitesUrl, body([{ email: 'fine-1@example.com', role: 'owner' }])), 400, 'emails.0');
        assertError(await world.admin.api.post(invitesUrl, body([{ email: 'fine-1@example.com', team: 'x' }])), 400, 'emails.0');
        assertError(await world.admin.api.post(invitesUrl, body([])), 400, '"emails"');
        assertError(await world.admin.api.post(invitesUrl, body(Array.from({ length: 101 }, (_, i) => `many-${i}@example.com`))), 400, '"emails"');
        assertError(await world.admin.api.post(invitesUrl, {}), 400, '"emails"');
        assertError(await world.admin.api.post(invitesUrl, { emails: 'fine-1@example.com' }), 400, '"emails"');
        assertError(await world.admin.api.post(invitesUrl, { emails: ['fine-1@example.com'], role: 'owner' }), 400, '"role"');
        assertError(await world.admin.api.post(invitesUrl, { emails: ['fine-1@example.com'], sso: 'yes' }), 400, '"sso"');
        assertError(await world.admin.api.post(invitesUrl, { emails: ['fine-1@example.com'], message: 'hi' }), 400, '"message"');
        assert.equal(await memberCount(), before);
        assert.equal(await userExists('fine-1@example.com'), false, 'no user is created by a refused invitation');
      });

      it('lets only administrators invite: 403 for members and guests, 404 for outsiders and unknown organizations', async () => {
        const before = await memberCount();
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          const reply = await user.api.post(invitesUrl, { emails: [`by-${name}@example.com`] });
          assertError(reply, name === 'outsider' ? 404 : 403, name === 'outsider' ? 'No organization' : 'administrators');
          assert.equal(await userExists(`by-${name}@example.com`), false, name);
        }
        assert.equal(await memberCount(), before);
        assertError(await world.admin.api.post('/v1/orgs/nosuchorg/invites', { emails: ['x@example.com'] }), 404, 'nosuchorg');
      });
    });
  });

  describe(`invite links [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let linksUrl: string;
    const linkCount = async () => Number((await t.ctx.db.selectFrom('link_invites').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      linksUrl = `/v1/orgs/${world.organizationId}/link-invites`;
    });
    after(() => t.close());

    describe('POST /v1/orgs/{organizationId}/link-invites', () => {
      it('creates an invite link to the organization with a role or as a guest', async () => {
        const reply = await world.admin.api.post(linksUrl, { role: 'edit' });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        assert.deepEqual(reply.body, { object: 'invite', id: reply.body.id, role: 'edit', redundant: true });
        assert.match(reply.body.id, /^[0-9A-Za-z]{20}$/);
        const guest = await world.admin.api.post(linksUrl, { role: null });
        assert.equal(guest.status, 201);
        assert.equal(guest.body.role, null);
        assert.equal(guest.body.redundant, true, 'an administrator already has every right a link can grant');
      });

      it('refuses invites to spaces and collections, which this organization does not hold, and bad bodies', async () => {
        const before = await linkCount();
        assertError(await world.admin.api.post(linksUrl, { level: 'read', space: 'somespace' }), 400, 'space "somespace", which does not exist in this organization');
        assertError(await world.admin.api.post(linksUrl, { level: 'read', collection: 'somecoll' }), 400, 'collection "somecoll", which does not exist');
        assertError(await world.admin.api.post(linksUrl, {}), 400, '"role"');
        assertError(await world.admin.api.post(linksUrl, { role: 'owner' }), 400, '"role"');
        assertError(await world.admin.api.post(linksUrl, { role: 'read', expires: 3 }), 400, 'expires');
        assert.equal(await linkCount(), before);
      });

      it('refuses to create links while invite links are turned off, and creates nothing', async () => {
        const orgUrl = `/v1/orgs/${world.organizationId}`;
        assert.equal((await world.admin.api.patch(orgUrl, { inviteLinks: false })).status, 200);
        const before = await linkCount();
        assertError(await world.admin.api.post(linksUrl, { role: 'read' }), 403, 'Invite links are turned off');
        assert.equal(await linkCount(), before);
        assert.equal((await world.admin.api.get(linksUrl)).status, 200, 'existing links can still be listed (and removed)');
        assert.equal((await world.admin.api.patch(orgUrl, { inviteLinks: true })).status, 200);
        assert.equal((await world.admin.api.post(linksUrl, { role: 'read' })).status, 201);
      });

      it('lets only administrators create links: 403 for members and guests, 404 for outsiders', async () => {
        const before = await linkCount();
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.post(linksUrl, { role: 'admin' }), name === 'outsider' ? 404 : 403);
        }
        assert.equal(await linkCount(), before);
        assertError(await world.admin.api.post('/v1/orgs/nosuchorg/link-invites', { role: 'read' }), 404);
      });
    });

    describe('GET /v1/orgs/{organizationId}/link-invites', () => {
      it('lists the links of the organization newest first, page by page', async () => {
        const created: string[] = [];
        for (const role of ['read', 'comment', 'create']) {
          t.clock.advance(1000);
          created.push((await world.admin.api.post(linksUrl, { role })).body.id);
        }
        await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/link-invites`, { role: 'read' });
        const all = await world.admin.api.get(linksUrl);
        assert.equal(all.status, 200);
        assert.equal(all.body.count, await t.ctx.db.selectFrom('link_invites').select('id').where('organization_id', '=', world.organizationId).execute().then((r) => r.length));
        assert.deepEqual(all.body.items.slice(0, 3).map((i: { id: string }) => i.id), created.reverse());
        assert.equal(all.body.items[0].role, 'create');
        const seen: string[] = [];
        let page: string | undefined;
        do {
          const reply = await world.admin.api.get(`${linksUrl}?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          assert.equal(reply.status, 200);
          seen.push(...reply.body.items.map((i: { id: string }) => i.id));
          page = reply.body.next?.page;
        } while (page);
        assert.deepEqual(seen, all.body.items.map((i: { id: string }) => i.id));
        assertError(await world.admin.api.get(`${linksUrl}?page=garbage`), 400, 'page');
        assertError(await world.admin.api.get(`${linksUrl}?limit=-1`), 400, 'limit');
      });

      it('refuses members and guests with 403, outsiders with 404', async () => {
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(linksUrl);
          if (name === 'admin') assert.equal(reply.status, 200);
          else assertError(reply, name === 'outsider' ? 404 : 403);
        }
      });
    });

    describe('GET and DELETE /v1/orgs/{organizationId}/link-invites/{inviteId}', () => {
      it('shows a link to administrators, 404 when missing or of another organization', async () => {
        const created = await world.admin.api.post(linksUrl, { role: 'review' });
        const url = `${linksUrl}/${created.body.id}`;
        for (const [name, user] of cast(world)) {
          const reply = await user.api.get(url);
          if (name === 'admin') assert.deepEqual(reply.body, created.body);
          else assertError(reply, name === 'outsider' ? 404 : 403);
        }
        assertError(await world.admin.api.get(`${linksUrl}/nosuchinvite`), 404, 'No invite link "nosuchinvite"');
        const theirs = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/link-invites`, { role: 'read' });
        assertError(await world.admin.api.get(`${linksUrl}/${theirs.body.id}`), 404);
      });

      it('deletes a link (205), then answers 204 when there is nothing left to delete', async () => {
        const created = await world.admin.api.post(linksUrl, { role: 'read' });
        const url = `${linksUrl}/${created.body.id}`;
        for (const [name, user] of cast(world)) {
          if (name === 'admin') continue;
          assertError(await user.api.delete(url), name === 'outsider' ? 404 : 403);
        }
        assert.equal((await world.admin.api.get(url)).status, 200, 'a refused delete leaves the link');
        const deleted = await world.admin.api.delete(url);
        assert.equal(deleted.status, 205);
        assert.equal(deleted.body, undefined);
        assertError(await world.admin.api.get(url), 404);
        const again = await world.admin.api.delete(url);
        assert.equal(again.status, 204);
        const theirs = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/link-invites`, { role: 'read' });
        assert.equal((await world.admin.api.delete(`${linksUrl}/${theirs.body.id}`)).status, 204);
        assert.equal((await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/link-invites/${theirs.body.id}`)).status, 200);
      });
    });
  });
}
