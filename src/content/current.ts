import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import { spaceContentChanged } from '../search/changes.ts';

export interface SetCurrentOptions {
  /**
   * Move the space only if its current revision is still this one (an optimistic check, for writers that
   * built the new revision over it outside the transaction, such as merges).
   */
  expected?: string;
}

/**
 * Makes a revision the current content of a space, in the caller's transaction, and tells what follows
 * the current content (the search index) that it changed. Every write of a space's current revision goes
 * through here. Answers false, changing nothing, when `expected` is given and the space has moved on.
 */
export async function setCurrentRevision(ctx: Context, spaceId: string, revisionId: string, options: SetCurrentOptions = {}): Promise<boolean> {
  const result = await ctx.db
    .updateTable('spaces')
    .set({ revision_id: revisionId, updated_at: nowIso(ctx) })
    .where('id', '=', spaceId)
    .$if(options.expected !== undefined, (q) => q.where('revision_id', '=', options.expected!))
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) return false;
  await spaceContentChanged(ctx, spaceId);
  return true;
}
