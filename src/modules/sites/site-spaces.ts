import { inTransaction, type Context } from '../../context.ts';
import { Conflict, NotFound } from '../../errors.ts';
import type { Page } from '../../db/keyset.ts';
import { checkCondition } from '../../expressions/conditions.ts';
import type { SiteSpaceRow } from '../../sites/structure.ts';
import { touchSite, type SiteRow } from '../../access/sites.ts';
import { pageOfList } from './paging.ts';
import {
  addSiteSpaces,
  checkSegment,
  containerSiteSpaces,
  ensureContainerDefault,
  publishableSpaces,
  resolveContainer,
  structureAccess,
} from './placement.ts';
import { findSiteSpace, presentSiteSpace, siteSpacesWithSections } from './structure-presenter.ts';
import { loadStructureView } from './structure-view.ts';
import type { CreateSiteSpaceBody, ListSiteSpacesQuery, SiteSpace, UpdateSiteSpaceBody } from './structure-schemas.ts';

/** Every site space of a site, in order; `default` keeps only those whose `default` member matches. */
export async function listSiteSpaces(ctx: Context, organizationId: string, siteId: string, query: ListSiteSpacesQuery): Promise<Page<SiteSpace>> {
  const site = await structureAccess(ctx, organizationId, siteId, 'site.view');
  const view = await loadStructureView(ctx, site, query.shareKey);
  const all = siteSpacesWithSections(view.model).filter(({ item }) => query.default === undefined || item.isDefault === query.default);
  return pageOfList(
    ctx,
    `site-spaces:${site.id}:${query.shareKey ?? ''}:${String(query.default)}`,
    query,
    all,
    (s) => s.item.row.id,
    (s) => presentSiteSpace(ctx, view, s.item, s.section),
  );
}

async function presentOne(ctx: Context, site: SiteRow, siteSpaceId: string): Promise<SiteSpace> {
  const view = await loadStructureView(ctx, site);
  const found = findSiteSpace(view.model, siteSpaceId);
  if (!found) throw new NotFound(`Site space "${siteSpaceId}" publishes a space that is in the trash: restore the space, or point the site space at another space.`);
  return presentSiteSpace(ctx, view, found.item, found.section);
}

/** Adds a space to a site: to `sectionId`, else to the default section, else to the root. */
export async function createSiteSpace(ctx: Context, organizationId: string, siteId: string, body: CreateSiteSpaceBody): Promise<SiteSpace> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const container = await resolveContainer(tx, site, body.sectionId);
    const [row] = await addSiteSpaces(tx, site, [body.spaceId], container);
    return presentOne(tx, site, row!.id);
  });
}

async function siteSpaceRow(ctx: Context, siteId: string, siteSpaceId: string): Promise<SiteSpaceRow | undefined> {
  return ctx.db.selectFrom('site_spaces').selectAll().where('id', '=', siteSpaceId).where('site_id', '=', siteId).executeTakeFirst();
}

/** Changes a site space: its path (unique in its container), condition, or the space it publishes. */
export async function updateSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, body: UpdateSiteSpaceBody): Promise<SiteSpace> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const row = await siteSpaceRow(tx, site.id, siteSpaceId);
    if (!row) throw new NotFound(`No site space "${siteSpaceId}" exists in this site.`);
    const changes: Partial<SiteSpaceRow> = {};
    if (body.path !== undefined) {
      checkSegment('path', body.path);
      const siblings = await containerSiteSpaces(tx, site.id, row.section_id);
      if (siblings.some((s) => s.id !== row.id && s.path === body.path)) {
        throw new Conflict(`Another site space of the same ${row.section_id ? 'section' : 'site root'} already has the path "${body.path}": choose another path.`);
      }
      changes.path = body.path;
    }
    if (body.condition !== undefined) {
      if (body.condition !== null) checkCondition(body.condition);
      changes.condition = body.condition;
    }
    if (body.spaceId !== undefined) {
      const [space] = await publishableSpaces(tx, site, [body.spaceId]);
      changes.space_id = space!.id;
    }
    if (Object.keys(changes).length) await tx.db.updateTable('site_spaces').set(changes).where('id', '=', row.id).execute();
    await touchSite(tx, site.id);
    return presentOne(tx, site, row.id);
  });
}

/** Removes a site space; false when there was none. A default that goes is replaced by the first remaining. */
export async function deleteSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const row = await siteSpaceRow(tx, site.id, siteSpaceId);
    if (!row) return false;
    await tx.db.deleteFrom('site_spaces').where('id', '=', row.id).execute();
    const rest = await containerSiteSpaces(tx, site.id, row.section_id);
    for (const [i, s] of rest.entries()) {
      if (s.position !== i + 1) await tx.db.updateTable('site_spaces').set({ position: i + 1 }).where('id', '=', s.id).execute();
    }
    await ensureContainerDefault(tx, site.id, row.section_id);
    await touchSite(tx, site.id);
    return true;
  });
}
