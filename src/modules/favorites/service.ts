import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { findSpaceAccess } from '../../access/spaces.ts';
import { BadRequest } from '../../errors.ts';
import { allows } from '../../policy/index.ts';
import { getSpace } from '../spaces/service.ts';
import type { SpaceView } from '../spaces/views.ts';

/**
 * Favourite spaces (Quire's own; GitBook's API has none): a person stars a space they may read and their
 * home lists it in every browser. The star is the person's own row; whether the space is shown is decided
 * again at each read by the one access layer, so a space the person can no longer read drops out of the
 * list (its row is kept: it shows again if access comes back) and is never revealed.
 */

/** How many spaces one person may star: the list is read whole, each space checked for access. */
export const MAX_FAVORITES = 200;

/** The caller's favourite spaces they may still read, the most recently starred first. */
export async function listFavoriteSpaces(ctx: Context): Promise<SpaceView[]> {
  const actor = requireActor(ctx);
  const rows = await ctx.db
    .selectFrom('favorite_spaces')
    .select(['space_id'])
    .where('user_id', '=', actor.userId)
    .orderBy('created_at', 'desc')
    .orderBy('space_id')
    .limit(MAX_FAVORITES)
    .execute();
  const views = await Promise.all(rows.map((row) => findSpaceAccess(ctx, row.space_id)));
  return views.filter((view): view is SpaceView => view !== null && allows(ctx, 'space.view', view.actor));
}

/** Stars a space the caller may read (404 otherwise, as everywhere); starring it again changes nothing. */
export async function addFavoriteSpace(ctx: Context, spaceId: string): Promise<SpaceView> {
  const actor = requireActor(ctx);
  const view = await getSpace(ctx, spaceId);
  await inTransaction(ctx, async (tx) => {
    const existing = await tx.db.selectFrom('favorite_spaces').select('space_id').where('user_id', '=', actor.userId).where('space_id', '=', spaceId).executeTakeFirst();
    if (existing) return;
    const { count } = await tx.db.selectFrom('favorite_spaces').select((eb) => eb.fn.countAll<number | string>().as('count')).where('user_id', '=', actor.userId).executeTakeFirstOrThrow();
    if (Number(count) >= MAX_FAVORITES) {
      throw new BadRequest(`You have starred ${MAX_FAVORITES} spaces, the most Quire keeps: remove a star (DELETE /v1/user/favorites/spaces/{spaceId}) before adding another.`);
    }
    await tx.db
      .insertInto('favorite_spaces')
      .values({ user_id: actor.userId, space_id: spaceId, created_at: nowIso(tx) })
      .onConflict((oc) => oc.columns(['user_id', 'space_id']).doNothing())
      .execute();
  });
  return view;
}

/**
 * Removes the caller's star from a space; true when there was one. It needs no access to the space: a star on
 * a space one can no longer read can still be taken away.
 */
export async function removeFavoriteSpace(ctx: Context, spaceId: string): Promise<boolean> {
  const actor = requireActor(ctx);
  const result = await ctx.db.deleteFrom('favorite_spaces').where('user_id', '=', actor.userId).where('space_id', '=', spaceId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}
