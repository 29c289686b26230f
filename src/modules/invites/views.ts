import type { OrganizationActor } from '../../policy/index.ts';
import type { LinkInviteRow } from '../../db/rows.ts';

/** An invite link as services load it: the row and the caller's standing in its organization. */
export interface LinkInviteView {
  invite: LinkInviteRow;
  actor: OrganizationActor;
}
