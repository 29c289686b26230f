import type { Context } from '../context.ts';
import type { ChangeRequestRow, SpaceRow } from '../db/rows.ts';
import { lockRows } from '../db/locks.ts';
import { NotFound } from '../errors.ts';
import type { SpaceActor } from '../policy/space.ts';
import { spaceAccess } from './spaces.ts';

export type { ChangeRequestRow };

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

export interface ChangeRequestAccessOptions {
  /**
   * Hold the change request's row until the transaction ends (PostgreSQL), so that two writers to one change
   * request (imports, updates, merges, status changes) queue instead of building on the same head.
   */
  lock?: boolean;
}

export interface ChangeRequestAccess {
  space: SpaceRow;
  actor: SpaceActor;
  changeRequest: ChangeRequestRow;
}

/**
 * Loads a change request of a space, named by its id or by its number in the space, with the caller's
 * standing on the space. A change request of a space the caller cannot read is reported as missing, like
 * the space itself. The caller still has to authorize the action (space.view, space.edit, space.merge …).
 */
export async function changeRequestAccess(ctx: Context, spaceId: string, changeRequestId: string, options: ChangeRequestAccessOptions = {}): Promise<ChangeRequestAccess> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  const changeRequest = await ctx.db
    .selectFrom('change_requests')
    .selectAll()
    .where('space_id', '=', space.id)
    .where((eb) => (/^[1-9][0-9]{0,9}$/.test(changeRequestId) ? eb.or([eb('id', '=', changeRequestId), eb('number', '=', Number(changeRequestId))]) : eb('id', '=', changeRequestId)))
    // FOR NO KEY UPDATE: it queues the writers of the change request, not the comments, reviews and
    // contributors being inserted under it (see lockSpaceHead for the deadlock FOR UPDATE caused).
    .$call((q) => (options.lock ? lockRows(q, ctx.dialect, { mode: 'no-key-update' }) : q))
    .executeTakeFirst();
  if (!changeRequest) throw new NotFound(`Space "${space.id}" has no change request "${changeRequestId}".`);
  return { space, actor, changeRequest };
}
