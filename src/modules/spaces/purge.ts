import { sql } from 'kysely';
import { inTransaction } from '../../context.ts';
import { removeGrantsOn } from '../../access/grants.ts';
import { lockRows } from '../../db/locks.ts';
import { retentionEnd } from './retention.ts';
import type { JobContext, JobOutcome, JobRun } from '../../jobs/types.ts';
import type { PurgeCollectionPayload } from './purge-collection-job.ts';
import type { PurgeSpacePayload } from './purge-space-job.ts';

/**
 * The purge of the trash: spaces and collections deleted more than the retention (7 days) ago are removed
 * for good. Each deletion enqueues its purge, due when the retention ends; the handler re-checks everything
 * (a restored space is left alone; one deleted again later is purged at its new time), so a restore needs
 * no cooperation from the queue.
 *
 * What is removed: the rows of the space and of the collections, and with a space its change requests,
 * comments, replies and their reactions, and the grants on them (reactions name a comment or a reply without a foreign key, so they
 * are removed first; the rest goes by cascade). The space's revisions and the content
 * objects they point at stay here: objects are shared by content hash between revisions, duplicated spaces and
 * change requests, so they cannot be deleted with one space. The garbage collector (src/content/gc.ts) removes
 * them later, once nothing else reaches them.
 */

/** The handler of `purge-space`. */
export const runPurgeSpace: JobRun<PurgeSpacePayload> = (ctx, payload) =>
  inTransaction(ctx, async (tx): Promise<JobOutcome> => {
    // Locked until the purge commits, so a restore cannot slip in between the check and the removal.
    const read = tx.db.selectFrom('spaces').select(['id', 'deleted_at']).where('id', '=', payload.spaceId);
    const space = await lockRows(read, tx.dialect).executeTakeFirst();
    if (!space?.deleted_at) return; // purged already, or restored
    const end = retentionEnd(space.deleted_at);
    if (end > tx.clock.now()) return { rescheduleAt: end };
    await removeSpaces(tx, [space.id]);
  });

/** Removes spaces for good, their reactions first (the rest of their discussion goes by cascade). */
export async function removeSpaces(tx: JobContext, spaceIds: string[]): Promise<void> {
  if (spaceIds.length === 0) return;
  const comments = tx.db.selectFrom('comments').select('id').where('space_id', 'in', spaceIds);
  const replies = tx.db.selectFrom('comment_replies').select('comment_replies.id').where('comment_id', 'in', comments);
  await tx.db.deleteFrom('comment_reactions').where((eb) => eb.or([eb('subject_id', 'in', comments), eb('subject_id', 'in', replies)])).execute();
  await removeGrantsOn(tx, 'space', spaceIds);
  await tx.db.deleteFrom('spaces').where('id', 'in', spaceIds).execute();
}

/** A collection and every collection under it, with their deleted_at (the trash's restore uses it too). */
export async function subtree(ctx: Pick<JobContext, 'db'>, collectionId: string) {
  const result = await sql<{ id: string; deleted_at: string | null }>`
    with recursive tree(id, deleted_at, depth) as (
      select id, deleted_at, 0 from collections where id = ${collectionId}
      union all
      select c.id, c.deleted_at, tree.depth + 1 from collections c join tree on c.parent_id = tree.id where tree.depth < 64
    )
    select id, deleted_at from tree`.execute(ctx.db);
  return result.rows;
}

/**
 * Purges a deleted collection with everything under it: its collections and their spaces, which were
 * deleted with it (a space restored from it went back to the root, so it is no longer under it). Waits
 * until the latest of their retentions has passed; refuses (and retries, keeping the error) when something
 * under it is not in the trash, rather than remove live content.
 */
export const runPurgeCollection: JobRun<PurgeCollectionPayload> = (ctx, payload) =>
  inTransaction(ctx, async (tx): Promise<JobOutcome> => {
    const collections = await subtree(tx, payload.collectionId);
    const top = collections[0];
    if (!top?.deleted_at) return; // purged already
    const ids = collections.map((c) => c.id);
    // The collections before their spaces (the global lock order, docs/architecture.md "Lock order").
    await lockRows(tx.db.selectFrom('collections').select('id').where('id', 'in', ids), tx.dialect).execute();
    const read = tx.db.selectFrom('spaces').select(['id', 'deleted_at']).where('collection_id', 'in', ids);
    const spaces = await lockRows(read, tx.dialect).execute();
    const items = [...collections, ...spaces];
    const live = items.filter((item) => !item.deleted_at);
    if (live.length > 0) {
      throw new Error(`Collection "${top.id}" is in the trash but holds content that is not: ${live.map((item) => `"${item.id}"`).join(', ')}. Nothing was purged.`);
    }
    const end = new Date(Math.max(...items.map((item) => retentionEnd(item.deleted_at!).getTime())));
    if (end > tx.clock.now()) return { rescheduleAt: end };
    await removeSpaces(tx, spaces.map((space) => space.id));
    await removeGrantsOn(tx, 'collection', ids);
    await tx.db.deleteFrom('collections').where('id', 'in', ids).execute();
  });
