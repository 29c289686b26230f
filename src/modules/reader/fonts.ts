import type { Selectable } from 'kysely';
import { inTransaction, nowIso, type Context } from '../../context.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import type { CustomFontsTable } from '../../db/tables/sites.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import type { CustomFont, FontBody, FontUpdateBody, ListFontsQuery } from './schemas.ts';

/**
 * An organization's custom fonts (the client's custom-fonts): members (not guests) list and read them, the
 * create role and above change them. Quire has no storage bucket of its own for font files, so a face's
 * `storageKey` is the https address of a woff2 or woff file; it is given back as the face's source. The
 * reader uses a custom font by its family name (see docs/api.md).
 */
type Row = Selectable<CustomFontsTable>;
type Face = { weight: number; storageKey: string };

function present(row: Row, edit: boolean): CustomFont {
  const faces = JSON.parse(row.faces) as Face[];
  return {
    id: row.id,
    custom: true,
    fontFamily: row.family,
    fontFaces: faces.map((f) => ({ weight: f.weight, sources: [{ url: f.storageKey, format: /\.woff$/i.test(f.storageKey) ? ('woff' as const) : ('woff2' as const) }] })),
    permissions: { edit },
  };
}

function checkKey(key: string): void {
  let url: URL;
  try {
    url = new URL(key);
  } catch {
    throw new BadRequest(`The font file "${key}" must be the https address of a woff2 or woff file: Quire has no storage bucket for fonts.`);
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
  return { ...page, items: page.items.map((row) => present(row, edit)) };
}

export async function getFont(ctx: Context, organizationId: string, fontId: string): Promise<CustomFont> {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'site.view', actor);
  const row = await ctx.db.selectFrom('custom_fonts').selectAll().where('id', '=', fontId).where('organization_id', '=', organization.id).executeTakeFirst();
  if (!row) throw notFound(fontId);
  return present(row, actor.role !== null && ['admin', 'create'].includes(actor.role));
}

export async function createFont(ctx: Context, organizationId: string, body: FontBody): Promise<CustomFont> {
  if (!body.fontFaces.some((f) => f.weight === 400)) throw new BadRequest('A font needs a face of weight 400 (regular).');
  for (const face of body.fontFaces) checkKey(face.storageKey);
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'site.manage', actor);
    const row: Row = { id: tx.ids.next(), organization_id: organization.id, family: body.fontFamily.trim(), faces: JSON.stringify(body.fontFaces.map((f) => ({ weight: f.weight, storageKey: f.storageKey }))), created_at: nowIso(tx) };
    await tx.db.insertInto('custom_fonts').values(row).execute();
    return present(row, true);
  });
}

/** Renames a font and sets faces by weight; a face whose storageKey is null is removed (weight 400 must stay). */
export async function updateFont(ctx: Context, organizationId: string, fontId: string, body: FontUpdateBody): Promise<CustomFont> {
  for (const face of body.fontFaces ?? []) if (face.storageKey !== null) checkKey(face.storageKey);
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'site.manage', actor);
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
    return present({ ...row, ...changes }, true);
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
