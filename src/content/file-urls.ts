import type { Context } from '../context.ts';

/**
 * Signed download URLs: a file of a revision is served at the root of Quire (outside /v1: a browser that
 * follows the link sends no token), under a signature that binds the space, the file, the revision and an
 * expiry. Only callers who may read the space are ever given one (URLs are minted in presenters for readers).
 *
 * Expiries are rounded up to the next whole hour after one hour from now, so a URL stays the same for a
 * while (browsers and proxies can cache the bytes) and always lives between one and two hours.
 */
export const URL_LIFETIME_SECONDS = 3600;

export interface FileLocation {
  spaceId: string;
  fileId: string;
  revisionId: string;
}

function signedText(location: FileLocation, expires: number): string {
  return ['file', location.spaceId, location.fileId, location.revisionId, String(expires)].join('\n');
}

export function downloadExpiry(ctx: Pick<Context, 'clock'>): number {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return Math.ceil((now + URL_LIFETIME_SECONDS) / URL_LIFETIME_SECONDS) * URL_LIFETIME_SECONDS;
}

export function downloadUrl(ctx: Pick<Context, 'clock' | 'config' | 'urls'>, location: FileLocation, expires = downloadExpiry(ctx)): string {
  const signature = ctx.urls.sign(signedText(location, expires));
  const query = new URLSearchParams({ revision: location.revisionId, expires: String(expires), signature });
  return `${ctx.config.publicUrl}/files/${encodeURIComponent(location.spaceId)}/${encodeURIComponent(location.fileId)}?${query}`;
}

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

/** Checks a download URL's signature, then its expiry (an altered URL is 'invalid' even when it is also old). */
export function checkDownload(ctx: Pick<Context, 'clock' | 'urls'>, location: FileLocation, expires: number, signature: string): SignatureCheck {
  if (!Number.isSafeInteger(expires) || !ctx.urls.verify(signedText(location, expires), signature)) return 'invalid';
  return expires * 1000 <= ctx.clock.now().getTime() ? 'expired' : 'valid';
}
