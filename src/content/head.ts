import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import { lockRows } from '../db/locks.ts';
import { NotFound } from '../errors.ts';

/**
 * The head of a space: which revision is its current content. This module is the only writer of
 * `spaces.revision_id` after a space is created, and every write emits `space-content-changed` (src/events.ts)
 * in the caller's transaction, so what follows the current content (search, and whatever else subscribed)
 * learns of it without this module knowing who listens.
 */

export interface SetHeadOptions {
  /**
   * Move the space only if its current revision is still this one (an optimistic check, for writers that
   * built the new revision over it outside the transaction, such as merges).
   */
  expected?: string;
}

/**
 * Makes a revision the current content of a space, in the caller's transaction. Answers false, changing
 * nothing, when `expected` is given and the space has moved on.
 */
export async function setSpaceHead(ctx: Context, spaceId: string, revisionId: string, options: SetHeadOptions = {}): Promise<boolean> {
  const previous = options.expected ?? (await ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).executeTakeFirst())?.revision_id ?? null;
  const result = await ctx.db
    .updateTable('spaces')
    .set({ revision_id: revisionId, updated_at: nowIso(ctx) })
    .where('id', '=', spaceId)
    // A space in the trash keeps the content it had when it was deleted (restoring it gives that back).
    .where('deleted_at', 'is', null)
    .$if(options.expected !== undefined, (q) => q.where('revision_id', '=', options.expected!))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await ctx.events.emit(ctx, 'space-content-changed', { spaceId, revisionId, previousRevisionId: previous });
  return true;
}

/**
 * Tells the subscribers that a space was created holding content (a duplicate): its row was inserted with
 * that head, in the caller's transaction.
 */
export async function announceNewSpaceHead(ctx: Context, spaceId: string, revisionId: string): Promise<void> {
  await ctx.events.emit(ctx, 'space-content-changed', { spaceId, revisionId, previousRevisionId: null });
}

/**
 * The space's current revision, its row locked until the transaction ends on PostgreSQL, so two writers
 * cannot both build on the same head (SQLite runs one write transaction at a time already). The lock is
 * FOR NO KEY UPDATE, what moving the head takes anyway: it queues the other writers of the head but not
 * the inserts that only reference the space (comments, revisions, change requests hold a key-share lock on
 * its row until they commit). FOR UPDATE would wait for those, and a merge that holds its change request's
 * row while a comment on that change request holds the space's key-share lock deadlocked (40P01).
 * A space deleted meanwhile is not found: a write that waited for the deletion does not land in the trash.
 */
export async function lockSpaceHead(ctx: Context, spaceId: string): Promise<string> {
  const query = ctx.db.selectFrom('spaces').select('revision_id').where('id', '=', spaceId).where('deleted_at', 'is', null);
  const row = await lockRows(query, ctx.dialect, { mode: 'no-key-update' }).executeTakeFirst();
  if (!row) throw new NotFound(`No space "${spaceId}" exists that you can read.`);
  return row.revision_id;
}
