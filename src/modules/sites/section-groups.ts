import { inTransaction, type Context } from '../../context.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import type { Page } from '../../db/keyset.ts';
import { touchSite, type SiteRow } from '../../access/sites.ts';
import { detachSection, loadLayout, saveLayout, sectionPlace } from './moves.ts';
import { pageOfList } from './paging.ts';
import { ensureSiteDefaultSection, structureAccess } from './placement.ts';
import { findGroup, groupsOf, presentGroup } from './structure-presenter.ts';
import { loadStructureView } from './structure-view.ts';
import type { AddSectionToGroupBody, CreateGroupBody, ListGroupsQuery, SiteSectionGroup, UpdateGroupBody } from './structure-schemas.ts';

export async function listGroups(ctx: Context, organizationId: string, siteId: string, query: ListGroupsQuery): Promise<Page<SiteSectionGroup>> {
  const site = await structureAccess(ctx, organizationId, siteId, 'site.view');
  const view = await loadStructureView(ctx, site);
  return pageOfList(ctx, `site-section-groups:${site.id}`, query, groupsOf(view.model), (g) => g.row.id, (g) => presentGroup(ctx, view, g));
}

async function presentOne(ctx: Context, site: SiteRow, groupId: string): Promise<SiteSectionGroup> {
  const view = await loadStructureView(ctx, site);
  const group = findGroup(view.model, groupId);
  if (!group) throw new NotFound(`No section group "${groupId}" exists in this site.`);
  return presentGroup(ctx, view, group);
}

/**
 * Creates a section group. It takes the place of the first listed section (at the top level: the place of
 * that section's group when it was in one), else goes at the end; the listed sections move into it, in order.
 */
export async function createGroup(ctx: Context, organizationId: string, siteId: string, body: CreateGroupBody): Promise<SiteSectionGroup> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const layout = await loadLayout(tx, site.id);
    if (layout.stored.sections.size === 0) {
      throw new BadRequest('This site has no sections, so it cannot have section groups: add a section first (POST …/sections).');
    }
    const sections = [...new Set(body.sections ?? [])];
    const missing = sections.find((id) => !sectionPlace(layout, id));
    if (missing) throw new BadRequest(`Section "${missing}" is not a section of this site: list only ids of this site's sections in "sections".`);
    const id = tx.ids.next();
    await tx.db
      .insertInto('site_section_groups')
      .values({ id, site_id: site.id, title: body.title, icon: body.icon ?? null, position: layout.top.length + 1, created_at: tx.clock.now().toISOString() })
      .execute();
    // Where the group goes: the first listed section's top-level place.
    let index = layout.top.length;
    if (sections.length) {
      const first = sectionPlace(layout, sections[0]!)!;
      index = first.group === null ? first.index : layout.top.findIndex((t) => t.kind === 'group' && t.id === first.group) + 1;
    }
    const marker = { kind: 'group' as const, id };
    layout.top.splice(index, 0, marker);
    for (const sectionId of sections) detachSection(layout, sectionId);
    layout.groups.set(id, sections);
    layout.stored.groups.set(id, -1);
    await saveLayout(tx, layout);
    await ensureSiteDefaultSection(tx, site.id);
    await touchSite(tx, site.id);
    return presentOne(tx, site, id);
  });
}

export async function updateGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, body: UpdateGroupBody): Promise<SiteSectionGroup> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const row = await tx.db.selectFrom('site_section_groups').select('id').where('id', '=', groupId).where('site_id', '=', site.id).executeTakeFirst();
    if (!row) throw new NotFound(`No section group "${groupId}" exists in this site.`);
    const changes: { title?: string; icon?: string | null } = {};
    if (body.title !== undefined) changes.title = body.title;
    if (body.icon !== undefined) changes.icon = body.icon;
    if (Object.keys(changes).length) await tx.db.updateTable('site_section_groups').set(changes).where('id', '=', groupId).execute();
    await touchSite(tx, site.id);
    return presentOne(tx, site, groupId);
  });
}

/** Deletes a group; its sections stay, at the top level, where the group was. False when there was none. */
export async function deleteGroup(ctx: Context, organizationId: string, siteId: string, groupId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const layout = await loadLayout(tx, site.id);
    const members = layout.groups.get(groupId);
    if (!members) return false;
    const index = layout.top.findIndex((t) => t.kind === 'group' && t.id === groupId);
    layout.top.splice(index, 1, ...members.map((sectionId) => ({ kind: 'section' as const, id: sectionId })));
    layout.groups.delete(groupId);
    await saveLayout(tx, layout);
    await tx.db.deleteFrom('site_section_groups').where('id', '=', groupId).execute();
    await touchSite(tx, site.id);
    return true;
  });
}

/** Appends a section of the site to a group (taking it out of wherever it was). */
export async function addSectionToGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, body: AddSectionToGroupBody): Promise<SiteSectionGroup> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const layout = await loadLayout(tx, site.id);
    if (!layout.groups.has(groupId)) throw new NotFound(`No section group "${groupId}" exists in this site.`);
    if (!sectionPlace(layout, body.sectionId)) throw new BadRequest(`Section "${body.sectionId}" is not a section of this site.`);
    detachSection(layout, body.sectionId);
    layout.groups.get(groupId)!.push(body.sectionId);
    await saveLayout(tx, layout);
    await ensureSiteDefaultSection(tx, site.id);
    await touchSite(tx, site.id);
    return presentOne(tx, site, groupId);
  });
}

/** Takes a section out of a group, to the top level right after the group; false when it was not in it. */
export async function removeSectionFromGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, sectionId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const layout = await loadLayout(tx, site.id);
    const members = layout.groups.get(groupId);
    if (!members || !members.includes(sectionId)) return false;
    detachSection(layout, sectionId);
    const index = layout.top.findIndex((t) => t.kind === 'group' && t.id === groupId);
    layout.top.splice(index + 1, 0, { kind: 'section', id: sectionId });
    await saveLayout(tx, layout);
    await touchSite(tx, site.id);
    return true;
  });
}
