import { lockRows } from '../../db/locks.ts';
import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { Context } from '../../context.ts';
import type { DB } from '../../db/types.ts';
import { containsPattern } from '../../db/dialect.ts';
import { NotFound } from '../../errors.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import type { MemberView } from './views.ts';

/**
 * How many spaces a member can access, as a column over the outer `members` row: every live space of the
 * organization for an administrator; for other members, those whose default level (their own, else the
 * nearest one set on their collections) is not 'none'; none for guests and disabled members. Spaces
 * anyone may read (public, unlisted) are not counted for members without a level on them. This is the
 * count of GET /orgs/{organizationId}/members/{userId}/spaces as an administrator sees it.
 */
export function directSpaceCount() {
  return sql<number>`(
    with recursive collection_levels(id, level) as (
      select id, default_level from collections where organization_id = members.organization_id and parent_id is null
      union all
      select c.id, case when c.default_level = 'inherit' then up.level else c.default_level end
      from collections c join collection_levels up on up.id = c.parent_id
    )
    select count(*) from spaces left join collection_levels on collection_levels.id = spaces.collection_id
    where spaces.organization_id = members.organization_id and spaces.deleted_at is null
      and members.role is not null and members.disabled = 0
      and (members.role = 'admin'
        or (case when spaces.default_level <> 'inherit' then spaces.default_level else coalesce(collection_levels.level, 'inherit') end) <> 'none')
  )`;
}

type MembersScope = ExpressionBuilder<DB & { members: DB['members']; users: DB['users'] }, 'members' | 'users'>;

/** The number of teams of the member's organization that the member belongs to, as a column. */
function teamCount(eb: MembersScope) {
  return eb
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .whereRef('team_members.user_id', '=', 'members.user_id')
    .whereRef('teams.organization_id', '=', 'members.organization_id')
    .select((inner) => inner.fn.countAll<number>().as('n'))
    .as('team_count');
}

/** Members of one organization joined with their users, with every column a MemberView needs. */
export function membersQuery(ctx: Context, organizationId: string) {
  return ctx.db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .where('members.organization_id', '=', organizationId)
    .select(['users.id', 'users.email', 'users.display_name', 'users.photo_url'])
    .select(['members.role', 'members.disabled', 'members.sso', 'members.joined_at', 'members.last_seen_at'])
    .select((eb) => teamCount(eb))
    .select(directSpaceCount().as('space_count'));
}

export interface MemberRowWithCounts {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  role: string | null;
  disabled: number;
  sso: number;
  joined_at: string;
  last_seen_at: string | null;
  team_count: number | null;
  space_count: number | string | null;
}

export function toMemberView(row: MemberRowWithCounts): MemberView {
  return {
    user: { id: row.id, email: row.email, display_name: row.display_name, photo_url: row.photo_url },
    role: row.role as MemberRoleOrGuest,
    disabled: row.disabled === 1,
    sso: row.sso === 1,
    joinedAt: row.joined_at,
    lastSeenAt: row.last_seen_at,
    spaces: Number(row.space_count ?? 0),
    teams: Number(row.team_count ?? 0),
  };
}

/** The membership of `userId` in the organization, or null. */
export async function findMember(ctx: Context, organizationId: string, userId: string): Promise<MemberView | null> {
  const row = await membersQuery(ctx, organizationId).where('members.user_id', '=', userId).executeTakeFirst();
  return row ? toMemberView(row) : null;
}

export function memberNotFound(userId: string): NotFound {
  return new NotFound(`No member "${userId}" exists in this organization.`);
}

/** The membership of `userId` in the organization; 404 when the user is not a member. */
export async function requireMember(ctx: Context, organizationId: string, userId: string): Promise<MemberView> {
  const member = await findMember(ctx, organizationId, userId);
  if (!member) throw memberNotFound(userId);
  return member;
}

/** `lower(column) like '%text%'` with LIKE's wildcards in `text` taken literally; the same on both databases. */
export function containsText(column: string, text: string) {
  return sql<SqlBool>`lower(${sql.ref(column)}) like ${containsPattern(text)} escape '\\'`;
}

/**
 * Serializes the changes to who administers an organization: on PostgreSQL the organization row is locked
 * until the transaction ends, so two requests cannot each remove "the other" admin, and a caller's own
 * standing is read after any change in flight. Take it before reading anything. SQLite runs one write
 * transaction at a time already.
 */
export async function lockOrganization(tx: Context, organizationId: string): Promise<void> {
  await lockRows(tx.db.selectFrom('organizations').select('id').where('id', '=', organizationId), tx.dialect, { mode: 'no-key-update' }).execute();
}

/** How many enabled administrators the organization has (disabled ones cannot act, so they do not count). */
export async function activeAdminCount(tx: Context, organizationId: string): Promise<number> {
  const row = await tx.db
    .selectFrom('members')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .where('role', '=', 'admin')
    .where('disabled', '=', 0)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}
