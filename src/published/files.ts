import type { Readable } from 'node:stream';
import type { Context } from '../context.ts';
import type { StoredFile } from '../content/revisions.ts';
import { loadRoot } from '../content/tree.ts';
import type { SiteView } from './model.ts';
import type { CurrentContent } from './resolve.ts';

/**
 * Files of published pages, at `{siteRoot}/~files/{siteSpaceId}/{fileId}/{name}`, behind the same audience
 * check as the pages: only files of the current revision of a variant this reader sees. The name is there
 * for the reader's sake (downloads, the address bar); the id decides.
 */
export async function openSiteFile(
  ctx: Pick<Context, 'db' | 'blobs'>,
  view: SiteView,
  live: Map<string, CurrentContent>,
  variantId: string,
  fileId: string,
): Promise<{ file: StoredFile; stream: Readable } | null> {
  const variant = view.variants.find((v) => v.id === variantId);
  const content = variant ? live.get(variant.spaceId) : undefined;
  if (!content) return null;
  const root = await loadRoot(ctx, content.root);
  const file = root.files.find((f) => f.id === fileId);
  if (!file) return null;
  const stream = await ctx.blobs.open(file.blob);
  if (!stream) throw new Error(`The blob ${file.blob} of file ${file.id} is missing from blob storage.`);
  return { file, stream };
}

/** Types a browser may show in place; everything else is offered as a download. */
export const INLINE_TYPES = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/|audio\/|application\/pdf$|text\/plain$)/;
