import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import { organizationAccess } from '../../access/organizations.ts';
import { storeBlob } from '../../content/files.ts';
import { inTransaction, nowIso, type Context } from '../../context.ts';
import { BadRequest, Conflict, Gone, NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { UPLOAD_KEY } from '../../storage/uploads.ts';
import { checkFontFile, FONT_MAX_BYTES, type FontFormat } from './font-file.ts';
import type { StorageUploadBody, StorageUploadUrl, UploadQuery, Uploaded } from './schemas.ts';

/**
 * Custom font files, uploaded as the client uploads them: `generateStorageUploadURL` (kind
 * `customization_font`) answers a signed address and a key; the bytes are PUT to that address, checked (a
 * real WOFF2 or WOFF font, parsed whole, within the size limit) and stored as a blob; `createCustomFont`
 * then names the key as a face's `storageKey`. Published sites load the file from `/~fonts/<key>` on their
 * own origin, through a stylesheet of `@font-face` rules (`/~fonts/css/<fontId>`).
 */

/** How long a signed upload address stays valid. */
const UPLOAD_TTL_SECONDS = 3600;

function formatOf(name: string, type: string): FontFormat {
  const lower = name.toLowerCase();
  if (lower.endsWith('.woff2')) return 'woff2';
  if (lower.endsWith('.woff')) return 'woff';
  if (type === 'font/woff2') return 'woff2';
  if (type === 'font/woff') return 'woff';
  throw new BadRequest(`The font file "${name}" must be a .woff2 or .woff file (convert a TTF or OTF font to WOFF2 first).`);
}

function signed(key: string, expires: number): string {
  return `storage-upload:${key}:${expires}`;
}

export async function createUploadUrl(ctx: Context, organizationId: string, body: StorageUploadBody): Promise<StorageUploadUrl> {
  const format = formatOf(body.file.name, body.file.type);
  if (!Number.isInteger(body.file.size)) throw new BadRequest('file.size must be a whole number of bytes.');
  if (body.file.size > FONT_MAX_BYTES) throw new BadRequest(`A font file may hold at most ${FONT_MAX_BYTES} bytes; "${body.file.name}" holds ${body.file.size}.`);
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'site.manage', actor);
    const key = `font-${randomBytes(12).toString('base64url')}.${format}`;
    await tx.db
      .insertInto('storage_uploads')
      .values({ key, organization_id: organization.id, kind: body.kind, name: body.file.name, content_type: format === 'woff2' ? 'font/woff2' : 'font/woff', size: body.file.size, blob: null, created_by: actor.userId, created_at: nowIso(tx), uploaded_at: null })
      .execute();
    const expires = Math.floor(tx.clock.now().getTime() / 1000) + UPLOAD_TTL_SECONDS;
    const query = new URLSearchParams({ expires: String(expires), signature: tx.urls.sign(signed(key, expires)) });
    return { object: 'storage-signed-url' as const, url: `${tx.config.publicUrl}/storage/uploads/${key}?${query}`, key };
  });
}

/** The bytes PUT to a signed upload address: checked, stored, and recorded against the upload's key. */
export async function receiveUpload(ctx: Context, key: string, query: UploadQuery, bytes: Buffer): Promise<Uploaded> {
  if (!UPLOAD_KEY.test(key) || !ctx.urls.verify(signed(key, query.expires), query.signature)) throw new NotFound('No upload is waiting at this address.');
  if (query.expires < Math.floor(ctx.clock.now().getTime() / 1000)) throw new Gone('This upload address has expired; ask for a new one (generateStorageUploadURL).');
  const row = await ctx.db.selectFrom('storage_uploads').selectAll().where('key', '=', key).executeTakeFirst();
  if (!row) throw new NotFound('No upload is waiting at this address.');
  if (row.blob) throw new Conflict('A file was uploaded to this address already; ask for a new address to upload another.');
  if (bytes.length !== Number(row.size)) throw new BadRequest(`The upload holds ${bytes.length} bytes, but ${row.size} were announced.`);
  const format: FontFormat = key.endsWith('.woff2') ? 'woff2' : 'woff';
  const { fontFamily } = checkFontFile(bytes, format);
  return inTransaction(ctx, async (tx) => {
    const { blob } = await storeBlob(tx, bytes);
    const result = await tx.db.updateTable('storage_uploads').set({ blob, uploaded_at: nowIso(tx) }).where('key', '=', key).where('blob', 'is', null).executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) throw new Conflict('A file was uploaded to this address already; ask for a new address to upload another.');
    return { key, size: bytes.length, fontFamily, format };
  });
}

/** An uploaded font file by its key (public: published sites load it). */
export async function openFontFile(ctx: Context, key: string): Promise<{ stream: Readable; size: number; contentType: string; blob: string }> {
  if (!UPLOAD_KEY.test(key)) throw new NotFound('No such font file.');
  const row = await ctx.db.selectFrom('storage_uploads').select(['blob', 'size', 'content_type']).where('key', '=', key).executeTakeFirst();
  if (!row?.blob) throw new NotFound('No such font file.');
  const stream = await ctx.blobs.open(row.blob);
  if (!stream) throw new NotFound('No such font file.');
  return { stream, size: Number(row.size), contentType: row.content_type, blob: row.blob };
}

/** A family name as a CSS string: quotes, backslashes and anything that could end the rule left out. */
export function cssFamily(family: string): string {
  return `"${family.replace(/["\\;{}<>\n\r]/g, '')}"`;
}

/**
 * The `@font-face` rules of a custom font, for the faces that are uploaded files, with addresses relative
 * to the origin that serves the stylesheet (a site on its own hostname serves `/~fonts/` too), so the
 * reader's `font-src 'self'` admits them. Null when the font does not exist.
 */
export async function fontFaceCss(ctx: Context, fontId: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('custom_fonts').select(['family', 'faces']).where('id', '=', fontId).executeTakeFirst();
  if (!row) return null;
  const faces = JSON.parse(row.faces) as Array<{ weight: number; storageKey: string }>;
  return faces
    .filter((face) => UPLOAD_KEY.test(face.storageKey))
    .map((face) => `@font-face{font-family:${cssFamily(row.family)};font-style:normal;font-weight:${Math.round(face.weight)};font-display:swap;src:url("/~fonts/${face.storageKey}") format("${face.storageKey.endsWith('.woff2') ? 'woff2' : 'woff'}")}`)
    .join('\n');
}
