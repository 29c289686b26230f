import { sql } from 'kysely';
import type { Context } from '../context.ts';
import { loadTree } from '../content/tree.ts';
import { matchingPages } from '../search/engine.ts';
import { isEmptyQuery, parseSearchQuery } from '../search/query.ts';
import { matchedSections } from '../search/snippets.ts';
import { documentHtml, siteFrame } from './layout.ts';
import type { SiteView } from './model.ts';
import { isHidden } from './navigation.ts';
import { pageHref } from './page.ts';
import { escapeAttribute, escapeHtml } from './render/index.ts';
import type { CurrentContent } from './resolve.ts';
import { searchApiReference } from './openapi-search.ts';
import type { SearchResult } from './search-result.ts';

/**
 * Search over a published site: the current content of the spaces of the variants this reader sees (after
 * conditions), nothing else. Hits are checked against the current tree, so pages that are hidden, gone or
 * not documents since the index was written are never shown.
 */

export type { SearchResult };

export const MAX_RESULTS = 20;
const MAX_QUERY_LENGTH = 200;

/**
 * The pages of the site that match, best first. `variants` narrows the search to some of the variants the
 * reader sees (the API's scopes); `limit` is at most MAX_RESULTS by default.
 */
export async function searchSite(
  ctx: Pick<Context, 'db' | 'dialect'>,
  view: SiteView,
  live: Map<string, CurrentContent>,
  text: string,
  options: { variants?: SiteView['variants']; limit?: number } = {},
): Promise<SearchResult[]> {
  const query = parseSearchQuery(text.slice(0, MAX_QUERY_LENGTH));
  const shown = options.variants ?? view.variants;
  const limit = options.limit ?? MAX_RESULTS;
  const spaceIds = [...new Set(shown.map((v) => v.spaceId))];
  if (isEmptyQuery(query) || spaceIds.length === 0) return [];
  // Twice the room: hits the tree refuses (hidden pages) should not leave the list short.
  const rows = await matchingPages(ctx, query, { spaceIds: sql`(${sql.join(spaceIds)})` }, { offset: 0, limit: limit * 2 });
  const results: SearchResult[] = [];
  for (const row of rows) {
    if (results.length >= limit) break;
    const variant = shown.find((v) => v.spaceId === row.space_id);
    const content = live.get(row.space_id);
    if (!variant || !content) continue;
    const tree = await loadTree(ctx, content.root);
    const page = tree.byId.get(row.page_id);
    if (!page || page.node.type !== 'document' || page.node.noIndex || isHidden(tree, page)) continue;
    const url = pageHref(view, variant, tree, page);
    const place = [variant.section && view.sections.length > 1 ? variant.section.title : null, (variant.section?.variants ?? view.variants).length > 1 ? variant.title : null]
      .filter(Boolean)
      .join(' › ');
    results.push({
      spaceId: row.space_id,
      siteSpaceId: variant.id,
      pageId: page.node.id,
      path: page.path ?? '',
      title: page.node.title,
      url,
      place,
      sections: matchedSections(row).map((s) => ({ id: s.id, title: s.title, url: s.id ? `${url}#${encodeURIComponent(s.id)}` : url, snippet: s.snippet })),
    });
  }
  // The API reference the site's pages embed (src/published/openapi-search.ts): its hits join the page's, or follow.
  for (const hit of await searchApiReference(ctx, view, live, query, MAX_RESULTS)) {
    const same = results.find((r) => r.url === hit.url);
    if (same) same.sections.push(...hit.sections.filter((s) => !same.sections.some((o) => o.url === s.url)));
    else if (results.length < MAX_RESULTS) results.push(hit);
  }
  return results;
}

export function searchPage(view: SiteView, text: string, results: SearchResult[]): string {
  const heading = text.trim() ? `Results for “${escapeHtml(text)}”` : 'Search';
  const list = results
    .map((r) => {
      const sections = r.sections
        .map((s) => `<li><a href="${escapeAttribute(s.url)}">${s.title ? `<strong>${escapeHtml(s.title)}</strong> ` : ''}<span class="search-snippet">${escapeHtml(s.snippet)}</span></a></li>`)
        .join('');
      return `<li class="search-result"><a class="search-result-title" href="${escapeAttribute(r.url)}">${escapeHtml(r.title)}</a>${r.place ? `<span class="search-result-place">${escapeHtml(r.place)}</span>` : ''}${sections ? `<ul class="search-sections">${sections}</ul>` : ''}</li>`;
    })
    .join('');
  const body = !text.trim()
    ? '<p>Type a few words to search this site.</p>'
    : results.length === 0
      ? '<p class="search-empty">No page matches this search.</p>'
      : `<ol class="search-results">${list}</ol>`;
  const main = `<main id="content" class="page search-page"><header class="page-header"><h1 class="page-title">${heading}</h1></header>${body}</main>`;
  return documentHtml({ title: `Search · ${view.title}`, noindex: true, settings: view.settings, bodyClass: 'without-toc', body: siteFrame(view, null, main, text) });
}
