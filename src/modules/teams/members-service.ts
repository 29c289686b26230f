import { sql, type RawBuilder } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { NotFound } from '../../errors.ts';
import { after, paginate, type Page, type PageRequest } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import type { MemberRoleOrGuest, TeamRole } from '../../policy/roles.ts';
import { teamAccess } from '../../access/teams.ts';
import type { TeamMemberView } from './views.ts';
import type { PutTeamMemberBody } from './schemas.ts';

/**
 * How many spaces a member was given access to directly, as an SQL expression over the outer `users` row.
 * Spaces do not exist yet, so it is always 0; the spaces area replaces it.
 */
export function memberSpaceCount(): RawBuilder<number> {
  return sql<number>`0`;
}

/** The members of a team, in the order they were added (then by user id). */
export async function listTeamMembers(ctx: Context, organizationId: string, teamId: string, request: PageRequest): Promise<Page<TeamMemberView>> {
  const { organizationId: orgId, team, actor } = await teamAccess(ctx, organizationId, teamId);
  authorize(ctx, 'team.view', actor);
  const base = ctx.db
    .selectFrom('team_members as tm')
    .innerJoin('members as m', (join) => join.onRef('m.user_id', '=', 'tm.user_id').on('m.organization_id', '=', orgId))
    .innerJoin('users', 'users.id', 'tm.user_id')
    .where('tm.team_id', '=', team.id);
  const page = await paginate({
    signer: ctx.cursors,
    scope: `team-members:${team.id}`,
    request,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .select(['users.id', 'users.email', 'users.display_name', 'users.photo_url'])
        .select(['m.role as member_role', 'm.disabled', 'm.sso', 'm.joined_at', 'm.last_seen_at', 'tm.role as team_role', 'tm.added_at', 'tm.user_id'])
        .select(
          sql<number>`(select count(*) from team_members mt join teams t on t.id = mt.team_id where mt.user_id = users.id and t.organization_id = ${orgId})`.as('team_count'),
        )
        .select(memberSpaceCount().as('space_count'))
        .$if(cursor !== undefined, (q) => q.where(after('tm.added_at', 'tm.user_id', 'asc', cursor!)))
        .orderBy('tm.added_at', 'asc')
        .orderBy('tm.user_id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [row.added_at, row.user_id],
  });
  return {
    ...page,
    items: page.items.map((row) => ({
      member: {
        user: { id: row.id, email: row.email, display_name: row.display_name, photo_url: row.photo_url },
        role: row.member_role as MemberRoleOrGuest,
        disabled: row.disabled === 1,
        sso: row.sso === 1,
        joinedAt: row.joined_at,
        lastSeenAt: row.last_seen_at,
        spaces: Number(row.space_count),
        teams: Number(row.team_count),
      },
      role: row.team_role as TeamRole,
      viewer: actor,
    })),
  };
}

/** Adds a user who is a member or guest of the organization to a team, or changes their role in it. */
export async function putTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string, body: PutTeamMemberBody): Promise<void> {
  await inTransaction(ctx, async (tx) => {
    const { organizationId: orgId, team, actor } = await teamAccess(tx, organizationId, teamId);
    authorize(tx, 'team.manage', actor);
    const member = await tx.db.selectFrom('members').select('user_id').where('organization_id', '=', orgId).where('user_id', '=', userId).executeTakeFirst();
    if (!member) {
      throw new NotFound(`No user "${userId}" is a member or guest of this organization; only they can join its teams.`);
    }
    await tx.db
      .insertInto('team_members')
      .values({ team_id: team.id, user_id: userId, role: body.role ?? 'member', added_at: nowIso(tx) })
      .onConflict((oc) => {
        const target = oc.columns(['team_id', 'user_id']);
        return body.role === undefined ? target.doNothing() : target.doUpdateSet({ role: body.role });
      })
      .execute();
  });
}

/** Removes a user from a team. True when they were in it. */
export async function removeTeamMember(ctx: Context, organizationId: string, teamId: string, userId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { team, actor } = await teamAccess(tx, organizationId, teamId);
    authorize(tx, 'team.removeMember', actor, userId);
    const result = await tx.db.deleteFrom('team_members').where('team_id', '=', team.id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}
