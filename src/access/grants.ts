import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import { memoized } from '../db/memo.ts';
import { MEMBER_ROLES, roleRank, type MemberRole, type MemberRoleOrGuest } from '../policy/roles.ts';

/**
 * Sharing: the roles a user holds on content through grants (`content_permissions`), given to them or to
 * a team they belong to, on a space or on a collection (which reaches everything under it). A grant only
 * raises: the caller's level on content is the highest of what their organization role gives there and
 * what their grants give. Grants count only for members of the organization (guests included): a user
 * who leaves it, or is disabled, keeps none.
 */
export interface Grants {
  /** The best role granted on each space and collection, directly or through a team. */
  spaces: Map<string, MemberRole>;
  collections: Map<string, MemberRole>;
}

function isMemberRole(value: string): value is MemberRole {
  return (MEMBER_ROLES as readonly string[]).includes(value);
}

function keepBest(map: Map<string, MemberRole>, id: string, role: MemberRole): void {
  const held = map.get(id);
  if (!held || roleRank(role) > roleRank(held)) map.set(id, role);
}

/** Runs on every space route: built and compiled once. */
const grantsOf = memoized(preparedQuery((db, organizationId: string, userId: string) =>
  db
    .selectFrom('content_permissions')
    .select(['resource_kind', 'resource_id', 'role'])
    .where('organization_id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb.and([eb('subject_kind', '=', 'user'), eb('subject_id', '=', userId)]),
        eb.and([eb('subject_kind', '=', 'team'), eb('subject_id', 'in', eb.selectFrom('team_members').select('team_id').where('user_id', '=', userId))]),
      ]),
    ),
));

/** The grants of a user in an organization (one query); null when they have none, which is most callers. */
export async function loadGrants(ctx: Pick<Context, 'db' | 'dialect'>, organizationId: string, userId: string): Promise<Grants | null> {
  const rows = await grantsOf(ctx, organizationId, userId);
  if (rows.length === 0) return null;
  const grants: Grants = { spaces: new Map(), collections: new Map() };
  for (const row of rows) {
    if (!isMemberRole(row.role)) continue;
    keepBest(row.resource_kind === 'space' ? grants.spaces : grants.collections, row.resource_id, row.role);
  }
  return grants;
}

/** The grants of a caller whose organization role is `orgRole`: none for outsiders and disabled members. */
export async function memberGrants(ctx: Pick<Context, 'db' | 'dialect'>, organizationId: string, userId: string, orgRole: MemberRoleOrGuest | undefined): Promise<Grants | null> {
  return orgRole === undefined ? null : loadGrants(ctx, organizationId, userId);
}

/** The best role granted on content whose collections (nearest first) are `collectionIds`, and the space itself when given. */
export function grantedRole(grants: Grants | null, collectionIds: string[], spaceId?: string): MemberRole | null {
  if (!grants) return null;
  let best: MemberRole | null = spaceId ? (grants.spaces.get(spaceId) ?? null) : null;
  for (const id of collectionIds) {
    const role = grants.collections.get(id);
    if (role && roleRank(role) > roleRank(best)) best = role;
  }
  return best;
}

/** The caller's level raised by a grant, never lowered. */
export function raisedLevel(level: MemberRoleOrGuest, granted: MemberRole | null): MemberRole | null {
  if (granted && roleRank(granted) > roleRank(level)) return granted;
  return level;
}

/** The role of a rank (roleRank), null for 0. */
export function roleOfRank(rank: number | string | null | undefined): MemberRole | null {
  const n = Number(rank ?? 0);
  return MEMBER_ROLES.find((role) => roleRank(role) === n) ?? null;
}

/** SQL: the rank (roleRank) of a role held in a column; 0 for anything else. */
export function roleRankSql(column: RawBuilder<unknown>): RawBuilder<number> {
  const cases = MEMBER_ROLES.map((role) => sql`when ${role} then ${sql.lit(roleRank(role))}`);
  return sql<number>`(case ${column} ${sql.join(cases, sql` `)} else 0 end)`;
}

/** SQL: the greater of two ranks (both dialects). */
export function greaterRank(a: RawBuilder<number>, b: RawBuilder<number>): RawBuilder<number> {
  return sql<number>`(case when ${a} > ${b} then ${a} else ${b} end)`;
}

/** SQL: the rank granted by a map of grants to the row whose id is `idColumn` (0 when none). */
export function rankOfIds(map: Map<string, MemberRole> | undefined, idColumn: RawBuilder<unknown>): RawBuilder<number> {
  if (!map || map.size === 0) return sql<number>`0`;
  const cases = [...map].map(([id, role]) => sql`when ${id} then ${sql.lit(roleRank(role))}`);
  return sql<number>`(case ${idColumn} ${sql.join(cases, sql` `)} else 0 end)`;
}

/**
 * SQL: the best rank that any user or team grant gives to the user in column `userColumn` on a space (id
 * `spaceId`) or on one of the collections `collectionIds` (the space's chain, or a collection's own chain).
 * For the lists of who can access content.
 */
export function grantRankOfUser(userColumn: RawBuilder<unknown>, resources: { spaceId?: string; collectionIds: string[] }): RawBuilder<number> {
  const onResource = [
    ...(resources.spaceId ? [sql`(cp.resource_kind = 'space' and cp.resource_id = ${resources.spaceId})`] : []),
    ...(resources.collectionIds.length > 0 ? [sql`(cp.resource_kind = 'collection' and cp.resource_id in (${sql.join(resources.collectionIds)}))`] : []),
  ];
  if (onResource.length === 0) return sql<number>`0`;
  return sql<number>`coalesce((select max(${roleRankSql(sql.ref('cp.role'))}) from content_permissions cp
    where (${sql.join(onResource, sql` or `)})
      and ((cp.subject_kind = 'user' and cp.subject_id = ${userColumn})
        or (cp.subject_kind = 'team' and cp.subject_id in (select tm.team_id from team_members tm where tm.user_id = ${userColumn})))), 0)`;
}

/**
 * Grants go with what they name: the spaces or collections purged for good, a deleted team, a user who
 * leaves the organization. Called in the transaction that removes the object, so no grant outlives it
 * (a later object or member with the same id could otherwise inherit it).
 */
export async function removeGrantsOn(ctx: Pick<Context, 'db'>, kind: 'space' | 'collection', ids: string[]): Promise<void> {
  if (ids.length === 0) return;
  await ctx.db.deleteFrom('content_permissions').where('resource_kind', '=', kind).where('resource_id', 'in', ids).execute();
}

/** Removes the grants given to a user or a team in one organization (see removeGrantsOn). */
export async function removeGrantsTo(ctx: Pick<Context, 'db'>, organizationId: string, kind: 'user' | 'team', id: string): Promise<void> {
  await ctx.db.deleteFrom('content_permissions').where('organization_id', '=', organizationId).where('subject_kind', '=', kind).where('subject_id', '=', id).execute();
}
