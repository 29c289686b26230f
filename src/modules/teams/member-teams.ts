import type { Context } from '../../context.ts';
import type { Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import type { TeamRole } from '../../policy/roles.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { pageOfTeams, teamViewQuery, toTeamView, type TeamView } from '../../access/teams.ts';
import { containsText, requireMember } from '../members/queries.ts';
import type { ListMemberTeamsQuery } from '../members/schemas.ts';

/** A team a member belongs to, with the member's role in it. */
export interface MemberTeamView {
  team: TeamView;
  role: TeamRole;
}

/**
 * The teams of the organization that a member belongs to, oldest first. Members see anyone's teams; a
 * guest only their own. Each team carries the caller's own permissions on it (their team role counts).
 */
export async function listMemberTeams(ctx: Context, organizationId: string, userId: string, query: ListMemberTeamsQuery): Promise<Page<MemberTeamView>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'members.teams', actor, userId);
  await requireMember(ctx, organization.id, userId);
  const base = teamViewQuery(ctx, organization.id, actor.userId)
    .innerJoin('team_members as theirs', (join) => join.onRef('theirs.team_id', '=', 'teams.id').on('theirs.user_id', '=', userId))
    .select('theirs.role as member_role')
    .$if(Boolean(query.title), (q) => q.where(containsText('teams.title', query.title!)));
  const page = await pageOfTeams(ctx, base, `member-teams:${organization.id}:${userId}:${JSON.stringify(query.title ?? '')}`, query);
  return { ...page, items: page.items.map((row) => ({ role: row.member_role as TeamRole, team: toTeamView(row, actor) })) };
}
