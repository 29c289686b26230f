import { conditionHolds } from '../expressions/conditions.ts';
import {
  loadSiteStructure,
  sectionsOf,
  visibleStructure,
  type SiteStructureModel,
  type StructureSection,
  type StructureSiteSpace,
} from '../sites/structure.ts';
import { joinSitePath } from '../sites/urls.ts';
import type { Context } from '../context.ts';
import { customizations, structures, views } from './cache.ts';
import { loadStoredCustomizations, siteSettings, siteSpaceSettings, type SiteCustomizationSettings, type StoredCustomizations } from '../sites/customization.ts';
import type { CurrentContent, ReaderSite } from './resolve.ts';
import type { SectionView, SiteView, TabView, VariantView } from './view.ts';

export type { SectionView, SiteView, TabView, VariantView };

interface Address {
  site: ReaderSite;
  root: string;
  origin: string;
}

async function structureOf(ctx: Pick<Context, 'db'>, site: ReaderSite): Promise<SiteStructureModel> {
  const key = `${site.id}:${site.version}`;
  if (!customizations.get(key)) customizations.set(key, await loadStoredCustomizations(ctx, site.id));
  const cached = structures.get(key);
  if (cached) return cached;
  // Only on a miss: the whole row (its defaults), which the request's narrow lookup leaves out.
  const row = await ctx.db.selectFrom('sites').selectAll().where('id', '=', site.id).executeTakeFirst();
  if (!row) throw new Error(`Site ${site.id} disappeared while it was being read.`);
  // Keyed by the version the request saw: a row read after a newer change is only ever fresher.
  const model = await loadSiteStructure(ctx, row);
  structures.set(key, model);
  return model;
}

/**
 * A short key for what this reader sees: one character per section and site space, set when it is shown.
 * Computed on every request (conditions are parsed once and cached), so a view is only built on a miss.
 */
function visibleKey(model: SiteStructureModel, live: Map<string, CurrentContent>, claims: Record<string, unknown>): string {
  let key = '';
  const spaces = (list: StructureSiteSpace[]) => {
    for (const s of list) key += live.has(s.row.space_id) && conditionHolds(s.row.condition, claims) ? '1' : '0';
  };
  if (model.type === 'siteSpaces') spaces(model.siteSpaces);
  else
    for (const section of sectionsOf(model)) {
      key += conditionHolds(section.row.condition, claims) ? '1' : '0';
      spaces(section.siteSpaces);
    }
  return key;
}

/** The structure without site spaces whose space is gone (deleted since the structure was cached). */
function withoutDeadSpaces(model: SiteStructureModel, live: Map<string, CurrentContent>): SiteStructureModel {
  const keep = (list: StructureSiteSpace[]) => list.filter((s) => live.has(s.row.space_id));
  if (model.type === 'siteSpaces') return { type: 'siteSpaces', siteSpaces: keep(model.siteSpaces) };
  const section = (s: StructureSection): StructureSection => ({ ...s, siteSpaces: keep(s.siteSpaces) });
  return {
    type: 'sections',
    items: model.items.map((item) => (item.kind === 'section' ? { kind: 'section', section: section(item.section) } : { kind: 'group', group: { ...item.group, sections: item.group.sections.map(section) } })),
  };
}

function variantsOf(list: StructureSiteSpace[], section: SectionView | null): VariantView[] {
  return list.map((s) => ({
    id: s.row.id,
    spaceId: s.row.space_id,
    title: s.space.title,
    segments: [section && !section.isDefault ? section.segment : '', s.isDefault ? '' : s.row.path].filter(Boolean),
    isDefault: s.isDefault,
    section,
    language: s.space.language,
  }));
}

function buildView(address: Address, model: SiteStructureModel, stored: StoredCustomizations, key: string): SiteView {
  const settings = siteSettings(address.site, stored);
  const settingsBySiteSpace = new Map<string, SiteCustomizationSettings>();
  for (const id of stored.siteSpaces.keys()) settingsBySiteSpace.set(id, siteSpaceSettings(address.site, stored, id));
  const base = { siteId: address.site.id, title: settings.title || address.site.title, visibility: address.site.visibility, root: address.root, origin: address.origin, key, settings, settingsBySiteSpace };
  if (model.type === 'siteSpaces') {
    const variants = variantsOf(model.siteSpaces, null);
    return { ...base, tabs: [], sections: [], variants, defaultVariant: variants.find((v) => v.isDefault) ?? null };
  }
  const sectionView = (s: StructureSection): SectionView => {
    const view: SectionView = { id: s.row.id, title: s.row.title, description: s.row.description, segment: s.row.path, isDefault: s.isDefault, variants: [] };
    view.variants = variantsOf(s.siteSpaces, view);
    return view;
  };
  const tabs: TabView[] = model.items.map((item) =>
    item.kind === 'section'
      ? { kind: 'section', section: sectionView(item.section) }
      : { kind: 'group', id: item.group.row.id, title: item.group.row.title, sections: item.group.sections.map(sectionView) },
  );
  const sections = tabs.flatMap((tab) => (tab.kind === 'section' ? [tab.section] : tab.sections));
  const variants = sections.flatMap((s) => s.variants);
  const defaultSection = sections.find((s) => s.isDefault) ?? null;
  return { ...base, tabs, sections, variants, defaultVariant: defaultSection?.variants.find((v) => v.isDefault) ?? null };
}

/** The view of a site for a reader with these claims, given the live content of its spaces. */
export function siteView(ctx: Pick<Context, 'db'>, address: Address, live: Map<string, CurrentContent>, claims: Record<string, unknown>): SiteView | Promise<SiteView> {
  // Answered without a promise when both caches hold what is asked (the hot path).
  const key = `${address.site.id}:${address.site.version}`;
  const model = structures.get(key);
  const stored = customizations.get(key);
  return model && stored ? viewOf(address, model, stored, live, claims) : structureOf(ctx, address.site).then((loaded) => viewOf(address, loaded, customizations.get(key)!, live, claims));
}

function viewOf(address: Address, model: SiteStructureModel, stored: StoredCustomizations, live: Map<string, CurrentContent>, claims: Record<string, unknown>): SiteView {
  const shown = visibleKey(model, live, claims);
  const key = `${address.site.id}:${address.site.version}:${shown}:${address.origin}${address.root}`;
  const cached = views.get(key);
  if (cached) return cached;
  const visible = visibleStructure(withoutDeadSpaces(model, live), (condition) => conditionHolds(condition, claims));
  const view = buildView(address, visible, stored, key);
  views.set(key, view);
  return view;
}

/** The customization a page of this variant is shown with (its site space's override, if any). */
export function settingsOf(view: SiteView, variant: VariantView | null): SiteCustomizationSettings {
  return (variant && view.settingsBySiteSpace.get(variant.id)) || view.settings;
}

/** The URL path of a place in a variant: its root, or a page path below it. */
export function variantHref(view: SiteView, variant: VariantView, path?: string | null): string {
  return joinSitePath(view.root, ...variant.segments, path) || '/';
}

/** The URL path of the site root. */
export function rootHref(view: Pick<SiteView, 'root'>): string {
  return view.root || '/';
}

/** A path below the site root (special pages such as `~search`). */
export function siteHref(view: Pick<SiteView, 'root'>, ...segments: string[]): string {
  return `${view.root}/${segments.join('/')}`;
}

/**
 * Which variant a path addresses, and the page path left: a non-default section's segment first, then a
 * non-default variant's; defaults take no segment. Sections and variants the reader may not see are not in
 * the view, so their paths fall through to a page lookup and a 404.
 */
export function locate(view: SiteView, segments: string[]): { variant: VariantView; rest: string[] } | null {
  let index = 0;
  let candidates: VariantView[];
  if (view.sections.length > 0) {
    const named = view.sections.find((s) => !s.isDefault && s.segment === segments[0]);
    const section = named ?? view.sections.find((s) => s.isDefault);
    if (!section) return null;
    if (named) index++;
    candidates = section.variants;
  } else candidates = view.variants;
  const namedVariant = candidates.find((v) => !v.isDefault && v.id && segments[index] !== undefined && lastSegment(v) === segments[index]);
  const variant = namedVariant ?? candidates.find((v) => v.isDefault);
  if (!variant) return null;
  if (namedVariant) index++;
  return { variant, rest: segments.slice(index) };
}

function lastSegment(variant: VariantView): string | undefined {
  return variant.isDefault ? undefined : variant.segments[variant.segments.length - 1];
}
