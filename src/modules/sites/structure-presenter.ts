import type { Context } from '../../context.ts';
import {
  sectionsOf,
  type SiteStructureModel,
  type StructureGroup,
  type StructureSection,
  type StructureSiteSpace,
} from '../../sites/structure.ts';
import { joinSitePath, siteLocation, sitePublishedUrl, withShareKey } from '../../sites/urls.ts';
import type { SiteRow } from '../../access/sites.ts';
import { presentSpace } from '../spaces/presenter.ts';
import type { StructureView } from './structure-view.ts';
import type { SiteSection, SiteSectionGroup, SiteSpace, SiteStructure } from './structure-schemas.ts';

export type { StructureView } from './structure-view.ts';

type UrlContext = Pick<Context, 'config'>;

function publishedRoot(ctx: UrlContext, view: StructureView): string | null {
  return view.site.published ? sitePublishedUrl(ctx, view.site) : null;
}

export function sectionLocation(ctx: UrlContext, site: SiteRow, id: string): string {
  return `${siteLocation(ctx, site.organization_id, site.id)}/sections/${id}`;
}

export function siteSpaceLocation(ctx: UrlContext, site: SiteRow, id: string): string {
  return `${siteLocation(ctx, site.organization_id, site.id)}/site-spaces/${id}`;
}

export function presentSiteSpace(ctx: UrlContext, view: StructureView, item: StructureSiteSpace, section: StructureSection | null): SiteSpace {
  const actor = view.actors.get(item.space.id)!;
  const presented: SiteSpace = {
    object: 'site-space',
    id: item.row.id,
    path: item.row.path,
    title: item.space.title,
    default: item.isDefault,
    space: presentSpace(ctx, { space: item.space, actor }),
    urls: { location: siteSpaceLocation(ctx, view.site, item.row.id) },
  };
  const root = publishedRoot(ctx, view);
  if (root) {
    const sectionSegment = section && !section.isDefault ? section.row.path : null;
    presented.urls.published = withShareKey(joinSitePath(root, sectionSegment, item.isDefault ? null : item.row.path), view.shareKey);
  }
  if (item.row.section_id) presented.section = item.row.section_id;
  if (item.row.condition) presented.condition = item.row.condition;
  return presented;
}

export function presentSection(ctx: UrlContext, view: StructureView, section: StructureSection): SiteSection {
  const row = section.row;
  const presented: SiteSection = {
    object: 'site-section',
    id: row.id,
    title: row.title,
    path: row.path,
    default: section.isDefault,
    siteSpaces: section.siteSpaces.map((s) => presentSiteSpace(ctx, view, s, section)),
    urls: { location: sectionLocation(ctx, view.site, row.id) },
  };
  const root = publishedRoot(ctx, view);
  if (root) presented.urls.published = withShareKey(joinSitePath(root, section.isDefault ? null : row.path), view.shareKey);
  if (row.description !== null) presented.description = row.description;
  if (row.condition) presented.condition = row.condition;
  if (row.group_id) presented.sectionGroup = row.group_id;
  if (row.icon) presented.icon = row.icon;
  return presented;
}

export function presentGroup(ctx: UrlContext, view: StructureView, group: StructureGroup): SiteSectionGroup {
  const presented: SiteSectionGroup = {
    object: 'site-section-group',
    id: group.row.id,
    title: group.row.title,
    sections: group.sections.map((s) => presentSection(ctx, view, s)),
  };
  if (group.row.icon) presented.icon = group.row.icon;
  return presented;
}

export function presentStructure(ctx: UrlContext, view: StructureView): SiteStructure {
  const model = view.model;
  if (model.type === 'siteSpaces') return { type: 'siteSpaces', structure: model.siteSpaces.map((s) => presentSiteSpace(ctx, view, s, null)) };
  return {
    type: 'sections',
    structure: model.items.map((item) => (item.kind === 'section' ? presentSection(ctx, view, item.section) : presentGroup(ctx, view, item.group))),
  };
}

// Finding things in a view.

export function groupsOf(model: SiteStructureModel): StructureGroup[] {
  return model.type === 'sections' ? model.items.flatMap((i) => (i.kind === 'group' ? [i.group] : [])) : [];
}

/** Every site space with the section holding it (null at the root), in order. */
export function siteSpacesWithSections(model: SiteStructureModel): Array<{ item: StructureSiteSpace; section: StructureSection | null }> {
  if (model.type === 'siteSpaces') return model.siteSpaces.map((item) => ({ item, section: null }));
  return sectionsOf(model).flatMap((section) => section.siteSpaces.map((item) => ({ item, section })));
}

export function findSection(model: SiteStructureModel, id: string): StructureSection | undefined {
  return sectionsOf(model).find((s) => s.row.id === id);
}

export function findGroup(model: SiteStructureModel, id: string): StructureGroup | undefined {
  return groupsOf(model).find((g) => g.row.id === id);
}

export function findSiteSpace(model: SiteStructureModel, id: string) {
  return siteSpacesWithSections(model).find((s) => s.item.row.id === id);
}
