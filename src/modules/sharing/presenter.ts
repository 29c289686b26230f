import type { Context } from '../../context.ts';
import { presentTeam } from '../teams/presenter.ts';
import { presentUser } from '../users/presenter.ts';
import type { TeamPermission, UserPermission } from './schemas.ts';
import type { TeamPermissionView, UserPermissionView } from './service.ts';

export function presentUserPermission(ctx: Pick<Context, 'config'>, view: UserPermissionView): UserPermission {
  return { permission: view.permission, user: presentUser(ctx, view.user) };
}

export function presentTeamPermission(ctx: Pick<Context, 'config'>, view: TeamPermissionView): TeamPermission {
  return { permission: view.permission, team: presentTeam(ctx, view.team) };
}
