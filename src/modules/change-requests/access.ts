import type { Selectable } from 'kysely';
import type { Context } from '../../context.ts';
import type { ChangeRequestsTable } from '../../db/types.ts';
import { NotFound } from '../../errors.ts';
import type { SpaceActor } from '../../policy/space.ts';
import { spaceAccess, type SpaceRow } from '../spaces/access.ts';

export type ChangeRequestRow = Selectable<ChangeRequestsTable>;

export const CHANGE_REQUEST_STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
export type ChangeRequestStatus = (typeof CHANGE_REQUEST_STATUSES)[number];

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
export async function changeRequestAccess(ctx: Context, spaceId: string, changeRequestId: string): Promise<ChangeRequestAccess> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  const changeRequest = await ctx.db
    .selectFrom('change_requests')
    .selectAll()
    .where('space_id', '=', space.id)
    .where((eb) => (/^[1-9][0-9]{0,9}$/.test(changeRequestId) ? eb.or([eb('id', '=', changeRequestId), eb('number', '=', Number(changeRequestId))]) : eb('id', '=', changeRequestId)))
    .executeTakeFirst();
  if (!changeRequest) throw new NotFound(`Space "${space.id}" has no change request "${changeRequestId}".`);
  return { space, actor, changeRequest };
}
