import { sql, type RawBuilder, type SqlBool } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { grantRankOfUser, greaterRank, roleOfRank, roleRankSql } from '../../access/grants.ts';
import { teamViewQuery, toTeamView, type TeamView } from '../../access/teams.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { roleRank, type MemberRole, type MemberRoleOrGuest } from '../../policy/roles.ts';
import type { StoredLevel } from '../../policy/space.ts';
import type { UserRow } from '../../db/rows.ts';
import { sharedContent, type ContentKind, type SharedContent } from './content.ts';
import type { AggregateQuery, InviteBody, ListPermissionsQuery } from './schemas.ts';

export type { ContentKind };

export interface UserPermissionView {
  user: UserRow;
  permission: MemberRole;
}

export interface TeamPermissionView {
  team: TeamView;
  permission: MemberRole;
}

type Subject = { kind: 'user' | 'team'; id: string };

/** The users a space or collection was shared with directly (not through a team), with the role given. */
export async function listUserPermissions(ctx: Context, kind: ContentKind, id: string, query: ListPermissionsQuery): Promise<Page<UserPermissionView>> {
  const content = await sharedContent(ctx, kind, id, 'read');
  const base = ctx.db
    .selectFrom('content_permissions as cp')
    .innerJoin('users', 'users.id', 'cp.subject_id')
    .innerJoin('members', (join) => join.onRef('members.user_id', '=', 'users.id').on('members.organization_id', '=', content.organizationId))
    .select(['users.id', 'users.email', 'users.display_name', 'users.photo_url', 'users.created_at', 'cp.role'])
    .where('cp.resource_kind', '=', content.kind)
    .where('cp.resource_id', '=', content.id)
    .where('cp.subject_kind', '=', 'user');
  const page = await pageInCreationOrder(ctx.cursors, base, `permissions-users:${kind}:${content.id}`, query, { table: 'users' });
  return { ...page, items: page.items.map(({ role, created_at: _created, ...user }) => ({ user, permission: role as MemberRole })) };
}

/** The teams a space or collection was shared with, with the role given. */
export async function listTeamPermissions(ctx: Context, kind: ContentKind, id: string, query: ListPermissionsQuery): Promise<Page<TeamPermissionView>> {
  const content = await sharedContent(ctx, kind, id, 'read');
  const base = teamViewQuery(ctx, content.organizationId, content.organizationActor.userId)
    .innerJoin('content_permissions as cp', (join) => join.onRef('cp.subject_id', '=', 'teams.id').on('cp.subject_kind', '=', 'team'))
    .select('cp.role')
    .where('cp.resource_kind', '=', content.kind)
    .where('cp.resource_id', '=', content.id);
  const page = await pageInCreationOrder(ctx.cursors, base, `permissions-teams:${kind}:${content.id}:${content.organizationActor.userId}`, query, { table: 'teams' });
  return { ...page, items: page.items.map((row) => ({ team: toTeamView(row, content.organizationActor), permission: row.role as MemberRole })) };
}

/**
 * SQL: the rank (roleRank) of the level a member (outer `members` row) holds on the content through their
 * organization role and the content's default levels, the rule of effectiveLevel for a whole table at once.
 */
function organizationLevelRank(levels: StoredLevel[]): RawBuilder<number> {
  const set = levels.find((level) => level !== 'inherit') ?? 'inherit';
  const role = roleRankSql(sql.ref('members.role'));
  const below =
    set === 'none' ? sql<number>`0` : set === 'inherit' ? role : sql<number>`(case when ${role} < ${sql.lit(roleRank(set))} then ${role} else ${sql.lit(roleRank(set))} end)`;
  return sql<number>`(case when members.role = 'admin' then ${sql.lit(roleRank('admin'))} when members.role is null then 0 else ${below} end)`;
}

/**
 * Everyone who can access a space or collection, with their level there: what their organization role
 * gives (under the content's default levels), raised by their grants and their teams'. Disabled members
 * are left out. `role` keeps only those whose level is exactly that.
 */
export async function listPermissionsAggregate(ctx: Context, kind: ContentKind, id: string, query: AggregateQuery): Promise<Page<UserPermissionView>> {
  const content = await sharedContent(ctx, kind, id, 'read');
  const rank = greaterRank(
    organizationLevelRank(content.levels),
    grantRankOfUser(sql.ref('members.user_id'), { spaceId: kind === 'space' ? content.id : undefined, collectionIds: content.collectionIds }),
  );
  const wanted: RawBuilder<SqlBool> = query.role ? sql<SqlBool>`${rank} = ${sql.lit(roleRank(query.role))}` : sql<SqlBool>`${rank} >= 1`;
  const base = ctx.db
    .selectFrom('members')
    .innerJoin('users', 'users.id', 'members.user_id')
    .select(['users.id', 'users.email', 'users.display_name', 'users.photo_url', 'users.created_at'])
    .select(rank.as('rank'))
    .where('members.organization_id', '=', content.organizationId)
    .where('members.disabled', '=', 0)
    .where(wanted);
  const page = await pageInCreationOrder(ctx.cursors, base, `permissions-aggregate:${kind}:${content.id}:${query.role ?? ''}`, query, { table: 'users' });
  return { ...page, items: page.items.map(({ rank: held, created_at: _created, ...user }) => ({ user, permission: roleOfRank(held)! })) };
}

/** 404 unless the user is a member (or guest) of the organization, or the team one of its teams. */
async function checkSubject(ctx: Context, organizationId: string, subject: Subject): Promise<void> {
  if (subject.kind === 'user') {
    const member = await ctx.db.selectFrom('members').select('user_id').where('organization_id', '=', organizationId).where('user_id', '=', subject.id).executeTakeFirst();
    if (!member) {
      throw new NotFound(`No user "${subject.id}" is a member or guest of this organization: invite them to the organization first, then share the content with them.`);
    }
    return;
  }
  const team = await ctx.db.selectFrom('teams').select('id').where('organization_id', '=', organizationId).where('id', '=', subject.id).executeTakeFirst();
  if (!team) throw new NotFound(`No team "${subject.id}" exists in this organization.`);
}

/** Gives `role` to the subject on the content, or takes their grant away when `role` is null; true when a grant was removed. */
async function writeGrant(ctx: Context, content: SharedContent, subject: Subject, role: MemberRoleOrGuest): Promise<boolean> {
  const match = ctx.db
    .deleteFrom('content_permissions')
    .where('resource_kind', '=', content.kind)
    .where('resource_id', '=', content.id)
    .where('subject_kind', '=', subject.kind)
    .where('subject_id', '=', subject.id);
  if (role === null) return Number((await match.executeTakeFirst()).numDeletedRows) > 0;
  const now = nowIso(ctx);
  await ctx.db
    .insertInto('content_permissions')
    .values({
      id: ctx.ids.next(),
      organization_id: content.organizationId,
      resource_kind: content.kind,
      resource_id: content.id,
      subject_kind: subject.kind,
      subject_id: subject.id,
      role,
      created_at: now,
      updated_at: now,
    })
    .onConflict((oc) => oc.columns(['resource_kind', 'resource_id', 'subject_kind', 'subject_id']).doUpdateSet({ role, updated_at: now }))
    .execute();
  return false;
}

/** Sets (or, with null, removes) the role of one user or team on a space or collection (administrators of the content). */
export async function updatePermission(ctx: Context, kind: ContentKind, id: string, subject: Subject, role: MemberRoleOrGuest): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const content = await sharedContent(tx, kind, id, 'share');
    await checkSubject(tx, content.organizationId, subject);
    await writeGrant(tx, content, subject, role);
  });
}

/** Takes away the role given to a user or team on a space or collection; false when there was none. */
export async function removePermission(ctx: Context, kind: ContentKind, id: string, subject: Subject): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const content = await sharedContent(tx, kind, id, 'share');
    return writeGrant(tx, content, subject, null);
  });
}

/** Shares a space or collection with users and teams at once, all or nothing: every one must be of the organization. */
export async function invite(ctx: Context, kind: ContentKind, id: string, body: InviteBody): Promise<void> {
  if (!body.users && !body.teams) throw new BadRequest('The body needs a member "users" or "teams": the ids of who to share the content with.');
  const subjects: Subject[] = [...new Set(body.users ?? [])].map((user) => ({ kind: 'user' as const, id: user }));
  subjects.push(...[...new Set(body.teams ?? [])].map((team) => ({ kind: 'team' as const, id: team })));
  await inTransaction(ctx, async (tx) => {
    const content = await sharedContent(tx, kind, id, 'share');
    for (const subject of subjects) await checkSubject(tx, content.organizationId, subject);
    for (const subject of subjects) await writeGrant(tx, content, subject, body.role);
  });
}
