import { inTransaction, type Context } from '../../context.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { touchSite, type SiteRow } from '../../access/sites.ts';
import { containerSiteSpaces, ensureSiteDefaultSection, structureAccess } from './placement.ts';
import { findGroup, findSection, findSiteSpace, presentGroup, presentSection, presentSiteSpace } from './structure-presenter.ts';
import { loadStructureView } from './structure-view.ts';
import type { MovePosition, Pointer, SiteSection, SiteSectionGroup, SiteSpace, SiteStructureItem, SortStructureBody } from './structure-schemas.ts';

/**
 * The order of a site's sections and groups, edited in memory and written back. Sections and groups share
 * the top-level order; each group orders its own sections. Lists are small, so a change renumbers the
 * affected lists 1, 2, 3… (only rows whose position or group changes are written).
 */
export type TopItem = { kind: 'section' | 'group'; id: string };

export interface Layout {
  top: TopItem[];
  groups: Map<string, string[]>;
  /** What is stored now, to write only what changes. */
  stored: { sections: Map<string, { position: number; group: string | null }>; groups: Map<string, number> };
}

const order = (a: { position: number; id: string }, b: { position: number; id: string }) => a.position - b.position || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export async function loadLayout(ctx: Pick<Context, 'db'>, siteId: string): Promise<Layout> {
  const [sections, groups] = await Promise.all([
    ctx.db.selectFrom('site_sections').select(['id', 'position', 'group_id']).where('site_id', '=', siteId).execute(),
    ctx.db.selectFrom('site_section_groups').select(['id', 'position']).where('site_id', '=', siteId).execute(),
  ]);
  const groupIds = new Set(groups.map((g) => g.id));
  const inGroup = (s: { group_id: string | null }) => s.group_id !== null && groupIds.has(s.group_id);
  const top = [
    ...sections.filter((s) => !inGroup(s)).map((s) => ({ kind: 'section' as const, id: s.id, position: s.position })),
    ...groups.map((g) => ({ kind: 'group' as const, id: g.id, position: g.position })),
  ]
    .sort(order)
    .map(({ kind, id }) => ({ kind, id }));
  const members = new Map<string, string[]>();
  for (const g of groups) members.set(g.id, sections.filter((s) => s.group_id === g.id).sort(order).map((s) => s.id));
  return {
    top,
    groups: members,
    stored: {
      sections: new Map(sections.map((s) => [s.id, { position: s.position, group: inGroup(s) ? s.group_id : null }])),
      groups: new Map(groups.map((g) => [g.id, g.position])),
    },
  };
}

/** Writes the positions and groups that differ from what is stored. */
export async function saveLayout(ctx: Context, layout: Layout): Promise<void> {
  const writes: Array<() => Promise<unknown>> = [];
  const section = (id: string, position: number, group: string | null) => {
    const stored = layout.stored.sections.get(id);
    if (stored && stored.position === position && stored.group === group) return;
    writes.push(() => ctx.db.updateTable('site_sections').set({ position, group_id: group }).where('id', '=', id).execute());
  };
  layout.top.forEach((item, i) => {
    if (item.kind === 'section') section(item.id, i + 1, null);
    else if (layout.stored.groups.get(item.id) !== i + 1) {
      writes.push(() => ctx.db.updateTable('site_section_groups').set({ position: i + 1 }).where('id', '=', item.id).execute());
    }
  });
  for (const [groupId, ids] of layout.groups) ids.forEach((id, i) => section(id, i + 1, groupId));
  // One transaction holds one connection: the writes run one after another.
  for (const write of writes) await write();
}

/** Where a section is: at the top level, or in a group. */
export function sectionPlace(layout: Layout, id: string): { group: string | null; index: number } | null {
  const top = layout.top.findIndex((t) => t.kind === 'section' && t.id === id);
  if (top >= 0) return { group: null, index: top };
  for (const [group, ids] of layout.groups) {
    const index = ids.indexOf(id);
    if (index >= 0) return { group, index };
  }
  return null;
}

/** Takes a section out of wherever it is. */
export function detachSection(layout: Layout, id: string): void {
  layout.top = layout.top.filter((t) => !(t.kind === 'section' && t.id === id));
  for (const [group, ids] of layout.groups) layout.groups.set(group, ids.filter((s) => s !== id));
}

function anchorOf(position: MovePosition | undefined): { pointer: Pointer; after: boolean } | null {
  if (!position) return null;
  if (position.before) return { pointer: position.before, after: false };
  if (position.after) return { pointer: position.after, after: true };
  return null;
}

function describe(pointer: Pointer): string {
  return `${pointer.type} "${pointer.id}"`;
}

/** Moves a section next to another section (joining its group, or the top level), or to the end of the site. */
export function placeSection(layout: Layout, id: string, position: MovePosition | undefined): void {
  const anchor = anchorOf(position);
  if (anchor && (anchor.pointer.type !== 'site-section' || anchor.pointer.id === id)) {
    throw new BadRequest(`A section can only be placed before or after another section of the site; ${describe(anchor.pointer)} is not one.`);
  }
  if (anchor && !sectionPlace(layout, anchor.pointer.id)) {
    throw new BadRequest(`Cannot place the section next to ${describe(anchor.pointer)}: it is not a section of this site.`);
  }
  detachSection(layout, id);
  if (!anchor) {
    layout.top.push({ kind: 'section', id });
    return;
  }
  const target = sectionPlace(layout, anchor.pointer.id)!;
  const index = target.index + (anchor.after ? 1 : 0);
  if (target.group === null) layout.top.splice(index, 0, { kind: 'section', id });
  else layout.groups.get(target.group)!.splice(index, 0, id);
}

/** Moves a group before or after a top-level item (a section in a group stands for its group), or to the end. */
export function placeGroup(layout: Layout, id: string, position: MovePosition | undefined): void {
  const anchor = anchorOf(position);
  let targetTop: TopItem | null = null;
  if (anchor) {
    const { pointer } = anchor;
    if (pointer.type === 'site-section-group') {
      if (pointer.id === id || !layout.groups.has(pointer.id)) {
        throw new BadRequest(`Cannot place the section group next to ${describe(pointer)}: it is not another section group of this site.`);
      }
      targetTop = { kind: 'group', id: pointer.id };
    } else if (pointer.type === 'site-section') {
      const place = sectionPlace(layout, pointer.id);
      if (!place) throw new BadRequest(`Cannot place the section group next to ${describe(pointer)}: it is not a section of this site.`);
      if (place.group === id) throw new BadRequest(`Cannot place the section group next to ${describe(pointer)}: that section is inside the group itself.`);
      targetTop = place.group === null ? { kind: 'section', id: pointer.id } : { kind: 'group', id: place.group };
    } else {
      throw new BadRequest(`A section group can only be placed next to a section or a section group; ${describe(pointer)} is neither.`);
    }
  }
  layout.top = layout.top.filter((t) => !(t.kind === 'group' && t.id === id));
  if (!targetTop) {
    layout.top.push({ kind: 'group', id });
    return;
  }
  const index = layout.top.findIndex((t) => t.kind === targetTop!.kind && t.id === targetTop!.id) + (anchor!.after ? 1 : 0);
  layout.top.splice(index, 0, { kind: 'group', id });
}

/** Renumbers the site spaces of a container after moving one of them. */
export async function reorderSiteSpace(ctx: Context, siteId: string, siteSpaceId: string, position: MovePosition | undefined): Promise<void> {
  const row = await ctx.db.selectFrom('site_spaces').select(['id', 'section_id']).where('id', '=', siteSpaceId).where('site_id', '=', siteId).executeTakeFirst();
  if (!row) throw new NotFound(`No site space "${siteSpaceId}" exists in this site.`);
  const siblings = await containerSiteSpaces(ctx, siteId, row.section_id);
  const anchor = anchorOf(position);
  if (anchor) {
    const { pointer } = anchor;
    if (pointer.type !== 'site-space' || pointer.id === siteSpaceId) {
      throw new BadRequest(`A site space can only be placed before or after another site space; ${describe(pointer)} is not one.`);
    }
    if (!siblings.some((s) => s.id === pointer.id)) {
      throw new BadRequest(
        `Cannot place the site space next to ${describe(pointer)}: it is not a site space of the same ${row.section_id ? 'section' : 'site root'}. A site space moves only within its container.`,
      );
    }
  }
  const ids = siblings.map((s) => s.id).filter((id) => id !== siteSpaceId);
  if (anchor) ids.splice(ids.indexOf(anchor.pointer.id) + (anchor.after ? 1 : 0), 0, siteSpaceId);
  else ids.push(siteSpaceId);
  const stored = new Map(siblings.map((s) => [s.id, s.position]));
  for (const [i, id] of ids.entries()) {
    if (stored.get(id) !== i + 1) await ctx.db.updateTable('site_spaces').set({ position: i + 1 }).where('id', '=', id).execute();
  }
}

/** Moves a section (deprecated operation moveSiteSection). */
export async function moveSection(ctx: Context, organizationId: string, siteId: string, sectionId: string, position: MovePosition | undefined): Promise<SiteSection> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const layout = await loadLayout(tx, site.id);
    if (!sectionPlace(layout, sectionId)) throw new NotFound(`No section "${sectionId}" exists in this site.`);
    placeSection(layout, sectionId, position);
    await saveLayout(tx, layout);
    await ensureSiteDefaultSection(tx, site.id);
    await touchSite(tx, site.id);
    return presentMovedSection(tx, site, sectionId);
  });
}

/** Moves a section group (deprecated operation moveSiteSectionGroup). */
export async function moveGroup(ctx: Context, organizationId: string, siteId: string, groupId: string, position: MovePosition | undefined): Promise<SiteSectionGroup> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    const layout = await loadLayout(tx, site.id);
    if (!layout.groups.has(groupId)) throw new NotFound(`No section group "${groupId}" exists in this site.`);
    placeGroup(layout, groupId, position);
    await saveLayout(tx, layout);
    await touchSite(tx, site.id);
    const view = await loadStructureView(tx, site);
    return presentGroup(tx, view, findGroup(view.model, groupId)!);
  });
}

/** Moves a site space within its container (deprecated operation moveSiteSpace). */
export async function moveSiteSpace(ctx: Context, organizationId: string, siteId: string, siteSpaceId: string, position: MovePosition | undefined): Promise<SiteSpace> {
  return inTransaction(ctx, async (tx) => {
    const site = await structureAccess(tx, organizationId, siteId, 'site.manage');
    await reorderSiteSpace(tx, site.id, siteSpaceId, position);
    await touchSite(tx, site.id);
    return presentMovedSiteSpace(tx, site, siteSpaceId);
  });
}

async function presentMovedSection(ctx: Context, site: SiteRow, sectionId: string): Promise<SiteSection> {
  const view = await loadStructureView(ctx, site);
  return presentSection(ctx, view, findSection(view.model, sectionId)!);
}

async function presentMovedSiteSpace(ctx: Context, site: SiteRow, siteSpaceId: string): Promise<SiteSpace> {
  const view = await loadStructureView(ctx, site);
  const found = findSiteSpace(view.model, siteSpaceId);
  if (!found) throw new NotFound(`Site space "${siteSpaceId}" publishes a space that is in the trash: restore the space first.`);
  return presentSiteSpace(ctx, view, found.item, found.section);
}

/** sortSiteStructure: moves a site space, section or section group; answers the moved item. */
export async function sortStructure(ctx: Context, organizationId: string, siteId: string, body: SortStructureBody): Promise<SiteStructureItem> {
  const position: MovePosition = {};
  if (body.position.before) position.before = body.position.before;
  if (body.position.after) position.after = body.position.after;
  const { item } = body;
  if (item.type === 'site-space') return moveSiteSpace(ctx, organizationId, siteId, item.id, position);
  if (item.type === 'site-section') return moveSection(ctx, organizationId, siteId, item.id, position);
  return moveGroup(ctx, organizationId, siteId, item.id, position);
}
