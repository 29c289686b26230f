import type { Selectable } from 'kysely';
import { inTransaction, nowIso, type Context } from '../../context.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import type { SiteRedirectsTable } from '../../db/tables/sites.ts';
import { Conflict, NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { destinationHref, findRedirect, type RedirectDestination } from '../../published/redirects.ts';
import { readerSiteView } from '../../published/site-view.ts';
import { sitePublishedUrl } from '../../sites/urls.ts';
import { siteAccess, touchSite, type SiteAccess } from '../../access/sites.ts';
import type { CreateRedirectBody, ListRedirectsQuery, SiteRedirect, UpdateRedirectBody } from './schemas.ts';

/**
 * A site's redirects: members list and resolve them (site.view), builders change them (site.manage). The
 * reader answers a redirected address with 301 when no page has that path (src/published/redirects.ts).
 * A destination must exist when it is set: a section or site space of this site, or a page of one of its
 * site spaces' current content.
 */

type RedirectRow = Selectable<SiteRedirectsTable>;

export function presentRedirect(row: RedirectRow): SiteRedirect {
  return { object: 'site-redirect', id: row.id, source: row.source, destination: JSON.parse(row.destination) as RedirectDestination };
}

function redirectNotFound(id: string): NotFound {
  return new NotFound(`No redirect "${id}" exists on this site.`);
}

async function checkDestination(ctx: Context, access: SiteAccess, destination: RedirectDestination): Promise<void> {
  const siteId = access.site.id;
  if (destination.kind === 'site-section') {
    const found = await ctx.db.selectFrom('site_sections').select('id').where('id', '=', destination.siteSectionId).where('site_id', '=', siteId).executeTakeFirst();
    if (!found) throw new NotFound(`The destination section "${destination.siteSectionId}" is not a section of this site.`);
    return;
  }
  const siteSpace = await ctx.db.selectFrom('site_spaces').select(['id', 'space_id']).where('id', '=', destination.siteSpaceId).where('site_id', '=', siteId).executeTakeFirst();
  if (!siteSpace) throw new NotFound(`The destination site space "${destination.siteSpaceId}" is not a site space of this site.`);
}

async function checkSourceFree(ctx: Context, siteId: string, source: string, except?: string): Promise<void> {
  const taken = await ctx.db.selectFrom('site_redirects').select('id').where('site_id', '=', siteId).where('source', '=', source).executeTakeFirst();
  if (taken && taken.id !== except) throw new Conflict(`The site already redirects "${source}": change that redirect (${taken.id}) instead.`);
}

export async function listRedirects(ctx: Context, organizationId: string, siteId: string, query: ListRedirectsQuery): Promise<Page<SiteRedirect>> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  const rows = ctx.db.selectFrom('site_redirects').selectAll().where('site_id', '=', site.id);
  const page = await pageInCreationOrder(ctx.cursors, rows, `site-redirects:${site.id}`, query);
  return { ...page, items: page.items.map(presentRedirect) };
}

export async function createRedirect(ctx: Context, organizationId: string, siteId: string, input: CreateRedirectBody): Promise<SiteRedirect> {
  return inTransaction(ctx, async (tx) => {
    const access = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.manage', access.actor);
    await checkDestination(tx, access, input.destination);
    await checkSourceFree(tx, access.site.id, input.source);
    const row: RedirectRow = {
      id: tx.ids.next(),
      site_id: access.site.id,
      source: input.source,
      destination: JSON.stringify(input.destination),
      automatic: 0,
      created_at: nowIso(tx),
    };
    await tx.db.insertInto('site_redirects').values(row).execute();
    await touchSite(tx, access.site.id);
    return presentRedirect(row);
  });
}

export async function updateRedirect(ctx: Context, organizationId: string, siteId: string, redirectId: string, patch: UpdateRedirectBody): Promise<SiteRedirect> {
  return inTransaction(ctx, async (tx) => {
    const access = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.manage', access.actor);
    const row = await tx.db.selectFrom('site_redirects').selectAll().where('id', '=', redirectId).where('site_id', '=', access.site.id).executeTakeFirst();
    if (!row) throw redirectNotFound(redirectId);
    const changes: Partial<RedirectRow> = {};
    if (patch.source !== undefined && patch.source !== row.source) {
      await checkSourceFree(tx, access.site.id, patch.source, row.id);
      changes.source = patch.source;
    }
    if (patch.destination !== undefined) {
      await checkDestination(tx, access, patch.destination);
      changes.destination = JSON.stringify(patch.destination);
    }
    if (Object.keys(changes).length > 0) {
      await tx.db.updateTable('site_redirects').set(changes).where('id', '=', row.id).execute();
      await touchSite(tx, access.site.id);
    }
    return presentRedirect({ ...row, ...changes });
  });
}

export async function deleteRedirect(ctx: Context, organizationId: string, siteId: string, redirectId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const access = await siteAccess(tx, organizationId, siteId);
    authorize(tx, 'site.manage', access.actor);
    const result = await tx.db.deleteFrom('site_redirects').where('id', '=', redirectId).where('site_id', '=', access.site.id).executeTakeFirst();
    const removed = Number(result.numDeletedRows) > 0;
    if (removed) await touchSite(tx, access.site.id);
    return removed;
  });
}

/** The redirect of a source and the absolute URL it leads to (the site's start when its destination is not shown). */
export async function resolveRedirect(ctx: Context, organizationId: string, siteId: string, source: string): Promise<{ redirect: SiteRedirect; target: string }> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  const row = await ctx.db.selectFrom('site_redirects').selectAll().where('site_id', '=', site.id).where('source', '=', source).executeTakeFirst();
  if (!row) throw new NotFound(`No redirect from "${source}" exists on this site.`);
  const destination = await findRedirect(ctx, site.id, source);
  const reader = await readerSiteView(ctx, site);
  const href = reader && destination ? await destinationHref(ctx, reader.view, reader.live, destination) : null;
  const target = href ? `${ctx.config.publicUrl}${href}` : sitePublishedUrl(ctx, site);
  return { redirect: presentRedirect(row), target };
}
