import type { Context } from '../../context.ts';
import type { Page } from '../../db/keyset.ts';
import { NotFound } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { searchSite } from '../../published/search.ts';
import { readerSiteView } from '../../published/site-view.ts';
import { siteAccess } from '../../access/sites.ts';
import type { SearchSpace } from '../search/schemas.ts';
import type { SiteSearchBody, SiteSearchQuery } from './schemas.ts';

/**
 * searchSiteContent: the reader's search over a site as a whole, answered as spaces with their matching
 * pages, for a member (site.view) seeing what a reader without claims sees: sections and site spaces behind
 * a condition, hidden pages and `if` blocks are never in it. Each result's `urls.app` is its published address.
 */
export async function searchSiteContent(ctx: Context, organizationId: string, siteId: string, body: SiteSearchBody, query: SiteSearchQuery): Promise<Page<SearchSpace>> {
  const { site, actor } = await siteAccess(ctx, organizationId, siteId);
  authorize(ctx, 'site.view', actor);
  const reader = await readerSiteView(ctx, site);
  if (!reader) throw new NotFound(`No site "${siteId}" exists in this organization.`);
  const { view, live } = reader;
  const mode = body.scope?.mode ?? (body.mode === 'specific' ? 'specific' : body.mode === 'current' ? 'current' : 'all');
  let variants = view.variants;
  if (mode === 'specific') {
    const ids = new Set(body.scope?.siteSpaceIds ?? body.siteSpaceIds ?? []);
    variants = view.variants.filter((v) => ids.has(v.id));
  } else if (mode === 'default' || mode === 'current') {
    const extra = new Set(body.scope?.includedSiteSpaces ?? (body.siteSpaceId ? [body.siteSpaceId] : []));
    variants = view.variants.filter((v) => v.isDefault || extra.has(v.id));
  }
  const results = await searchSite(ctx, view, live, body.query, { variants, limit: Math.min(query.limit ?? 50, 100) });
  const bySpace = new Map<string, SearchSpace>();
  for (const r of results) {
    const variant = view.variants.find((v) => v.id === r.siteSpaceId)!;
    let space = bySpace.get(r.spaceId);
    if (!space) bySpace.set(r.spaceId, (space = { id: r.spaceId, title: variant.title, pages: [] }));
    const app = `${view.origin}${r.url}`;
    space.pages.push({
      id: r.pageId,
      title: r.title,
      path: r.path,
      sections: r.sections.map((s) => ({ id: s.id, title: s.id === '' ? r.title : s.title, path: s.id === '' ? r.path : `${r.path}#${s.id}`, body: s.snippet, urls: { app: `${view.origin}${s.url}` } })),
      urls: { app },
    });
  }
  const items = [...bySpace.values()];
  return { items, count: items.length };
}
