import type { Selectable } from 'kysely';
import { inTransaction, nowIso, type Context } from '../../context.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import type { CustomFontsTable } from '../../db/tables/sites.ts';
import { BadRequest, NotFound, nonBlank } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { UPLOAD_KEY } from '../../storage/uploads.ts';
import type { CustomFont, FontBody, FontUpdateBody, ListFontsQuery } from './schemas.ts';

/**
 * An organization's custom fonts (the client's custom-fonts): members (not guests) list and read them, the
 * create role and above change them. A face's `storageKey` is the key of a font file uploaded through
 * generateStorageUploadURL (src/modules/fonts/, served at `/~fonts/<key>`) or the https address of a woff2 or woff file. The
 * reader uses a custom font by its family name (see docs/api.md).
 */
type Row = Selectable<CustomFontsTable>;
type Face = { weight: number; storageKey: string };

function present(ctx: Pick<Context, 'config'>, row: Row, edit: boolean): CustomFont {
  const faces = JSON.parse(row.faces) as Face[];
  return {
    id: row.id,
    custom: true,
    fontFamily: row.family,
    fontFaces: faces.map((f) => ({ weight: f.weight, sources: [{ url: fontFileUrl(ctx, f.storageKey), format: /\.woff$/i.test(f.storageKey) ? ('woff' as const) : ('woff2' as const) }] })),
    permissions: { edit },
  };
}

/** An uploaded file's key is served at `/~fonts/<key>`; any other storageKey is an https address given as it is. */
function fontFileUrl(ctx: Pick<Context, 'config'>, key: string): string {
  return UPLOAD_KEY.test(key) ? `${ctx.config.publicUrl}/~fonts/${key}` : key;
}

/** A storageKey: the key of a font file uploaded to this organization (generateStorageUploadURL), or an https address. */
async function checkKey(ctx: Context, organizationId: string, key: string): Promise<void> {
  if (UPLOAD_KEY.test(key)) {
    const upload = await ctx.db.selectFrom('storage_uploads').select(['blob', 'kind']).where('key', '=', key).where('organization_id', '=', organizationId).executeTakeFirst();
    if (!upload || upload.kind !== 'customization_font') throw new BadRequest(`No font file "${key}" was uploaded to this organization.`);
    if (!upload.blob) throw new BadRequest(`The font file "${key}" has not been uploaded yet: PUT its bytes to the address generateStorageUploadURL gave.`);
    return;
  }
  let url: URL;
  try {
    url = new URL(key);
  } catch {
    throw new BadRequest(`The font file "${key}" must be the key of an uploaded font file (generateStorageUploadURL) or the https address of a woff2 or woff file.`);
  }
  if (url.protocol !== 'https:') throw new BadRequest(`The font file "${key}" must be an https address.`);
}

function notFound(id: string): NotFound {
  return new NotFound(`No font "${id}" exists in this organization.`);
}

export async function listFonts(ctx: Context, organizationId: string, query: ListFontsQuery): Promise<Page<CustomFont>> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'site.view', actor);
  const edit = actor.role !== null && ['admin', 'create'].includes(actor.role);
  const page = await pageInCreationOrder(ctx.cursors, ctx.db.selectFrom('custom_fonts').selectAll().where('organization_id', '=', organization.id), `fonts:${organization.id}`, query);
  return { ...page, items: page.items.map((row) => present(ctx, row, edit)) };
}

export async function getFont(ctx: Context, organizationId: string, fontId: string): Promise<CustomFont> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'site.view', actor);
  const row = await ctx.db.selectFrom('custom_fonts').selectAll().where('id', '=', fontId).where('organization_id', '=', organization.id).executeTakeFirst();
  if (!row) throw notFound(fontId);
  return present(ctx, row, actor.role !== null && ['admin', 'create'].includes(actor.role));
}

export async function createFont(ctx: Context, organizationId: string, body: FontBody): Promise<CustomFont> {
  if (!body.fontFaces.some((f) => f.weight === 400)) throw new BadRequest('A font needs a face of weight 400 (regular).');
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'site.manage', actor);
    for (const face of body.fontFaces) await checkKey(tx, organization.id, face.storageKey);
    const row: Row = { id: tx.ids.next(), organization_id: organization.id, family: nonBlank(body.fontFamily, 'fontFamily', 'give the family name of 1 to 50 characters that styles will use.'), faces: JSON.stringify(body.fontFaces.map((f) => ({ weight: f.weight, storageKey: f.storageKey }))), created_at: nowIso(tx) };
    await tx.db.insertInto('custom_fonts').values(row).execute();
    return present(tx, row, true);
  });
}

/** Renames a font and sets faces by weight; a face whose storageKey is null is removed (weight 400 must stay). */
export async function updateFont(ctx: Context, organizationId: string, fontId: string, body: FontUpdateBody): Promise<CustomFont> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'site.manage', actor);
    for (const face of body.fontFaces ?? []) if (face.storageKey !== null) await checkKey(tx, organization.id, face.storageKey);
    const row = await tx.db.selectFrom('custom_fonts').selectAll().where('id', '=', fontId).where('organization_id', '=', organization.id).executeTakeFirst();
    if (!row) throw notFound(fontId);
    const faces = new Map((JSON.parse(row.faces) as Face[]).map((f) => [f.weight, f.storageKey]));
    for (const face of body.fontFaces ?? []) {
      if (face.storageKey === null) faces.delete(face.weight);
      else faces.set(face.weight, face.storageKey);
    }
    if (!faces.has(400)) throw new BadRequest('A font needs a face of weight 400 (regular): it cannot be removed.');
    const changes = {
      family: body.fontFamily?.trim() ?? row.family,
      faces: JSON.stringify([...faces].sort((a, b) => a[0] - b[0]).map(([weight, storageKey]) => ({ weight, storageKey }))),
    };
    await tx.db.updateTable('custom_fonts').set(changes).where('id', '=', row.id).execute();
    return present(tx, { ...row, ...changes }, true);
  });
}

export async function deleteFont(ctx: Context, organizationId: string, fontId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'site.manage', actor);
    const result = await tx.db.deleteFrom('custom_fonts').where('id', '=', fontId).where('organization_id', '=', organization.id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}
