import type { Updateable } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import type { SpacesTable } from '../../db/tables/content.ts';
import { Conflict, Gone, NotFound } from '../../errors.ts';
import { cancelPending, enqueue } from '../../jobs/queue.ts';
import { purgeSpaceJob, purgeSpaceKey } from './purge-space-job.ts';
import { authorize } from '../../policy/index.ts';
import { findSpaceAccess, spaceAccess } from '../../access/spaces.ts';
import { endPosition } from './positions.ts';
import type { SpaceView } from './views.ts';
import { retentionEnd, TRASH_RETENTION_DAYS } from './retention.ts';
import { visibilityOutsideCollections } from './service.ts';

/**
 * The trash. Deleting a space sets its `deletedAt`: it leaves every list and read, and can be restored for
 * 7 days; its purge is enqueued in the same transaction, due when the 7 days end.
 */

/** Enqueues the purge of a space deleted at `deletedAt` (one pending purge per space). */
export async function schedulePurge(ctx: Context, spaceId: string, deletedAt: string): Promise<void> {
  await enqueue(ctx, purgeSpaceJob, { spaceId }, { runAt: retentionEnd(deletedAt) });
}

/**
 * Moves a space to the trash (administrators of the space). True when it did; false when there was no
 * live space by that id that the caller can see — missing, already deleted or hidden alike.
 */
export async function deleteSpace(ctx: Context, spaceId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const access = await findSpaceAccess(tx, spaceId);
    authorize(tx, 'space.delete', access?.actor ?? null);
    if (!access) return false;
    const now = nowIso(tx);
    await tx.db.updateTable('spaces').set({ deleted_at: now }).where('id', '=', access.space.id).execute();
    await schedulePurge(tx, access.space.id, now);
    const { space, actor } = access;
    await tx.events.emit(tx, 'space.deleted', { organizationId: space.organization_id, actorId: actor.userId, spaceId: space.id, title: space.title });
    return true;
  });
}

/**
 * Takes a space out of the trash (administrators of the space), within the 7 days. A space whose collection
 * is itself in the trash (or gone) comes back at the end of the root of its organization; 'in-collection'
 * then becomes 'private'. Its pending purge is dropped.
 */
export async function restoreSpace(ctx: Context, spaceId: string): Promise<SpaceView> {
  return inTransaction(ctx, async (tx) => {
    const access = await findSpaceAccess(tx, spaceId, { includeDeleted: true });
    if (!access) {
      throw new NotFound(
        `No space "${spaceId}" exists that you can restore. Deleted spaces can be restored for ${TRASH_RETENTION_DAYS} days; after that they are removed for good.`,
      );
    }
    const { space, actor } = access;
    authorize(tx, 'space.admin', actor);
    if (!space.deleted_at) throw new Conflict(`Space "${space.id}" is not in the trash: there is nothing to restore.`);
    const end = retentionEnd(space.deleted_at);
    if (end <= tx.clock.now()) {
      throw new Gone(
        `Space "${space.id}" was deleted on ${space.deleted_at}. Deleted spaces can be restored for ${TRASH_RETENTION_DAYS} days, and that period ended on ${end.toISOString()}: it can no longer be restored.`,
      );
    }
    const changes: Updateable<SpacesTable> = { deleted_at: null, updated_at: nowIso(tx) };
    if (space.collection_id) {
      const collection = await tx.db.selectFrom('collections').select('deleted_at').where('id', '=', space.collection_id).executeTakeFirst();
      if (!collection || collection.deleted_at) {
        changes.collection_id = null;
        changes.position = await endPosition(tx, space.organization_id, null);
        changes.visibility = visibilityOutsideCollections(space.visibility);
      }
    }
    await tx.db.updateTable('spaces').set(changes).where('id', '=', space.id).execute();
    await cancelPending(tx, purgeSpaceKey(space.id));
    return spaceAccess(tx, space.id);
  });
}
