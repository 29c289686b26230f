import type { Context } from '../../context.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import { presentUser, type UserRow } from '../users/presenter.ts';
import type { Member } from './schemas.ts';

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

