import * as Y from 'yjs';
import type { Context } from '../context.ts';
import { parseLiveName } from './names.ts';
import { writeLive, type WriteLog } from './writer.ts';

/**
 * The live edits of a change request that are stored but not yet written to it: the live server writes a
 * page QUIRE_LIVE_IDLE_MS after its last keystroke (QUIRE_LIVE_MAX_WAIT_MS at most), and a merge in that window
 * would leave them out of the space for good (the change request is merged; they can no longer be written).
 * Written now, before the merge reads the change request, from the database alone (whichever process holds
 * the pages open): each page with stored updates is read into a new document and written by the live writer,
 * as the person who typed last (whose access the writer checks again). Edits stored after this and before the
 * merge commits are refused with the merge's reason, as any edit of a merged change request is.
 */
export async function writePendingLive(ctx: Context, spaceId: string, changeRequestId: string, log: WriteLog): Promise<number> {
  const pending = await ctx.db
    .selectFrom('live_documents')
    .select('name')
    .where('space_id', '=', spaceId)
    .where('change_request_id', '=', changeRequestId)
    .where((eb) => eb.exists(eb.selectFrom('live_updates').select('live_updates.id').whereRef('live_updates.document', '=', 'live_documents.name')))
    .execute();
  for (const { name } of pending) {
    const doc = new Y.Doc();
    try {
      await writeLive(ctx, parseLiveName(name), doc, undefined, log);
    } finally {
      doc.destroy();
    }
  }
  return pending.length;
}
