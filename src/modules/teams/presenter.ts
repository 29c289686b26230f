import type { Context } from '../../context.ts';
import type { TeamActor } from '../../policy/index.ts';
import { teamPermissions } from '../../policy/team.ts';
import type { Team } from './schemas.ts';

/** A team as services load it: the row, its counts, and the caller's standing in it. */
export interface TeamView {
  id: string;
  title: string;
  createdAt: string;
  members: number;
  spaces: number;
  actor: TeamActor;
}

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
