import type { Context } from '../context.ts';
import { checkFields, downloadExpiry, signFields, type SignatureCheck } from '../content/file-urls.ts';

/**
 * Signed PDF URLs, with the scheme of file downloads (src/content/file-urls.ts): served at the root of
 * Quire, outside /v1, at `/pdf/{space}/{revision}`, under a signature that binds the space, the revision,
 * the change request (its title page), the pages asked for and an expiry (one to two hours away).
 */
export interface PdfLocation {
  spaceId: string;
  revisionId: string;
  changeRequestId?: string;
  pageId?: string;
  only: boolean;
}

function pdfFields(location: PdfLocation): string[] {
  return ['pdf', location.spaceId, location.revisionId, location.changeRequestId ?? '', location.pageId ?? '', location.only ? 'only' : ''];
}

export function pdfUrl(ctx: Pick<Context, 'clock' | 'config' | 'urls'>, location: PdfLocation, expires = downloadExpiry(ctx)): string {
  const query = new URLSearchParams();
  if (location.changeRequestId) query.set('changeRequest', location.changeRequestId);
  if (location.pageId) query.set('page', location.pageId);
  if (location.only) query.set('only', 'true');
  query.set('expires', String(expires));
  query.set('signature', signFields(ctx, pdfFields(location), expires));
  return `${ctx.config.publicUrl}/pdf/${encodeURIComponent(location.spaceId)}/${encodeURIComponent(location.revisionId)}?${query}`;
}

export function checkPdfUrl(ctx: Pick<Context, 'clock' | 'urls'>, location: PdfLocation, expires: number, signature: string): SignatureCheck {
  return checkFields(ctx, pdfFields(location), expires, signature);
}
