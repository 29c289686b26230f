import type { Readable } from 'node:stream';
import type { Context } from '../../context.ts';
import { Forbidden, Gone, NotFound } from '../../errors.ts';
import { findRevision } from '../../content/revisions.ts';
import { loadTree } from '../../content/tree.ts';
import { authorize } from '../../policy/index.ts';
import { cachedPdf, pdfCacheKey } from '../../pdf/cache.ts';
import { renderPdf } from '../../pdf/render.ts';
import { loadPdfInput, selectPages, type PdfSelection } from '../../pdf/source.ts';
import { checkPdfUrl, pdfUrl } from '../../pdf/urls.ts';
import { changeRequestAccess } from '../../access/change-requests.ts';
import type { PdfFileQuery, PdfQuery } from './schemas.ts';

/**
 * PDF exports. The API answers a signed URL (minted only for callers who may read the space, after the
 * pages asked for are checked); the PDF itself is made when the URL is first followed, then kept in the
 * cache (src/pdf/cache.ts) and served from there.
 */

function selectionOf(query: { only?: boolean; page?: string }): PdfSelection {
  return { ...(query.page !== undefined ? { pageId: query.page } : {}), only: query.only === true };
}

/** The URL of a PDF of a change request's content: all its pages, a page with those under it, or one page. */
export async function changeRequestPdfUrl(ctx: Context, spaceId: string, changeRequestId: string, query: PdfQuery): Promise<{ url: string }> {
  const { space, actor, changeRequest } = await changeRequestAccess(ctx, spaceId, changeRequestId);
  authorize(ctx, 'space.view', actor);
  const revision = await findRevision(ctx, changeRequest.revision);
  if (!revision) throw new Error(`The revision ${changeRequest.revision} of change request ${changeRequest.id} is missing.`);
  const selection = selectionOf(query);
  // Checked now, so that a caller learns of an unknown page from the API rather than from a broken link.
  selectPages(await loadTree(ctx, revision.root), selection);
  return { url: pdfUrl(ctx, { spaceId: space.id, revisionId: revision.id, changeRequestId: changeRequest.id, ...selection }) };
}

export interface PdfDownload {
  stream: Readable;
  size: number;
  blob: string;
  /** The file name offered to the browser. */
  name: string;
  expires: number;
}

export interface PdfDownloadRequest extends PdfFileQuery {
  spaceId: string;
  revisionId: string;
}

/**
 * The bytes behind a signed PDF URL. The signature is the authorization; an altered URL is refused with
 * 403, an expired one with 410; a space deleted since serves nothing.
 */
export async function openPdf(ctx: Context, request: PdfDownloadRequest): Promise<PdfDownload> {
  const selection = selectionOf(request);
  const location = { spaceId: request.spaceId, revisionId: request.revisionId, changeRequestId: request.changeRequest, ...selection };
  const check = checkPdfUrl(ctx, location, request.expires, request.signature);
  if (check === 'invalid') throw new Forbidden('This PDF link is not valid: ask the API for the PDF again to get a fresh URL.');
  if (check === 'expired') throw new Gone('This PDF link has expired: ask the API for the PDF again to get a fresh URL.');

  const missing = new NotFound('The content of this PDF link no longer exists.');
  const space = await ctx.db.selectFrom('spaces').select(['id', 'title']).where('id', '=', request.spaceId).where('deleted_at', 'is', null).executeTakeFirst();
  const revision = await findRevision(ctx, request.revisionId);
  if (!space || !revision) throw missing;
  let subtitle: string | undefined;
  let fileName = space.title || 'Untitled';
  if (request.changeRequest) {
    const changeRequest = await ctx.db
      .selectFrom('change_requests')
      .select(['number', 'subject'])
      .where('id', '=', request.changeRequest)
      .where('space_id', '=', space.id)
      .executeTakeFirst();
    if (!changeRequest) throw missing;
    subtitle = `Change request #${changeRequest.number}${changeRequest.subject ? `: ${changeRequest.subject}` : ''}`;
    fileName = `${fileName} - change request ${changeRequest.number}`;
  }

  const tree = await loadTree(ctx, revision.root);
  const selected = selectPages(tree, selection);
  if (selection.pageId !== undefined) fileName = `${fileName} - ${tree.byId.get(selection.pageId)!.node.title}`;
  const title = space.title || 'Untitled';
  const key = pdfCacheKey({ root: revision.root, ...selection, title, ...(subtitle ? { subtitle } : {}) });
  const { blob, size } = await cachedPdf(ctx, key, async () =>
    renderPdf(await loadPdfInput(ctx, tree, selected, { spaceId: space.id, title, ...(subtitle ? { subtitle } : {}), createdAt: new Date(revision.createdAt) })),
  );
  const stream = await ctx.blobs.open(blob);
  if (!stream) throw new Error(`The blob ${blob} of a cached PDF is missing from blob storage.`);
  return { stream, size, blob, name: `${fileName.replace(/[\\/:*?"<>|\u0000-\u001f]+/g, ' ').trim()}.pdf`, expires: request.expires };
}
