import type { Selectable } from 'kysely';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import type { SiteShareLinksTable } from '../../db/tables/sites.ts';
import { NotFound } from '../../errors.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { newShareKey, shareKeyHash } from '../../sites/visitor.ts';
import { siteAccess, touchSite, type SiteRow } from '../../access/sites.ts';
import type { ShareLinkView } from './site-views.ts';
import type { CreateShareLinkBody, ListShareLinksQuery, UpdateShareLinkBody } from './schemas.ts';

/**
 * Share links of a site: each holds a random key that opens a `share-link` site to whoever carries it. The
 * key is stored twice, never in clear: its SHA-256 (`key_hash`, for the reader's lookup) and sealed with the
 * secret box (`key_sealed`, so the link's URL can be shown again). Only administrators of the organization
 * see or change links (site.admin). Keys are never logged.
 */
type ShareLinkRow = Selectable<SiteShareLinksTable>;

function toView(ctx: Context, site: SiteRow, row: ShareLinkRow): ShareLinkView {
  return {
    id: row.id,
    name: row.name,
    active: Boolean(row.active),
    createdAt: row.created_at,
    key: ctx.secrets.decrypt(row.key_sealed).toString('utf8'),
    site,
  };
}

function shareLinkNotFound(shareLinkId: string): NotFound {
  return new NotFound(`No share link "${shareLinkId}" exists on this site.`);
}

/** The share links of a site, oldest first (then by id). */
export async function listShareLinks(ctx: Context, organizationId: string, siteId: string, query: ListShareLinksQuery): Promise<Page<ShareLinkView>> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.admin', actor);
  const rows = ctx.db.selectFrom('site_share_links').selectAll().where('site_id', '=', site.id);
  const page = await pageInCreationOrder(ctx.cursors, rows, `site-share-links:${site.id}`, query);
  return { ...page, items: page.items.map((row) => toView(ctx, site, row)) };
}

/** Creates an active share link with a new key. */
export async function createShareLink(ctx: Context, organizationId: string, siteId: string, input: CreateShareLinkBody): Promise<ShareLinkView> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    const key = newShareKey();
    const row: ShareLinkRow = {
      id: tx.ids.next(),
      site_id: site.id,
      name: input.name.trim(),
      key_hash: shareKeyHash(key),
      key_sealed: tx.secrets.encrypt(key),
      active: 1,
      created_by: actor.userId,
      created_at: nowIso(tx),
    };
    await tx.db.insertInto('site_share_links').values(row).execute();
    await touchSite(tx, site.id);
    return toView(tx, site, row);
  });
}

/** Renames a share link, or turns it off or on again (an inactive link opens nothing; its key stays the same). */
export async function updateShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string, patch: UpdateShareLinkBody): Promise<ShareLinkView> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    const row = await tx.db.selectFrom('site_share_links').selectAll().where('id', '=', shareLinkId).where('site_id', '=', site.id).executeTakeFirst();
    if (!row) throw shareLinkNotFound(shareLinkId);
    const changes: Partial<Pick<ShareLinkRow, 'name' | 'active'>> = {};
    if (patch.name !== undefined) changes.name = patch.name.trim();
    if (patch.active !== undefined) changes.active = patch.active ? 1 : 0;
    await tx.db.updateTable('site_share_links').set(changes).where('id', '=', row.id).execute();
    await touchSite(tx, site.id);
    return toView(tx, site, { ...row, ...changes });
  });
}

/** Deletes a share link: its key stops opening the site. True when one was deleted, false when there was none. */
export async function deleteShareLink(ctx: Context, organizationId: string, siteId: string, shareLinkId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const { site, actor } = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.admin', actor);
    const result = await tx.db.deleteFrom('site_share_links').where('id', '=', shareLinkId).where('site_id', '=', site.id).executeTakeFirst();
    const removed = Number(result.numDeletedRows) > 0;
    if (removed) await touchSite(tx, site.id);
    return removed;
  });
}
