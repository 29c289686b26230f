import type { Context } from '../../context.ts';
import { organizationRules } from '../../policy/organization.ts';
import { presentMember } from '../members/presenter.ts';
import type { TeamMemberItem } from './member-schemas.ts';
import type { TeamMemberView } from './views.ts';


export function presentTeamMember(ctx: Pick<Context, 'config'>, view: TeamMemberView): TeamMemberItem {
  return {
    organization: presentMember(ctx, view.member),
    team: { role: view.role },
    // The same rule as reading that membership of the organization: members see everyone, a guest only themself.
    permissions: { view: organizationRules.viewMember(view.viewer, view.member.user.id) },
  };
}
