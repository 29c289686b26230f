import type { Context } from '../context.ts';

/**
 * Where things of a site live. A site is served by Quire's published reader at
 * `{QUIRE_PUBLIC_URL}/sites/{organizationId}/{basename}` (works on localhost with no DNS) and, when it has a
 * hostname, at the root of that host. Inside a site, the default section and the default site space of a
 * container have no path segment of their own:
 *   site root / [section path] / [site space path] / page path
 */
export interface SiteAddress {
  organization_id: string;
  basename: string;
  hostname: string | null;
}

type UrlContext = Pick<Context, 'config'>;

/** The root of a site under Quire's public URL, without a trailing slash. */
export function sitePathRoot(site: Pick<SiteAddress, 'organization_id' | 'basename'>): string {
  return `/sites/${encodeURIComponent(site.organization_id)}/${encodeURIComponent(site.basename)}`;
}

/** The absolute published address of a site (by path under QUIRE_PUBLIC_URL), without a trailing slash. */
export function sitePublishedUrl(ctx: UrlContext, site: SiteAddress): string {
  return `${ctx.config.publicUrl}${sitePathRoot(site)}`;
}

/** Joins path segments under a site address; empty segments (defaults) add nothing. */
export function joinSitePath(base: string, ...segments: Array<string | null | undefined>): string {
  const rest = segments.filter((s): s is string => Boolean(s)).map((s) => s.split('/').map(encodeURIComponent).join('/'));
  return rest.length ? `${base}/${rest.join('/')}` : base;
}

export function siteLocation(ctx: UrlContext, organizationId: string, siteId: string): string {
  return `${ctx.config.publicUrl}/v1/orgs/${organizationId}/sites/${siteId}`;
}

/**
 * A published address that admits holders of a share key: the reader checks `share`, sets a cookie for the
 * site, and redirects to the same address without it, so the key does not linger in the address bar.
 */
export function withShareKey(url: string, key: string | null | undefined): string {
  if (!key) return url;
  return `${url}${url.includes('?') ? '&' : '?'}share=${encodeURIComponent(key)}`;
}
