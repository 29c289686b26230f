import type { Context } from '../../context.ts';
import { siteLocation, sitePublishedUrl, withShareKey } from '../../sites/urls.ts';
import type { SiteRow } from '../../access/sites.ts';
import type { PublishingAuth, ShareLink, Site } from './schemas.ts';
import type { SiteView } from './site-views.ts';
import type { ShareLinkView, PublishingAuthView } from './site-views.ts';

export type { SiteView } from './site-views.ts';

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


export function presentPublishingAuth(view: PublishingAuthView): PublishingAuth {
  const presented: PublishingAuth = { object: 'publishing-auth', backend: 'custom', privateKey: view.privateKey };
  if (view.fallbackUrl) presented.fallbackURL = view.fallbackUrl;
  return presented;
}
