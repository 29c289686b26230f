import type { Context } from '../../context.ts';
import { presentUser } from '../users/presenter.ts';
import type { Member } from './schemas.ts';
import type { MemberView } from './views.ts';


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

