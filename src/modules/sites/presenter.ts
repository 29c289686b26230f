import type { Context } from '../../context.ts';
import { siteLocation, sitePublishedUrl, withShareKey } from '../../sites/urls.ts';
import type { SiteRow } from './access.ts';
import type { PublishingAuth, ShareLink, Site } from './schemas.ts';

/** A site as services load it: the row, how many site spaces it has, and the space of its default site space. */
export interface SiteView {
  site: SiteRow;
  siteSpaces: number;
  defaultSpaceId: string | null;
}

export async function loadSiteView(ctx: Context, site: SiteRow): Promise<SiteView> {
  const [view] = await loadSiteViews(ctx, [site]);
  return view!;
}

const byPosition = <T extends { position: number; id: string }>(a: T, b: T) =>
  Number(a.position) - Number(b.position) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

/**
 * The views of many sites in three queries, whatever their number. Site spaces whose space is in the trash
 * are not counted (the published reader leaves them out too). The default is chosen as the reader chooses
 * it (src/sites/structure.ts): the stored default section when it exists, else the first section in the
 * site's order; in it (or at the root of a site without sections) the stored default site space when it is
 * there, else the first.
 */
export async function loadSiteViews(ctx: Pick<Context, 'db'>, sites: SiteRow[]): Promise<SiteView[]> {
  if (sites.length === 0) return [];
  const ids = sites.map((s) => s.id);
  const [siteSpaces, sections, groups] = await Promise.all([
    ctx.db
      .selectFrom('site_spaces')
      .innerJoin('spaces', 'spaces.id', 'site_spaces.space_id')
      .select(['site_spaces.id', 'site_spaces.site_id', 'site_spaces.section_id', 'site_spaces.space_id', 'site_spaces.position'])
      .where('site_spaces.site_id', 'in', ids)
      .where('spaces.deleted_at', 'is', null)
      .execute(),
    ctx.db
      .selectFrom('site_sections')
      .select(['id', 'site_id', 'group_id', 'position', 'default_site_space_id'])
      .where('site_id', 'in', ids)
      .execute(),
    ctx.db.selectFrom('site_section_groups').select(['id', 'site_id', 'position']).where('site_id', 'in', ids).execute(),
  ]);
  return sites.map((site) => {
    const spacesOfSite = siteSpaces.filter((s) => s.site_id === site.id);
    const sectionsOfSite = sections.filter((s) => s.site_id === site.id);
    const pickSpace = (sectionId: string | null, stored: string | null): string | null => {
      const inContainer = spacesOfSite.filter((s) => s.section_id === sectionId).sort(byPosition);
      return (inContainer.find((s) => s.id === stored) ?? inContainer[0])?.space_id ?? null;
    };
    let defaultSpaceId: string | null;
    if (sectionsOfSite.length === 0) {
      defaultSpaceId = pickSpace(null, site.default_site_space_id);
    } else {
      const section = sectionsOfSite.find((s) => s.id === site.default_section_id) ?? firstSection(sectionsOfSite, groups.filter((g) => g.site_id === site.id));
      defaultSpaceId = pickSpace(section.id, section.default_site_space_id);
    }
    // Site spaces in sections that are gone cannot be (sections cascade); count those of live spaces.
    return { site, siteSpaces: spacesOfSite.length, defaultSpaceId };
  });
}

/** The first section in reading order: top-level sections and groups by position, a group's sections by theirs. */
function firstSection<S extends { id: string; group_id: string | null; position: number }>(sections: S[], groups: Array<{ id: string; position: number }>): S {
  const groupIds = new Set(groups.map((g) => g.id));
  const top = [
    ...sections.filter((s) => !s.group_id || !groupIds.has(s.group_id)).map((s) => ({ id: s.id, position: s.position, section: s as S | null })),
    ...groups.map((g) => ({ id: g.id, position: g.position, section: null as S | null })),
  ].sort(byPosition);
  for (const item of top) {
    if (item.section) return item.section;
    const inGroup = sections.filter((s) => s.group_id === item.id).sort(byPosition);
    if (inGroup.length) return inGroup[0]!;
  }
  return [...sections].sort(byPosition)[0]!;
}

/**
 * The API object of a site. Quire has no separate editing app, so `urls.app` is the API address; `features`
 * is empty (no plans); `urls.published` is there only while the site is published. Secrets (the visitor-auth
 * key, share keys) are never part of it.
 */
export function presentSite(ctx: Pick<Context, 'config'>, view: SiteView): Site {
  const { site } = view;
  const location = siteLocation(ctx, site.organization_id, site.id);
  const presented: Site = {
    object: 'site',
    id: site.id,
    type: site.type as Site['type'],
    title: site.title,
    basename: site.basename,
    visibility: site.visibility as Site['visibility'],
    published: Boolean(site.published),
    siteSpaces: view.siteSpaces,
    createdAt: site.created_at,
    adaptiveContent: { enabled: Boolean(site.adaptive_enabled) },
    agentsContext: site.agents_context as Site['agentsContext'],
    features: [],
    defaultSpace: view.defaultSpaceId,
    urls: { location, app: location },
  };
  if (site.hostname) presented.hostname = site.hostname;
  if (site.proxy) presented.proxy = { origin: site.proxy, target: sitePublishedUrl(ctx, site) };
  if (site.published) presented.urls.published = sitePublishedUrl(ctx, site);
  return presented;
}

/** A share link with its key read back from its sealed form. */
export interface ShareLinkView {
  id: string;
  name: string;
  active: boolean;
  createdAt: string;
  key: string;
  site: SiteRow;
}

export function shareLinkLocation(ctx: Pick<Context, 'config'>, site: Pick<SiteRow, 'organization_id' | 'id'>, shareLinkId: string): string {
  return `${siteLocation(ctx, site.organization_id, site.id)}/share-links/${shareLinkId}`;
}

/** The API object of a share link: its published URL carries the key (only administrators of the organization see links). */
export function presentShareLink(ctx: Pick<Context, 'config'>, view: ShareLinkView): ShareLink {
  return {
    object: 'share-link',
    id: view.id,
    createdAt: view.createdAt,
    name: view.name,
    active: view.active,
    urls: { published: withShareKey(sitePublishedUrl(ctx, view.site), view.key) },
  };
}

export interface PublishingAuthView {
  privateKey: string;
  fallbackUrl: string | null;
}

export function presentPublishingAuth(view: PublishingAuthView): PublishingAuth {
  const presented: PublishingAuth = { object: 'publishing-auth', backend: 'custom', privateKey: view.privateKey };
  if (view.fallbackUrl) presented.fallbackURL = view.fallbackUrl;
  return presented;
}
