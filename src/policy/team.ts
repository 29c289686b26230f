import type { OrganizationActor } from './organization.ts';
import type { TeamRole } from './roles.ts';

/** The caller inside one team: their organization standing plus their role in the team, if any. */
export interface TeamActor extends OrganizationActor {
  teamRole: TeamRole | null;
}

export const teamRules = {
  view: (a: TeamActor) => a.role !== null || a.teamRole !== null,
  /** Rename the team and change its members: organization admins and team owners. */
  manage: (a: TeamActor) => a.role === 'admin' || a.teamRole === 'owner',
  /** Create and delete teams: organization admins. */
  administer: (a: OrganizationActor) => a.role === 'admin',
  /** Leaving a team is always allowed. */
  removeMember: (a: TeamActor, userId: string) => teamRules.manage(a) || a.userId === userId,
};

export function teamPermissions(a: TeamActor): { admin: boolean; view: boolean } {
  return { admin: teamRules.manage(a), view: teamRules.view(a) };
}
