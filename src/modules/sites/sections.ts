import { inTransaction, type Context } from '../../context.ts';
import { Conflict, NotFound } from '../../errors.ts';
import type { Page } from '../../db/keyset.ts';
import { checkCondition } from '../../expressions/conditions.ts';
import { sectionsOf } from '../../sites/structure.ts';
import { touchSite, type SiteRow } from '../../access/sites.ts';
import { loadLayout, saveLayout } from './moves.ts';
import { pageOfList } from './paging.ts';
import {
  addSiteSpaces,
  checkSegment,
  containerSiteSpaces,
  ensureSiteDefaultSection,
  freshSite,
  pathOf,
  publishableSpaces,
  sectionRows,
  setSectionDefaultSiteSpace,
  structureAccess,
  uniquePath,
} from './placement.ts';
import { findSection, presentSection } from './structure-presenter.ts';
import { loadStructureView } from './structure-view.ts';
import type { CreateSectionBody, ListSectionsQuery, SiteSection, UpdateSectionBody } from './structure-schemas.ts';

/** A section title from a space title: at least 2 characters, at most 128. */
function sectionTitleFrom(title: string): string {
  const trimmed = title.trim();
  return (trimmed.length >= 2 ? trimmed : `Section ${trimmed}`.trim()).slice(0, 128);
}

/** The sections of a site, in order (groups flattened). */
export async function listSections(ctx: Context, organizationId: string, siteId: string, query: ListSectionsQuery): Promise<Page<SiteSection>> {
  const site = await structureAccess(ctx, organizationId, siteId, 'site.view');
  const view = await loadStructureView(ctx, site, query.shareKey);
  const sections = sectionsOf(view.model);
  return pageOfList(ctx, `site-sections:${site.id}:${query.shareKey ?? ''}`, query, sections, (s) => s.row.id, (s) => presentSection(ctx, view, s));
}

/** Inserts a section row at the end of the top level; its path is the slug of its title, unique in the site. */
async function insertSection(tx: Context, site: SiteRow, title: string, icon: string | null): Promise<string> {
  const [sections, groups] = await Promise.all([
    sectionRows(tx, site.id),
    tx.db.selectFrom('site_section_groups').select('position').where('site_id', '=', site.id).execute(),
  ]);
  const last = [...sections.filter((s) => s.group_id === null).map((s) => s.position), ...groups.map((g) => g.position)].reduce((a, b) => Math.max(a, b), 0);
  const id = tx.ids.next();
  await tx.db
    .insertInto('site_sections')
    .values({
      id,
      site_id: site.id,
      group_id: null,
      title,
      description: null,
      path: uniquePath(pathOf(title, 'section'), sections.map((s) => s.path)),
      condition: null,
      icon,
      position: last + 1,
      default_site_space_id: null,
      created_at: tx.clock.now().toISOString(),
    })
    .execute();
  return id;
}

/**
 * Adds a section holding one space. The site's first section first gathers the site spaces already at the
 * root into a section titled as the site (which becomes the default), so nothing is lost.
 */
export async function createSection(ctx: Context, organizationId: string, siteId: string, body: CreateSectionBody): Promise<SiteSection> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const [space] = await publishableSpaces(tx, site, [body.spaceId]);
    const existing = await sectionRows(tx, site.id);
    if (existing.length === 0) {
      const root = await containerSiteSpaces(tx, site.id, null);
      if (root.length) {
        const fresh = await freshSite(tx, site.id);
        const wrapper = await insertSection(tx, site, sectionTitleFrom(site.title), null);
        await tx.db.updateTable('site_spaces').set({ section_id: wrapper }).where('site_id', '=', site.id).where('section_id', 'is', null).execute();
        const rootDefault = root.some((s) => s.id === fresh.default_site_space_id) ? fresh.default_site_space_id : root[0]!.id;
        await tx.db.updateTable('site_sections').set({ default_site_space_id: rootDefault }).where('id', '=', wrapper).execute();
        await tx.db.updateTable('sites').set({ default_site_space_id: null, default_section_id: wrapper }).where('id', '=', site.id).execute();
      }
    }
    const sectionId = await insertSection(tx, site, body.title ? body.title : sectionTitleFrom(space!.title), body.icon ?? null);
    await addSiteSpaces(tx, site, [space!.id], sectionId);
    await ensureSiteDefaultSection(tx, site.id);
    await touchSite(tx, site.id);
    return presentOne(tx, site, sectionId);
  });
}

export async function presentOne(ctx: Context, site: SiteRow, sectionId: string): Promise<SiteSection> {
  const view = await loadStructureView(ctx, site);
  const section = findSection(view.model, sectionId);
  if (!section) throw new NotFound(`No section "${sectionId}" exists in this site.`);
  return presentSection(ctx, view, section);
}

/** Changes a section. A path another section of the site has is refused with 409. */
export async function updateSection(ctx: Context, organizationId: string, siteId: string, sectionId: string, body: UpdateSectionBody): Promise<SiteSection> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const sections = await sectionRows(tx, site.id);
    const row = sections.find((s) => s.id === sectionId);
    if (!row) throw new NotFound(`No section "${sectionId}" exists in this site.`);
    const changes: Partial<typeof row> = {};
    if (body.title !== undefined) changes.title = body.title;
    if (body.path !== undefined) {
      checkSegment('path', body.path);
      if (sections.some((s) => s.id !== sectionId && s.path === body.path)) {
        throw new Conflict(`Another section of this site already has the path "${body.path}": choose another path.`);
      }
      changes.path = body.path;
    }
    if (body.condition !== undefined) {
      if (body.condition !== null) checkCondition(body.condition);
      changes.condition = body.condition;
    }
    if (body.icon !== undefined) changes.icon = body.icon;
    if (body.description !== undefined) changes.description = body.description;
    if (Object.keys(changes).length) await tx.db.updateTable('site_sections').set(changes).where('id', '=', sectionId).execute();
    if (body.defaultSiteSpace !== undefined) await setSectionDefaultSiteSpace(tx, site, sectionId, body.defaultSiteSpace);
    await touchSite(tx, site.id);
    return presentOne(tx, site, sectionId);
  });
}

/** Deletes a section and its site spaces; false when there was none. A default section that goes is replaced by the first remaining. */
export async function deleteSection(ctx: Context, organizationId: string, siteId: string, sectionId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const row = await tx.db.selectFrom('site_sections').select('id').where('id', '=', sectionId).where('site_id', '=', site.id).executeTakeFirst();
    if (!row) return false;
    await tx.db.deleteFrom('site_spaces').where('section_id', '=', sectionId).execute();
    await tx.db.deleteFrom('site_sections').where('id', '=', sectionId).execute();
    // Close the gap in its list.
    await saveLayout(tx, await loadLayout(tx, site.id));
    await ensureSiteDefaultSection(tx, site.id);
    await touchSite(tx, site.id);
    return true;
  });
}
