import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { TOUCH_RESOLUTION_MS } from './objects.ts';

type BlobContext = Pick<Context, 'db' | 'blobs' | 'clock'>;

/**
 * Records blobs as stored and in use now (`content_blobs`, touched when older than TOUCH_RESOLUTION_MS), in
 * the caller's transaction. The garbage collector deletes a blob's row and its bytes together, in one
 * transaction, and only when the row is untouched for its grace period; so bytes that exist after this
 * touch stay until the grace has passed (src/content/gc.ts).
 */
export async function touchBlobs(ctx: Pick<Context, 'db' | 'clock'>, blobs: Array<{ hash: string; size: number }>): Promise<void> {
  const now = ctx.clock.now();
  const touchedAt = now.toISOString();
  const stale = new Date(now.getTime() - TOUCH_RESOLUTION_MS).toISOString();
  const rows = [...new Map(blobs.map((blob) => [blob.hash, { hash: blob.hash, size: blob.size, created_at: touchedAt, touched_at: touchedAt }])).values()].sort((a, b) =>
    a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0,
  );
  // Touch first, then insert what is missing: the same protocol as putObjects (src/content/objects.ts).
  for (let i = 0; i < rows.length; i += 300) {
    const chunk = rows.slice(i, i + 300);
    await ctx.db
      .updateTable('content_blobs')
      .set({ touched_at: touchedAt })
      .where('hash', 'in', chunk.map((row) => row.hash))
      .where((eb) => eb.or([eb('touched_at', 'is', null), eb('touched_at', '<', stale)]))
      .execute();
    await ctx.db.insertInto('content_blobs').values(chunk).onConflict((oc) => oc.column('hash').doNothing()).execute();
  }
}

/**
 * Stores file bytes in blob storage (once per content: equal bytes are one blob) and records the blob;
 * returns its hash and size, ready for `RevisionWriter.addFile`. The row is touched before the bytes are
 * written (or found written), so a collection running meanwhile either removed them before (and the put
 * writes them again) or leaves them (see touchBlobs).
 */
export async function storeBlob(ctx: BlobContext, bytes: Buffer): Promise<{ blob: string; size: number }> {
  const hash = blobHash(bytes);
  await touchBlobs(ctx, [{ hash, size: bytes.length }]);
  const { size } = await ctx.blobs.put(bytes);
  return { blob: hash, size };
}

/**
 * For blobs put before they were recorded (an import collects its files first, then writes in one
 * transaction): touches them, then checks that their bytes are still there. A blob collected between the
 * put and the touch is an error (the import runs again), never a file that silently lost its bytes.
 */
export async function recordPutBlobs(ctx: BlobContext, blobs: Array<{ hash: string; size: number }>): Promise<void> {
  await touchBlobs(ctx, blobs);
  for (const hash of new Set(blobs.map((blob) => blob.hash))) {
    if (!(await ctx.blobs.has(hash))) throw new Error(`The bytes of blob ${hash} were collected while this write was prepared; run it again.`);
  }
}

export function blobHash(bytes: Buffer): string {
  return createHash('sha256').update(bytes).digest('hex');
}
