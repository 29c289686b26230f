import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, MemberRole, TeamMemberRole } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';

const certificate = readFileSync(join(import.meta.dirname, '..', 'fixtures', 'idp-cert.pem'), 'utf8');

/**
 * The public client, over real HTTP against a listening Quire, calls every operation of the organization
 * side. Every answer is validated against the client's document by the test app's contract hook.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: organizations, members, teams, SAML [${dialect}]`, () => {
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
    });
    after(() => t.close());

    it('reads the user and organizations', async () => {
      const me = await api.user.getAuthenticatedUser();
      assert.equal(me.data.id, world.admin.id);
      const other = await api.users.getUserById(world.members.read.id);
      assert.equal(other.data.id, world.members.read.id);
      const orgs = await api.orgs.listOrganizationsForAuthenticatedUser();
      assert.deepEqual(orgs.data.items.map((o) => o.id), [orgId]);
      const org = await api.orgs.getOrganizationById(orgId);
      assert.equal(org.data.title, 'Acme Docs');
      const patched = await api.orgs.updateOrganizationById(orgId, { title: 'Acme Handbook', emailDomains: ['acme.test'] });
      assert.equal(patched.data.title, 'Acme Handbook');
      const byDomain = await api.emailDomains.getOrganizationsForEmailDomain('acme.test');
      assert.deepEqual((byDomain.data.organizations ?? []).map((o) => o.id), [orgId]);
    });

    it('manages members, pings, and lists their teams', async () => {
      const members = await api.orgs.listMembersInOrganizationById(orgId, { role: MemberRole.Read, limit: 10 });
      assert.deepEqual(members.data.items.map((m) => m.id), [world.members.read.id]);
      const member = await api.orgs.getMemberInOrganizationById(orgId, world.members.comment.id);
      assert.equal(member.data.role, 'comment');
      const promoted = await api.orgs.updateMemberInOrganizationById(orgId, world.members.comment.id, { role: MemberRole.Edit });
      assert.equal(promoted.data.role, 'edit');
      const ping = await api.orgs.updateOrganizationMemberLastSeenAt(orgId);
      assert.equal(typeof ping.data.gitbookVisitorClaims, 'string');
      const sso = await api.orgs.setUserAsSsoMemberForOrganization(orgId, world.members.review.id);
      assert.equal(sso.data.sso, true);
      const teams = await api.orgs.listTeamsForOrganizationMember(orgId, world.members.review.id);
      assert.equal(teams.data.count, 0);
      const removed = await api.orgs.removeMemberFromOrganizationById(orgId, world.members.create.id);
      assert.equal(removed.status, 205);
      const again = await api.orgs.removeMemberFromOrganizationById(orgId, world.members.create.id);
      assert.equal(again.status, 204);
    });

    it('manages teams and their members', async () => {
      const created = await api.orgs.createOrganizationTeam(orgId, { title: 'Writers', members: [world.members.edit.id] });
      assert.equal(created.status, 201);
      const teamId = created.data.id;
      const list = await api.orgs.listTeamsInOrganizationById(orgId, { title: 'writ' });
      assert.deepEqual(list.data.items.map((team) => team.id), [teamId]);
      assert.equal((await api.orgs.getTeamInOrganizationById(orgId, teamId)).data.members, 1);
      assert.equal((await api.orgs.updateTeamInOrganizationById(orgId, teamId, { title: 'Technical writers' })).data.title, 'Technical writers');
      const bulk = await api.orgs.updateMembersInOrganizationTeam(orgId, teamId, { add: [world.members.read.email, world.members.review.id], remove: [world.members.edit.id] });
      assert.equal(bulk.status, 204);
      assert.equal((await api.orgs.addMemberToOrganizationTeamById(orgId, teamId, world.members.edit.id, { role: TeamMemberRole.Owner })).status, 204);
      const teamMembers = await api.orgs.listTeamMembersInOrganizationById(orgId, teamId);
      assert.equal(teamMembers.data.count, 3);
      assert.equal((await api.orgs.deleteMemberFromOrganizationTeamById(orgId, teamId, world.members.read.id)).status, 205);
      const memberTeams = await api.orgs.listTeamsForOrganizationMember(orgId, world.members.edit.id);
      assert.deepEqual(memberTeams.data.items.map((item) => [item.team.id, item.member.role]), [[teamId, 'owner']]);
      assert.equal((await api.orgs.removeTeamFromOrganizationById(orgId, teamId)).status, 205);
      assert.equal((await api.orgs.removeTeamFromOrganizationById(orgId, teamId)).status, 204);
    });

    it('manages SAML providers and lists SSO logins', async () => {
      const created = await api.orgs.createOrganizationSamlProvider(orgId, {
        label: 'Okta',
        entityID: 'https://idp.example.com/entity',
        certificate,
        ssoURL: 'https://idp.example.com/sso',
        defaultRole: MemberRole.Read,
      });
      assert.equal(created.status, 201);
      assert.equal(created.data.status, 'active');
      const id = created.data.id;
      assert.equal((await api.orgs.listSamlProvidersInOrganizationById(orgId)).data.count, 1);
      assert.equal((await api.orgs.getOrganizationSamlProviderById(orgId, id)).data.label, 'Okta');
      assert.equal((await api.orgs.updateOrganizationSamlProvider(orgId, id, { label: 'Okta EU' })).data.label, 'Okta EU');
      const logins = await api.orgs.listSsoProviderLoginsInOrganization(orgId);
      assert.deepEqual(logins.data.items.map((login) => login.label), ['Okta EU']);
      assert.equal((await api.orgs.deleteOrganizationSamlProvider(orgId, id)).status, 205);
    });

    it('invites by e-mail and by link', async () => {
      const invited = await api.orgs.inviteUsersToOrganization(orgId, { emails: ['new.writer@acme.test', { email: 'new.reviewer@acme.test', role: MemberRole.Review }], role: MemberRole.Edit });
      assert.equal(invited.data.invited, 2);
      const link = await api.orgs.createOrganizationInvite(orgId, { role: MemberRole.Read });
      assert.equal(link.status, 201);
      const links = await api.orgs.listOrganizationInviteLinks(orgId);
      assert.equal(links.data.count, 1);
      assert.equal((await api.orgs.getOrganizationInviteLink(orgId, link.data.id)).data.id, link.data.id);
      assert.equal((await api.orgs.deleteOrganizationInviteById(orgId, link.data.id)).status, 205);
      assert.equal((await api.orgs.deleteOrganizationInviteById(orgId, link.data.id)).status, 204);
    });

    it('surfaces Quire\'s error messages through the client', async () => {
      const guest = new GitBookAPI({ endpoint: `http://127.0.0.1:${(t.app.server.address() as { port: number }).port}`, authToken: world.guest.token });
      await assert.rejects(guest.orgs.updateOrganizationById(orgId, { title: 'Nope' }), /Only administrators/);
      await assert.rejects(api.orgs.getOrganizationById('missing'), /No organization "missing"/);
    });
  });
}
