import type { Context } from '../../context.ts';
import { teamPermissions } from '../../policy/team.ts';
import type { TeamView } from '../../access/teams.ts';
import type { MemberTeamView } from './member-teams.ts';
import type { MemberTeam, Team } from './schemas.ts';


export function presentTeam(_ctx: Pick<Context, 'config'>, view: TeamView): Team {
  return {
    object: 'team',
    id: view.id,
    title: view.title,
    members: view.members,
    spaces: view.spaces,
    createdAt: view.createdAt,
    permissions: teamPermissions(view.actor),
  };
}

/** A team of a member, with the member's role in that team. */
export function presentMemberTeam(ctx: Pick<Context, 'config'>, view: MemberTeamView): MemberTeam {
  return { team: presentTeam(ctx, view.team), member: { role: view.role } };
}
