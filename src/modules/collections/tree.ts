import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { purgeCollectionJob } from '../spaces/purge-collection-job.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { endPosition, placeIn } from '../spaces/positions.ts';
import { retentionEnd } from '../spaces/retention.ts';
import type { MoveBody, TransferBody } from '../spaces/schemas.ts';
import { schedulePurge } from '../spaces/trash.ts';
import { collectionAccess, findCollectionAccess, lockCollections, parentCollection } from '../../access/collections.ts';
import type { CollectionView } from './views.ts';

/** Collections nest at most this deep (a collection at the root is at depth 1). */
export const MAX_COLLECTION_DEPTH = 16;

/** A collection and every collection under it (in the trash or not), with their depth below it (0 for itself). */
export async function collectionSubtree(ctx: Context, collectionId: string): Promise<Array<{ id: string; depth: number }>> {
  const result = await sql<{ id: string; depth: number }>`
    with recursive tree(id, depth) as (
      select id, 0 from collections where id = ${collectionId}
      union all
      select c.id, tree.depth + 1 from collections c join tree on c.parent_id = tree.id where tree.depth < 64
    )
    select id, depth from tree`.execute(ctx.db);
  return result.rows.map((row) => ({ id: row.id, depth: Number(row.depth) }));
}

/**
 * The ids of a collection's subtree, locked against changes until the transaction ends (PostgreSQL): read,
 * lock, and read again until no collection was added under it while waiting for the locks.
 */
async function lockedSubtree(ctx: Context, collectionId: string): Promise<string[]> {
  let ids = (await collectionSubtree(ctx, collectionId)).map((c) => c.id);
  for (;;) {
    await lockCollections(ctx, ids, 'update');
    const again = (await collectionSubtree(ctx, collectionId)).map((c) => c.id);
    if (again.length === ids.length && again.every((id) => ids.includes(id))) return ids;
    ids = again;
  }
}

/** How deep a collection is: 1 at the root of the organization. */
async function depthOf(ctx: Context, collectionId: string): Promise<number> {
  const result = await sql<{ n: number }>`
    with recursive chain(id, parent_id, depth) as (
      select id, parent_id, 1 from collections where id = ${collectionId}
      union all
      select c.id, c.parent_id, chain.depth + 1 from collections c join chain on c.id = chain.parent_id where chain.depth < 64
    )
    select max(depth) as n from chain`.execute(ctx.db);
  return Number(result.rows[0]?.n ?? 0);
}

/** Refuses to put `height` levels of collections under `parentId` when that would nest them too deep. */
export async function checkDepth(ctx: Context, parentId: string, height: number): Promise<void> {
  if ((await depthOf(ctx, parentId)) + height > MAX_COLLECTION_DEPTH) {
    throw new BadRequest(`The body member "parent" names collection "${parentId}", which is too deep: collections nest at most ${MAX_COLLECTION_DEPTH} levels.`);
  }
}

/**
 * Moves a collection and everything in it to the trash (administrators): the collection, the collections
 * under it and their spaces get the same `deletedAt`, and their purges are enqueued for when the 7 days end.
 * Nothing is lost silently: each space can be restored for 7 days (it comes back at the root of the
 * organization, since its collection stays in the trash). False when there was no such collection.
 */
export async function deleteCollection(ctx: Context, collectionId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const access = await findCollectionAccess(tx, collectionId);
    authorize(tx, 'collection.delete', access?.actor ?? null);
    if (!access) return false;
    const now = nowIso(tx);
    const ids = await lockedSubtree(tx, access.collection.id);
    const spaces = await tx.db.selectFrom('spaces').select('id').where('collection_id', 'in', ids).where('deleted_at', 'is', null).execute();
    await tx.db.updateTable('collections').set({ deleted_at: now }).where('id', 'in', ids).where('deleted_at', 'is', null).execute();
    if (spaces.length > 0) {
      await tx.db.updateTable('spaces').set({ deleted_at: now }).where('id', 'in', spaces.map((s) => s.id)).execute();
      for (const space of spaces) await schedulePurge(tx, space.id, now);
    }
    await enqueue(tx, purgeCollectionJob, { collectionId: access.collection.id }, { runAt: retentionEnd(now) });
    return true;
  });
}

/**
 * Moves a collection (with everything in it) into another collection, to the root (`parent: null`), or
 * among its siblings (`position`), at the end when no position is given. A collection cannot move into
 * itself or one of its own collections (400); 409 when it is already exactly there.
 */
export async function moveCollection(ctx: Context, collectionId: string, body: MoveBody): Promise<CollectionView> {
  return inTransaction(ctx, async (tx) => {
    const { collection, actor } = await collectionAccess(tx, collectionId);
    authorize(tx, 'collection.admin', actor);
    const parentId = body.parent === undefined ? collection.parent_id : body.parent;
    if (parentId !== null && parentId !== collection.parent_id) {
      const subtree = await collectionSubtree(tx, collection.id);
      if (subtree.some((c) => c.id === parentId)) {
        throw new BadRequest(
          parentId === collection.id
            ? `The body member "parent" names collection "${parentId}" itself: a collection cannot move into itself.`
            : `The body member "parent" names collection "${parentId}", which is inside collection "${collection.id}": a collection cannot move into one of its own collections.`,
        );
      }
      const parent = await parentCollection(tx, collection.organization_id, parentId);
      authorize(tx, 'collection.create', parent.actor);
      await checkDepth(tx, parentId, 1 + Math.max(...subtree.map((c) => c.depth)));
    }
    const placement = await placeIn(tx, collection.organization_id, parentId, { type: 'collection', id: collection.id }, body.position);
    if (placement.unchanged) throw new Conflict(`Collection "${collection.id}" is already there: the move would change nothing.`);
    await tx.db
      .updateTable('collections')
      .set({ parent_id: parentId, position: placement.position, updated_at: nowIso(tx) })
      .where('id', '=', collection.id)
      .execute();
    return collectionAccess(tx, collection.id);
  });
}

/**
 * Moves a collection with everything in it (its collections and their spaces, those in the trash included)
 * to another organization, at the end of its root. The caller must administer the collection and the
 * target organization. 409 when it is already there.
 */
export async function transferCollection(ctx: Context, collectionId: string, body: TransferBody): Promise<CollectionView> {
  return inTransaction(ctx, async (tx) => {
    const { collection, actor } = await collectionAccess(tx, collectionId);
    authorize(tx, 'collection.admin', actor);
    if (body.organization === collection.organization_id) {
      throw new Conflict(`Collection "${collection.id}" already belongs to organization "${body.organization}": the transfer would change nothing.`);
    }
    const target = await organizationAccess(tx, body.organization);
    authorize(tx, 'content.transferIn', target.actor);
    const ids = await lockedSubtree(tx, collection.id);
    const now = nowIso(tx);
    const position = await endPosition(tx, target.organization.id, null);
    await tx.db.updateTable('collections').set({ organization_id: target.organization.id }).where('id', 'in', ids).execute();
    await tx.db.updateTable('collections').set({ parent_id: null, position, updated_at: now }).where('id', '=', collection.id).execute();
    await tx.db.updateTable('spaces').set({ organization_id: target.organization.id }).where('collection_id', 'in', ids).execute();
    return collectionAccess(tx, collection.id);
  });
}
