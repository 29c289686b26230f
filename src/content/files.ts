import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';

/**
 * Stores file bytes in blob storage (once per content: equal bytes are one blob) and records the blob;
 * returns its hash and size, ready for `RevisionWriter.addFile`.
 */
export async function storeBlob(ctx: Pick<Context, 'db' | 'blobs' | 'clock'>, bytes: Buffer): Promise<{ blob: string; size: number }> {
  const { hash, size } = await ctx.blobs.put(bytes);
  await ctx.db
    .insertInto('content_blobs')
    .values({ hash, size, created_at: nowIso(ctx) })
    .onConflict((oc) => oc.column('hash').doNothing())
    .execute();
  return { blob: hash, size };
}
