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

/**
 * The text a signed URL's signature covers: its fields, one a line, then the expiry. The first field names
 * the kind of URL ('file', 'pdf' …), so a signature made for one kind is never valid for another; a field
 * holding a line break is refused, so two different lists of fields never give the same text.
 */
function signedText(fields: readonly string[], expires: number): string | null {
  if (fields.some((field) => field.includes('\n'))) return null;
  return [...fields, String(expires)].join('\n');
}

/** Signs the fields of a URL that Quire serves without a token, together with its expiry. */
export function signFields(ctx: Pick<Context, 'urls'>, fields: readonly string[], expires: number): string {
  const text = signedText(fields, expires);
  if (text === null) throw new Error('A signed URL field cannot hold a line break.');
  return ctx.urls.sign(text);
}

/** Checks a signature made by signFields, then the expiry (an altered URL is 'invalid' even when it is also old). */
export function checkFields(ctx: Pick<Context, 'clock' | 'urls'>, fields: readonly string[], expires: number, signature: string): SignatureCheck {
  const text = signedText(fields, expires);
  if (text === null || !Number.isSafeInteger(expires) || !ctx.urls.verify(text, signature)) return 'invalid';
  return expires * 1000 <= ctx.clock.now().getTime() ? 'expired' : 'valid';
}

function fileFields(location: FileLocation): string[] {
  return ['file', location.spaceId, location.fileId, location.revisionId];
}

export function downloadExpiry(ctx: Pick<Context, 'clock'>): number {
  const now = Math.floor(ctx.clock.now().getTime() / 1000);
  return Math.ceil((now + URL_LIFETIME_SECONDS) / URL_LIFETIME_SECONDS) * URL_LIFETIME_SECONDS;
}

export function downloadUrl(ctx: Pick<Context, 'clock' | 'config' | 'urls'>, location: FileLocation, expires = downloadExpiry(ctx)): string {
  const signature = signFields(ctx, fileFields(location), expires);
  const query = new URLSearchParams({ revision: location.revisionId, expires: String(expires), signature });
  return `${ctx.config.publicUrl}/files/${encodeURIComponent(location.spaceId)}/${encodeURIComponent(location.fileId)}?${query}`;
}

export type SignatureCheck = 'valid' | 'invalid' | 'expired';

/** Checks a download URL's signature, then its expiry (an altered URL is 'invalid' even when it is also old). */
export function checkDownload(ctx: Pick<Context, 'clock' | 'urls'>, location: FileLocation, expires: number, signature: string): SignatureCheck {
  return checkFields(ctx, fileFields(location), expires, signature);
}
