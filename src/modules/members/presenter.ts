import type { Context } from '../../context.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import { presentTeam } from '../teams/presenter.ts';
import { presentUser, type UserRow } from '../users/presenter.ts';
import type { Member, MemberTeam } from './schemas.ts';
import type { MemberTeamView } from './teams.ts';

/** A membership as services load it: the user, the membership row, and its counts. */
export interface MemberView {
  user: UserRow;
  role: MemberRoleOrGuest;
  disabled: boolean;
  sso: boolean;
  joinedAt: string;
  lastSeenAt: string | null;
  spaces: number;
  teams: number;
}

export function presentMember(ctx: Pick<Context, 'config'>, view: MemberView): Member {
  const member: Member = {
    object: 'member',
    id: view.user.id,
    role: view.role,
    user: presentUser(ctx, view.user),
    disabled: view.disabled,
    joinedAt: view.joinedAt,
    sso: view.sso,
    spaces: view.spaces,
    teams: view.teams,
  };
  if (view.lastSeenAt) member.lastSeenAt = view.lastSeenAt;
  return member;
}

/** A team of a member, with the member's role in that team. */
export function presentMemberTeam(ctx: Pick<Context, 'config'>, view: MemberTeamView): MemberTeam {
  return { team: presentTeam(ctx, view.team), member: { role: view.role } };
}
