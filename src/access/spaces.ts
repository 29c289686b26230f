import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { requireActor } from '../context.ts';
import type { SpaceRow } from '../db/rows.ts';
import { preparedQuery } from '../db/prepared.ts';
import { memoized } from '../db/memo.ts';
import { NotFound } from '../errors.ts';
import type { OrganizationActor } from '../policy/index.ts';
import type { MemberRole, MemberRoleOrGuest } from '../policy/roles.ts';
import { grantedRole, memberGrants, raisedLevel } from './grants.ts';
import { effectiveLevel, spaceRules, type SpaceActor, type SpaceVisibility, type StoredLevel } from '../policy/space.ts';

export type { SpaceRow };

/**
 * The default levels of a collection and its ancestors, nearest first (a recursive query that SQLite and
 * PostgreSQL both run as written).
 */
export async function collectionLevelChain(ctx: Context, collectionId: string | null): Promise<StoredLevel[]> {
  return (await collectionChain(ctx, collectionId)).map((link) => link.level);
}

/** A collection and its ancestors, nearest first, with their default levels. */
export async function collectionChain(ctx: Context, collectionId: string | null): Promise<Array<{ id: string; level: StoredLevel }>> {
  if (!collectionId) return [];
  const rows = await collectionChainQuery(ctx, collectionId);
  return rows.map((row) => ({ id: row.id, level: row.default_level as StoredLevel }));
}

const collectionChainQuery = memoized(preparedQuery((db, collectionId: string) => {
  const query = sql<{ id: string; default_level: string; depth: number }>`
    with recursive chain(id, parent_id, default_level, depth) as (
      select id, parent_id, default_level, 0 from collections where id = ${collectionId}
      union all
      select c.id, c.parent_id, c.default_level, chain.depth + 1 from collections c join chain on c.id = chain.parent_id where chain.depth < 64
    )
    select id, default_level, depth from chain order by depth`;
  return { compile: () => query.compile(db) };
}));

/** A space with the caller's membership of its organization (run on every space route: built and compiled once). */
function spaceWithMembership(includeDeleted: boolean) {
  return memoized(preparedQuery((db, spaceId: string, userId: string) =>
    db
      .selectFrom('spaces')
      .leftJoin('members', (join) =>
        join.onRef('members.organization_id', '=', 'spaces.organization_id').on('members.user_id', '=', userId).on('members.disabled', '=', 0),
      )
      .selectAll('spaces')
      .select(['members.role as member_role', 'members.user_id as member_user'])
      .where('spaces.id', '=', spaceId)
      .$if(!includeDeleted, (q) => q.where('spaces.deleted_at', 'is', null)),
  ));
}
const liveSpaceWithMembership = spaceWithMembership(false);
const anySpaceWithMembership = spaceWithMembership(true);

export interface SpaceAccess {
  space: SpaceRow;
  actor: SpaceActor;
}

export interface SpaceAccessOptions {
  /** Also find a space that is in the trash (restore, and the trash itself). */
  includeDeleted?: boolean;
}

/**
 * Loads a space with the caller's standing on it; null when there is none by that id, or when the caller may
 * not read it (the two are not told apart, so existence is not leaked).
 */
/** A space's own columns of a (shared) row with membership, split off once per row. */
const spaceColumns = new WeakMap<object, SpaceRow>();

export async function findSpaceAccess(ctx: Context, spaceId: string, options: SpaceAccessOptions = {}): Promise<SpaceAccess | null> {
  const user = requireActor(ctx);
  const [row] = await (options.includeDeleted ? anySpaceWithMembership : liveSpaceWithMembership)(ctx, spaceId, user.userId);
  if (!row) return null;
  // The row may be shared (memoized): its space's own columns are split off once per row and each request
  // gets a plain copy of them (a rest destructuring of the row took V8's slow path on every request).
  let columns = spaceColumns.get(row);
  if (!columns) {
    const { member_role: _role, member_user: _user, ...own } = row;
    columns = own as SpaceRow;
    spaceColumns.set(row, columns);
  }
  const space = { ...columns } as typeof columns;
  const orgRole = row.member_user ? (row.member_role as MemberRoleOrGuest) : undefined;
  const [collections, grants] = await Promise.all([collectionChain(ctx, space.collection_id), memberGrants(ctx, space.organization_id, user.userId, orgRole)]);
  const chain = [space.default_level as StoredLevel, ...collections.map((link) => link.level)];
  const granted = grantedRole(grants, collections.map((link) => link.id), space.id);
  const actor: SpaceActor = {
    userId: user.userId,
    orgRole,
    level: raisedLevel(effectiveLevel(orgRole, chain), granted),
    visibility: space.visibility as SpaceVisibility,
    sharedWith: false,
  };
  if (!spaceRules.view(actor)) return null;
  return { space, actor };
}

/**
 * Loads a space with the caller's standing on it. A space the caller may not read is reported exactly as
 * a space that does not exist, so existence is not leaked.
 */
export async function spaceAccess(ctx: Context, spaceId: string, options: SpaceAccessOptions = {}): Promise<SpaceAccess> {
  const access = await findSpaceAccess(ctx, spaceId, options);
  if (!access) throw spaceNotFound(spaceId);
  return access;
}

/** The caller's standing in the space's organization, for the organization-wide rules (creating content). */
export function organizationActorOf(actor: SpaceActor): OrganizationActor {
  return { userId: actor.userId, role: actor.orgRole ?? null, ownsTeam: false };
}

export function spaceNotFound(spaceId: string): NotFound {
  return new NotFound(`No space "${spaceId}" exists that you can read.`);
}

/**
 * The level another user holds on a space (for naming reviewers): their organization role under the
 * space's default levels, raised by their grants; null for outsiders and disabled members.
 */
export async function userLevelOnSpace(ctx: Context, space: Pick<SpaceRow, 'id' | 'organization_id' | 'collection_id' | 'default_level'>, userId: string): Promise<MemberRole | null> {
  const member = await ctx.db
    .selectFrom('members')
    .select('role')
    .where('organization_id', '=', space.organization_id)
    .where('user_id', '=', userId)
    .where('disabled', '=', 0)
    .executeTakeFirst();
  if (!member) return null;
  const orgRole = member.role as MemberRoleOrGuest;
  const [collections, grants] = await Promise.all([collectionChain(ctx, space.collection_id), memberGrants(ctx, space.organization_id, userId, orgRole)]);
  const level = effectiveLevel(orgRole, [space.default_level as StoredLevel, ...collections.map((link) => link.level)]);
  return raisedLevel(level, grantedRole(grants, collections.map((link) => link.id), space.id));
}
