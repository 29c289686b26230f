import assert from 'node:assert/strict';
import type { Context } from '../../src/context.ts';
import { nowIso } from '../../src/context.ts';
import type { MemberRole, MemberRoleOrGuest } from '../../src/policy/roles.ts';
import { MEMBER_ROLES } from '../../src/policy/roles.ts';
import { createOrganization } from '../../src/modules/orgs/service.ts';
import { findOrCreateUser, issueApiToken } from '../../src/modules/users/service.ts';
import type { FastifyInstance } from 'fastify';
import { client, type Client } from './app.ts';

let counter = 0;
const unique = () => `${Date.now().toString(36)}${(counter++).toString(36)}`;

export interface TestUser {
  id: string;
  email: string;
  token: string;
  api: Client;
}

export async function createUser(ctx: Context, app: FastifyInstance, name = 'user'): Promise<TestUser> {
  const email = `${name}-${unique()}@example.com`;
  const user = await findOrCreateUser(ctx, email, name);
  const token = await issueApiToken(ctx, user.id);
  return { id: user.id, email: user.email, token, api: client(app, token) };
}

export async function addMember(ctx: Context, organizationId: string, userId: string, role: MemberRoleOrGuest): Promise<void> {
  await ctx.db
    .insertInto('members')
    .values({ organization_id: organizationId, user_id: userId, role, disabled: 0, sso: 0, joined_at: nowIso(ctx), last_seen_at: null })
    .execute();
}

/**
 * An organization with one user per role, a guest, and an outsider (the admin of another organization):
 * the cast of every role-matrix test.
 */
export interface World {
  organizationId: string;
  admin: TestUser;
  members: Record<MemberRole, TestUser>;
  guest: TestUser;
  outsider: TestUser;
  otherOrganizationId: string;
}

export async function createWorld(ctx: Context, app: FastifyInstance, clock?: { advance(ms: number): void }): Promise<World> {
  const adminEmail = `admin-${unique()}@acme.test`;
  const { organization, owner } = await createOrganization(ctx, { title: 'Acme Docs', ownerEmail: adminEmail, ownerName: 'Ada Admin' });
  const adminToken = await issueApiToken(ctx, owner.id);
  const admin: TestUser = { id: owner.id, email: owner.email, token: adminToken, api: client(app, adminToken) };
  const members = { admin } as Record<MemberRole, TestUser>;
  for (const role of MEMBER_ROLES) {
    if (role === 'admin') continue;
    clock?.advance(1000);
    const user = await createUser(ctx, app, role);
    await addMember(ctx, organization.id, user.id, role);
    members[role] = user;
  }
  clock?.advance(1000);
  const guest = await createUser(ctx, app, 'guest');
  await addMember(ctx, organization.id, guest.id, null);
  const outsiderEmail = `outsider-${unique()}@elsewhere.test`;
  const other = await createOrganization(ctx, { title: 'Elsewhere', ownerEmail: outsiderEmail });
  const outsiderToken = await issueApiToken(ctx, other.owner.id);
  const outsider: TestUser = { id: other.owner.id, email: other.owner.email, token: outsiderToken, api: client(app, outsiderToken) };
  return { organizationId: organization.id, admin, members, guest, outsider, otherOrganizationId: other.organization.id };
}

/** Each caller of the matrix by name: the six roles, the guest, the outsider. */
export function cast(world: World): Array<[string, TestUser]> {
  return [...MEMBER_ROLES.map((role) => [role, world.members[role]] as [string, TestUser]), ['guest', world.guest], ['outsider', world.outsider]];
}

/**
 * Creates a space (or a collection) through the API as `user`, one second after the last, so that lists
 * ordered by time are in creation order; fails the test unless the answer is 201.
 */
export async function postSpace(clock: { advance(ms: number): void }, user: TestUser, organizationId: string, body: Record<string, unknown> = {}) {
  return postCreated(clock, user, `/v1/orgs/${organizationId}/spaces`, body);
}

export async function postCollection(clock: { advance(ms: number): void }, user: TestUser, organizationId: string, body: Record<string, unknown> = {}) {
  return postCreated(clock, user, `/v1/orgs/${organizationId}/collections`, body);
}

async function postCreated(clock: { advance(ms: number): void }, user: TestUser, url: string, body: Record<string, unknown>) {
  clock.advance(1000);
  const reply = await user.api.post(url, body);
  assert.equal(reply.status, 201, JSON.stringify(reply.body));
  return reply.body;
}
