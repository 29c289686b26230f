import type { SpaceRow } from '../../access/spaces.ts';
import type { UserRow } from '../../db/rows.ts';
import type { ChangeRequestRow } from '../../access/change-requests.ts';

/** A change request as services hand it to the presenter: the row, its space (for `outdated`) and its creator. */
export interface ChangeRequestView {
  changeRequest: ChangeRequestRow;
  space: Pick<SpaceRow, 'id' | 'revision_id'>;
  createdBy: UserRow;
  /** What the caller may do with it, when the request has a caller who can see the space. */
  permissions?: { edit: boolean; review: boolean; merge: boolean };
}
