import type { OrganizationActor } from '../../policy/index.ts';
import type { TeamRole } from '../../policy/roles.ts';
import type { MemberView } from '../members/views.ts';

/** A user in a team as services load it: their organization membership, their team role, and who is looking. */
export interface TeamMemberView {
  member: MemberView;
  role: TeamRole;
  viewer: OrganizationActor;
}
