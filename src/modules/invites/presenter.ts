import { roleAtLeast, type MemberRoleOrGuest } from '../../policy/roles.ts';
import type { InviteLink, PendingInvitationView } from './schemas.ts';
import type { PendingInvitation } from './pending.ts';
import type { LinkInviteView } from './views.ts';



export function presentInviteLink(view: LinkInviteView): InviteLink {
  const role = view.invite.role as MemberRoleOrGuest;
  return {
    object: 'invite',
    id: view.invite.id,
    role,
    // The caller would gain nothing by following the link: their role already grants all it grants.
    redundant: roleAtLeast(view.actor.role, role),
  };
}

export function presentPendingInvitation(invitation: PendingInvitation): PendingInvitationView {
  return {
    object: 'invitation',
    id: invitation.id,
    organization: { id: invitation.organizationId, title: invitation.organizationTitle },
    role: invitation.role,
    expiresAt: invitation.expiresAt,
  };
}
