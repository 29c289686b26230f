import { sql, type Kysely, type QueryCreator, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/types.ts';
import type { MemberRoleOrGuest } from '../policy/roles.ts';
import { effectiveLevel, type SpaceActor, type SpaceVisibility, type StoredLevel } from '../policy/space.ts';
import { greaterRank, raisedLevel, rankOfIds, roleOfRank, type Grants } from './grants.ts';

/**
 * Levels in bulk, for lists. One content item's level comes from the first default level set on it or on
 * one of its parent collections (src/policy/space.ts). Lists resolve that chain in SQL: a recursive query
 * walks the collections of an organization from the root down, carrying the nearest level that is set,
 * so each space or collection gets its *resolved* level ('inherit' when nothing on the way sets one) in the
 * same query that lists it. `effectiveLevel(role, [resolved])` is then the caller's level.
 */

/** A query builder with `collection_levels(id, level)`: every collection of the organization and its resolved level. */
export function withCollectionLevels(db: Kysely<DB>, organizationId: string) {
  return db.withRecursive('collection_levels(id, level)', (qb) =>
    qb
      .selectFrom('collections')
      .select(['collections.id', 'collections.default_level as level'])
      .where('collections.organization_id', '=', organizationId)
      .where('collections.parent_id', 'is', null)
      .unionAll((union) =>
        union
          .selectFrom('collections as child')
          .innerJoin('collection_levels as up', 'up.id', 'child.parent_id')
          .select(['child.id', sql<string>`case when child.default_level = 'inherit' then up.level else child.default_level end`.as('level')]),
      ),
  );
}

type GrantedName = 'granted_collections' | 'member_collections';

/**
 * Adds `<name>(id, rank)` to a query builder: every collection that one user's grants reach (the granted
 * collections and all below them) with the rank (roleRank) granted there; a collection reached twice has
 * two rows. Empty when the user holds no collection grant, so most callers pay nothing.
 */
export function withGrantedCollections<D>(db: QueryCreator<D>, name: GrantedName, organizationId: string, grants: Grants | null) {
  const roots = [...(grants?.collections.keys() ?? [])];
  const seed = roots.length > 0 ? sql<SqlBool>`collections.id in (${sql.join(roots)})` : sql<SqlBool>`1 = 0`;
  // Parenthesized here: Kysely writes a raw CTE body as given.
  const body = sql<{ id: string; rank: number }>`(select collections.id, ${rankOfIds(grants?.collections, sql.ref('collections.id'))} from collections
    where collections.organization_id = ${organizationId} and ${seed}
    union all
    select child.id, up.rank from collections child join ${sql.table(name)} up on up.id = child.parent_id)`;
  return db.withRecursive(`${name}(id, rank)` as 'granted_collections(id, rank)', () => body);
}

/**
 * The collection levels and the caller's granted collections (`granted_collections`), and optionally a
 * second user's (`member_collections`, for the spaces of a member): the query builder of every list of content.
 */
export function withContentLevels(db: Kysely<DB>, organizationId: string, grants: Grants | null, memberGrants?: Grants | null) {
  const levels = withCollectionLevels(db, organizationId);
  const granted = withGrantedCollections(levels, 'granted_collections', organizationId, grants);
  const withMember = memberGrants === undefined ? granted : withGrantedCollections(granted, 'member_collections', organizationId, memberGrants);
  return withMember as unknown as QueryCreator<
    DB & { collection_levels: { id: string; level: string }; granted_collections: { id: string; rank: number }; member_collections: { id: string; rank: number } }
  >;
}

/** SQL: the rank that grants (held in `granted`, reached collections in CTE `name`) give on the outer `spaces` row. */
export function spaceGrantRank(grants: Grants | null, name: GrantedName = 'granted_collections'): RawBuilder<number> {
  if (!grants) return sql<number>`0`;
  const direct = rankOfIds(grants.spaces, sql.ref('spaces.id'));
  if (grants.collections.size === 0) return direct;
  const viaCollection = sql<number>`coalesce((select max(g.rank) from ${sql.table(name)} g where g.id = spaces.collection_id), 0)`;
  return greaterRank(direct, viaCollection);
}

/** SQL: the rank that the caller's grants give on the outer `collections` row. */
export function collectionGrantRank(grants: Grants | null): RawBuilder<number> {
  if (!grants || grants.collections.size === 0) return sql<number>`0`;
  return sql<number>`coalesce((select max(g.rank) from granted_collections g where g.id = collections.id), 0)`;
}

/** SQL: `allowed` by the organization role, or a grant of at least read (`rank` >= 1). */
export function orGranted(allowed: RawBuilder<SqlBool>, rank: RawBuilder<number>): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${allowed} or ${rank} >= 1)`;
}

/** The resolved level of `spaces` joined (left) with `collection_levels` on its collection. */
export const spaceResolvedLevel: RawBuilder<string> = sql<string>`case when spaces.default_level <> 'inherit' then spaces.default_level else coalesce(collection_levels.level, 'inherit') end`;

/**
 * SQL: the caller (of organization role `orgRole`, undefined for outsiders) can see the space whose
 * resolved level is `resolved` — the same rule as spaceRules.view, for one role at a time.
 */
export function spaceViewableBy(orgRole: MemberRoleOrGuest | undefined, resolved: RawBuilder<string>): RawBuilder<SqlBool> {
  const open = sql<SqlBool>`spaces.visibility in ('public', 'unlisted')`;
  if (orgRole === 'admin') return sql<SqlBool>`1 = 1`;
  if (orgRole === null || orgRole === undefined) return open;
  return sql<SqlBool>`(${resolved} <> 'none' or ${open})`;
}

/** SQL: a member of role `orgRole` has a level (at least read) on content whose resolved level is `resolved`. */
export function accessibleBy(orgRole: MemberRoleOrGuest | undefined, resolved: RawBuilder<string>): RawBuilder<SqlBool> {
  if (orgRole === 'admin') return sql<SqlBool>`1 = 1`;
  if (orgRole === null || orgRole === undefined) return sql<SqlBool>`1 = 0`;
  return sql<SqlBool>`${resolved} <> 'none'`;
}

/** The caller on a space, from their organization role, the space's resolved level and the rank their grants give there. */
export function spaceActorFor(userId: string, orgRole: MemberRoleOrGuest | undefined, resolved: string, visibility: string, grantedRank?: number | string): SpaceActor {
  return {
    userId,
    orgRole,
    level: raisedLevel(effectiveLevel(orgRole, [resolved as StoredLevel]), roleOfRank(grantedRank)),
    visibility: visibility as SpaceVisibility,
    sharedWith: false,
  };
}
