import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import { spaceContentChanged } from '../search/changes.ts';

/**
 * Makes a revision the current content of a space, in the caller's transaction, and tells what follows
 * the current content (the search index) that it changed. Every write of a space's current revision goes
 * through here.
 */
export async function setCurrentRevision(ctx: Context, spaceId: string, revisionId: string): Promise<void> {
  await ctx.db.updateTable('spaces').set({ revision_id: revisionId, updated_at: nowIso(ctx) }).where('id', '=', spaceId).execute();
  await spaceContentChanged(ctx, spaceId);
}
