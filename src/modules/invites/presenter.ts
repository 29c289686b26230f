import type { LinkInvitesTable } from '../../db/tables/people.ts';
import type { OrganizationActor } from '../../policy/index.ts';
import { roleAtLeast, type MemberRoleOrGuest } from '../../policy/roles.ts';
import type { InviteLink } from './schemas.ts';

export type LinkInviteRow = LinkInvitesTable;

/** An invite link as services load it: the row and the caller's standing in its organization. */
export interface LinkInviteView {
  invite: LinkInviteRow;
  actor: OrganizationActor;
}

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
