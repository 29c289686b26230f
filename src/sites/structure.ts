import type { Context } from '../context.ts';
import type { SiteRow, SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow, SpaceRow } from '../db/rows.ts';
import { byPosition } from '../ordering.ts';

/**
 * The read model of a site's structure: what the published reader renders and what the API presents.
 * Sections and section groups share one ordering at the top of a site (`position`); sections inside a group
 * are ordered by their own `position`; site spaces are ordered inside their section, or at the root of a
 * site without sections.
 */
export type { SiteSectionGroupRow, SiteSectionRow, SiteSpaceRow };

export interface StructureSiteSpace {
  row: SiteSpaceRow;
  space: SpaceRow;
  isDefault: boolean;
}

export interface StructureSection {
  row: SiteSectionRow;
  isDefault: boolean;
  siteSpaces: StructureSiteSpace[];
}

export interface StructureGroup {
  row: SiteSectionGroupRow;
  sections: StructureSection[];
}

export type StructureItem = { kind: 'section'; section: StructureSection } | { kind: 'group'; group: StructureGroup };

export type SiteStructureModel = { type: 'sections'; items: StructureItem[] } | { type: 'siteSpaces'; siteSpaces: StructureSiteSpace[] };


/**
 * Picks the default of a container: the stored one when it is among the items, else the first. Exactly one
 * item is default when the list is not empty.
 */
function markDefault<T extends { isDefault: boolean }>(items: T[], isStored: (item: T) => boolean): T[] {
  const index = Math.max(0, items.findIndex(isStored));
  return items.map((item, i) => ({ ...item, isDefault: i === index }));
}

/**
 * Loads a site's structure, ordered, with one query per table. Site spaces whose space is deleted (in the
 * trash) are left out; a section is kept even when it has no site space left (the API shows it).
 */
export async function loadSiteStructure(ctx: Pick<Context, 'db'>, site: SiteRow): Promise<SiteStructureModel> {
  return (await loadSiteStructures(ctx, [site])).get(site.id)!;
}

/** The structures of many sites, with one query per table whatever their number. */
export async function loadSiteStructures(ctx: Pick<Context, 'db'>, sites: SiteRow[]): Promise<Map<string, SiteStructureModel>> {
  const models = new Map<string, SiteStructureModel>();
  if (sites.length === 0) return models;
  const ids = sites.map((s) => s.id);
  const [groups, sections, siteSpaces] = await Promise.all([
    ctx.db.selectFrom('site_section_groups').selectAll().where('site_id', 'in', ids).execute(),
    ctx.db.selectFrom('site_sections').selectAll().where('site_id', 'in', ids).execute(),
    ctx.db.selectFrom('site_spaces').selectAll().where('site_id', 'in', ids).execute(),
  ]);
  const spaceIds = [...new Set(siteSpaces.map((s) => s.space_id))];
  const spaces = spaceIds.length
    ? await ctx.db.selectFrom('spaces').selectAll().where('id', 'in', spaceIds).where('deleted_at', 'is', null).execute()
    : [];
  const spaceById = new Map(spaces.map((s) => [s.id, s]));
  const ofSite = <T extends { site_id: string }>(rows: T[], siteId: string) => rows.filter((row) => row.site_id === siteId);
  for (const site of sites) {
    models.set(site.id, buildStructure(site, { groups: ofSite(groups, site.id), sections: ofSite(sections, site.id), siteSpaces: ofSite(siteSpaces, site.id) }, spaceById));
  }
  return models;
}

interface StructureRows {
  groups: SiteSectionGroupRow[];
  sections: SiteSectionRow[];
  siteSpaces: SiteSpaceRow[];
}

/** The ordered model of one site from its rows, with its defaults marked (the one default rule). */
function buildStructure(site: SiteRow, rows: StructureRows, spaceById: Map<string, SpaceRow>): SiteStructureModel {
  const { groups, sections, siteSpaces } = rows;
  const siteSpacesIn = (sectionId: string | null, defaultId: string | null): StructureSiteSpace[] => {
    const inContainer = siteSpaces.filter((s) => s.section_id === sectionId && spaceById.has(s.space_id)).sort(byPosition);
    return markDefault(
      inContainer.map((row) => ({ row, space: spaceById.get(row.space_id)!, isDefault: false })),
      (item) => item.row.id === defaultId,
    );
  };

  if (sections.length === 0) {
    return { type: 'siteSpaces', siteSpaces: siteSpacesIn(null, site.default_site_space_id) };
  }

  const built = new Map<string, StructureSection>();
  for (const row of sections) built.set(row.id, { row, isDefault: false, siteSpaces: siteSpacesIn(row.id, row.default_site_space_id) });
  // Exactly one default section in the whole site: the stored one, else the first in order.
  const groupIds = new Set(groups.map((g) => g.id));
  const topSections = sections.filter((s) => !s.group_id || !groupIds.has(s.group_id));
  const top: Array<{ id: string; position: number; item: StructureItem }> = [
    ...topSections.map((row) => ({ id: row.id, position: row.position, item: { kind: 'section' as const, section: built.get(row.id)! } })),
    ...groups.map((row) => ({
      id: row.id,
      position: row.position,
      item: {
        kind: 'group' as const,
        group: { row, sections: sections.filter((s) => s.group_id === row.id).sort(byPosition).map((s) => built.get(s.id)!) },
      },
    })),
  ].sort(byPosition);
  const items = top.map((t) => t.item);
  return setSectionDefault({ type: 'sections', items }, site.default_section_id);
}

/** The default site space of a model: the default one of the default section, or of the root. */
export function defaultSiteSpace(model: SiteStructureModel): StructureSiteSpace | null {
  const list = model.type === 'siteSpaces' ? model.siteSpaces : (sectionsOf(model).find((s) => s.isDefault)?.siteSpaces ?? []);
  return list.find((s) => s.isDefault) ?? null;
}

/** Marks the default section of a sections model: the one with `defaultId` when present, else the first. */
function setSectionDefault(model: { type: 'sections'; items: StructureItem[] }, defaultId: string | null): SiteStructureModel {
  const all = sectionsOf(model);
  const chosen = all.find((s) => s.row.id === defaultId) ?? all[0];
  for (const section of all) section.isDefault = section === chosen;
  return model;
}

/**
 * The structure a reader sees: sections and site spaces whose condition does not hold are dropped, then
 * sections left with no site space and groups left with no section. When a default is dropped, the first
 * remaining item of its container becomes the default.
 */
export function visibleStructure(model: SiteStructureModel, holds: (condition: string | null) => boolean): SiteStructureModel {
  const keepSpaces = (list: StructureSiteSpace[]): StructureSiteSpace[] => {
    const kept = list.filter((s) => holds(s.row.condition));
    const index = Math.max(0, kept.findIndex((s) => s.isDefault));
    return kept.map((s, i) => ({ ...s, isDefault: i === index }));
  };
  if (model.type === 'siteSpaces') return { type: 'siteSpaces', siteSpaces: keepSpaces(model.siteSpaces) };

  const keepSection = (section: StructureSection): StructureSection | null => {
    if (!holds(section.row.condition)) return null;
    const siteSpaces = keepSpaces(section.siteSpaces);
    return siteSpaces.length ? { ...section, siteSpaces } : null;
  };
  const items: StructureItem[] = [];
  let defaultId: string | null = null;
  for (const item of model.items) {
    if (item.kind === 'section') {
      const section = keepSection(item.section);
      if (section) items.push({ kind: 'section', section });
    } else {
      const sections = item.group.sections.map(keepSection).filter((s): s is StructureSection => s !== null);
      if (sections.length) items.push({ kind: 'group', group: { ...item.group, sections } });
    }
  }
  for (const section of sectionsOf(model)) if (section.isDefault) defaultId = section.row.id;
  return setSectionDefault({ type: 'sections', items }, defaultId);
}

/** The sections of a model, in order, groups flattened (none for a site without sections). */
export function sectionsOf(model: SiteStructureModel): StructureSection[] {
  if (model.type === 'siteSpaces') return [];
  return model.items.flatMap((item) => (item.kind === 'section' ? [item.section] : item.group.sections));
}

/** Every site space of a model, in order (sections flattened). */
export function siteSpacesOf(model: SiteStructureModel): StructureSiteSpace[] {
  return model.type === 'siteSpaces' ? model.siteSpaces : sectionsOf(model).flatMap((s) => s.siteSpaces);
}
