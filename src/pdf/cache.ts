import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import { storeBlob } from '../content/files.ts';
import { canonicalJson } from '../content/revisions.ts';

/**
 * PDFs are made once per content and kept: the bytes go to blob storage (by their hash, like file
 * bytes) and the table `pdf_exports` maps a cache key to that blob, so every process sharing the
 * database serves a PDF any of them made. The key covers all that the bytes depend on: the revision's
 * root hash (its whole content: two revisions with the same content share a PDF), the pages asked for,
 * the title page's text and the renderer's version (raised whenever the output changes).
 */
export const PDF_RENDERER_VERSION = 3;

export interface PdfKeyParts {
  root: string;
  pageId?: string;
  only: boolean;
  title: string;
  subtitle?: string;
}

export function pdfCacheKey(parts: PdfKeyParts): string {
  const text = canonicalJson({ version: PDF_RENDERER_VERSION, root: parts.root, page: parts.pageId ?? null, only: parts.only, title: parts.title, subtitle: parts.subtitle ?? null });
  return createHash('sha256').update('quire:pdf\0').update(text).digest('hex');
}

/** Counts the PDFs rendered (not served from the cache), for tests and measurements. */
export const pdfStats = { rendered: 0 };

export interface CachedPdf {
  blob: string;
  size: number;
}

/**
 * Renders in progress in this process, per blob store (one per app) and key: a second request for the
 * same PDF waits for the first instead of rendering it again.
 */
const inFlightByStore = new WeakMap<object, Map<string, Promise<CachedPdf>>>();

/** The PDF for `key`: from the cache when it is there (and its blob too), else made by `render` and kept. */
export async function cachedPdf(ctx: Pick<Context, 'db' | 'blobs' | 'clock'>, key: string, render: () => Promise<Buffer>): Promise<CachedPdf> {
  const row = await ctx.db.selectFrom('pdf_exports').select(['blob', 'size']).where('key', '=', key).executeTakeFirst();
  if (row && (await ctx.blobs.has(row.blob))) return { blob: row.blob, size: row.size };
  let inFlight = inFlightByStore.get(ctx.blobs);
  if (!inFlight) inFlightByStore.set(ctx.blobs, (inFlight = new Map()));
  const running = inFlight.get(key);
  if (running) return running;
  const made = (async () => {
    pdfStats.rendered++;
    const bytes = await render();
    const { blob, size } = await storeBlob(ctx, bytes);
    const createdAt = nowIso(ctx);
    await ctx.db
      .insertInto('pdf_exports')
      .values({ key, blob, size, created_at: createdAt })
      .onConflict((oc) => oc.column('key').doUpdateSet({ blob, size, created_at: createdAt }))
      .execute();
    return { blob, size };
  })();
  inFlight.set(key, made);
  try {
    return await made;
  } finally {
    inFlight.delete(key);
  }
}
