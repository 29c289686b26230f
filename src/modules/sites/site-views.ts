import type { Context } from '../../context.ts';
import type { SiteRow } from '../../db/rows.ts';
import { defaultSiteSpace, loadSiteStructures, siteSpacesOf } from '../../sites/structure.ts';

/** A site as services load it: the row, how many site spaces it has, and the space of its default site space. */
export interface SiteView {
  site: SiteRow;
  siteSpaces: number;
  defaultSpaceId: string | null;
}

export async function loadSiteView(ctx: Pick<Context, 'db'>, site: SiteRow): Promise<SiteView> {
  const [view] = await loadSiteViews(ctx, [site]);
  return view!;
}

/**
 * The views of many sites, with one query per table whatever their number. Site spaces whose space is in
 * the trash are not counted (the published reader leaves them out too); the default is the reader's
 * (src/sites/structure.ts).
 */
export async function loadSiteViews(ctx: Pick<Context, 'db'>, sites: SiteRow[]): Promise<SiteView[]> {
  const models = await loadSiteStructures(ctx, sites);
  return sites.map((site) => {
    const model = models.get(site.id)!;
    return { site, siteSpaces: siteSpacesOf(model).length, defaultSpaceId: defaultSiteSpace(model)?.space.id ?? null };
  });
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

export interface PublishingAuthView {
  privateKey: string;
  fallbackUrl: string | null;
}
