import type { Context } from '../../context.ts';
import { spaceLocation } from '../spaces/presenter.ts';
import type { SpaceRow } from '../../access/spaces.ts';
import { presentUser } from '../users/presenter.ts';
import type { ChangeRequestRow, ChangeRequestStatus } from '../../access/change-requests.ts';
import type { ChangeRequest } from './schemas.ts';
import type { ChangeRequestView } from './views.ts';


export function changeRequestLocation(ctx: Pick<Context, 'config'>, spaceId: string, changeRequestId: string): string {
  return `${spaceLocation(ctx, spaceId)}/change-requests/${changeRequestId}`;
}

/**
 * Whether the space's content moved past what the change request includes. A merged change request is
 * never outdated: there is nothing left to pull into it.
 */
export function isOutdated(changeRequest: Pick<ChangeRequestRow, 'status' | 'revision_merged_ancestor'>, space: Pick<SpaceRow, 'revision_id'>): boolean {
  return changeRequest.status !== 'merged' && changeRequest.revision_merged_ancestor !== space.revision_id;
}

/**
 * The API object of a change request. Quire has no separate editing app, so `urls.app` is the API address.
 * A change request created without a subject has the subject "".
 */
export function presentChangeRequest(ctx: Pick<Context, 'config'>, { changeRequest: cr, space, createdBy, permissions }: ChangeRequestView): ChangeRequest {
  const location = changeRequestLocation(ctx, space.id, cr.id);
  const presented: ChangeRequest = {
    object: 'change-request',
    id: cr.id,
    number: cr.number,
    status: cr.status as ChangeRequestStatus,
    subject: cr.subject ?? '',
    createdBy: presentUser(ctx, createdBy),
    createdAt: cr.created_at,
    updatedAt: cr.updated_at,
    revision: cr.revision,
    revisionInitial: cr.revision_initial,
    revisionMergedAncestor: cr.revision_merged_ancestor,
    comments: cr.comments,
    outdated: isOutdated(cr, space),
    urls: { location, app: location },
  };
  if (cr.revision_merged) presented.revisionMerged = cr.revision_merged;
  if (permissions) presented.permissions = permissions;
  return presented;
}
