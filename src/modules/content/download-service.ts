import type { Readable } from 'node:stream';
import type { Context } from '../../context.ts';
import { Forbidden, Gone, NotFound } from '../../errors.ts';
import { checkDownload } from '../../content/file-urls.ts';
import { findRevision, type StoredFile } from '../../content/revisions.ts';
import { loadRoot } from '../../content/tree.ts';

export interface Download {
  file: StoredFile;
  stream: Readable;
  expires: number;
}

export interface DownloadRequest {
  spaceId: string;
  fileId: string;
  revision: string;
  expires: number;
  signature: string;
}

/**
 * The bytes behind a signed download URL. The signature is the authorization (it was minted for a caller
 * who could read the space); an altered URL is refused with 403, an expired one with 410. A space deleted
 * since the URL was minted serves nothing.
 */
export async function openDownload(ctx: Context, request: DownloadRequest): Promise<Download> {
  const location = { spaceId: request.spaceId, fileId: request.fileId, revisionId: request.revision };
  const check = checkDownload(ctx, location, request.expires, request.signature);
  if (check === 'invalid') throw new Forbidden('This download link is not valid: ask the API for the file again to get a fresh "downloadURL".');
  if (check === 'expired') throw new Gone('This download link has expired: ask the API for the file again to get a fresh "downloadURL".');
  const missing = new NotFound('The file of this download link no longer exists.');
  const space = await ctx.db.selectFrom('spaces').select('id').where('id', '=', request.spaceId).where('deleted_at', 'is', null).executeTakeFirst();
  const revision = await findRevision(ctx, request.revision);
  if (!space || !revision) throw missing;
  const root = await loadRoot(ctx, revision.root);
  const file = root.files.find((candidate) => candidate.id === request.fileId);
  if (!file) throw missing;
  const stream = await ctx.blobs.open(file.blob);
  if (!stream) throw new Error(`The blob ${file.blob} of file ${file.id} is missing from blob storage.`);
  return { file, stream, expires: request.expires };
}
