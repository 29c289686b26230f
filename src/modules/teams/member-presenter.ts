import type { Context } from '../../context.ts';
import type { OrganizationActor } from '../../policy/index.ts';
import { organizationRules } from '../../policy/organization.ts';
import type { TeamRole } from '../../policy/roles.ts';
import { presentMember, type MemberView } from '../members/presenter.ts';
import type { TeamMemberItem } from './member-schemas.ts';

/** A user in a team as services load it: their organization membership, their team role, and who is looking. */
export interface TeamMemberView {
  member: MemberView;
  role: TeamRole;
  viewer: OrganizationActor;
}

export function presentTeamMember(ctx: Pick<Context, 'config'>, view: TeamMemberView): TeamMemberItem {
  return {
    organization: presentMember(ctx, view.member),
    team: { role: view.role },
    // The same rule as reading that membership of the organization: members see everyone, a guest only themself.
    permissions: { view: organizationRules.viewMember(view.viewer, view.member.user.id) },
  };
}
