import { sql, type Kysely, type RawBuilder, type SqlBool } from 'kysely';
import type { DB } from '../db/types.ts';
import type { MemberRoleOrGuest } from '../policy/roles.ts';
import { effectiveLevel, type SpaceActor, type SpaceVisibility, type StoredLevel } from '../policy/space.ts';

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

/** The caller on a space, from their organization role and the space's resolved level. */
export function spaceActorFor(userId: string, orgRole: MemberRoleOrGuest | undefined, resolved: string, visibility: string): SpaceActor {
  return {
    userId,
    orgRole,
    level: effectiveLevel(orgRole, [resolved as StoredLevel]),
    visibility: visibility as SpaceVisibility,
    sharedWith: false,
  };
}
