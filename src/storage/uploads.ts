import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';

/**
 * Files uploaded through a signed storage address (the client's `generateStorageUploadURL`): the rows of
 * `storage_uploads` as the content collector sees them. A custom font names an upload by its key in its
 * faces (`custom_fonts.faces`, `storageKey`); an upload nothing names is kept for the grace period (the
 * uploader is between the upload and `createCustomFont`), then its row goes and its blob with it.
 */

/** Keys look like `font-<id>.woff2`: only these characters, so a key is safe in a path and in CSS. */
export const UPLOAD_KEY = /^font-[A-Za-z0-9_-]{6,64}\.(woff2|woff)$/;

type Db = { db: Kysely<DB> };

/** Every upload key a custom font names. */
export async function namedUploadKeys(ctx: Db): Promise<Set<string>> {
  const keys = new Set<string>();
  for (const row of await ctx.db.selectFrom('custom_fonts').select('faces').execute()) {
    for (const face of JSON.parse(row.faces) as Array<{ storageKey?: unknown }>) {
      if (typeof face.storageKey === 'string' && UPLOAD_KEY.test(face.storageKey)) keys.add(face.storageKey);
    }
  }
  return keys;
}

/** The blobs uploads keep: those a font names, and those of uploads made after `cutoff` (still to be used). */
export async function uploadRootBlobs(ctx: Db, cutoff: string): Promise<Set<string>> {
  const named = await namedUploadKeys(ctx);
  const blobs = new Set<string>();
  for (const row of await ctx.db.selectFrom('storage_uploads').select(['key', 'blob', 'created_at']).where('blob', 'is not', null).execute()) {
    if (row.blob && (named.has(row.key) || row.created_at >= cutoff)) blobs.add(row.blob);
  }
  return blobs;
}

/**
 * Removes the rows of uploads no font names and made before `cutoff` (their blobs are then unmarked and
 * swept with the rest). Returns how many went (or would go, with `dryRun`).
 */
export async function sweepUploads(ctx: Db, cutoff: string, dryRun: boolean): Promise<number> {
  const named = await namedUploadKeys(ctx);
  const stale = (await ctx.db.selectFrom('storage_uploads').select('key').where('created_at', '<', cutoff).execute()).map((row) => row.key).filter((key) => !named.has(key));
  if (dryRun || stale.length === 0) return stale.length;
  let removed = 0;
  for (let i = 0; i < stale.length; i += 500) {
    const result = await ctx.db.deleteFrom('storage_uploads').where('key', 'in', stale.slice(i, i + 500)).executeTakeFirst();
    removed += Number(result.numDeletedRows);
  }
  return removed;
}
