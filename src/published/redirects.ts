import type { Context } from '../context.ts';
import { loadTree, type RevisionTree } from '../content/tree.ts';
import { LruCache } from '../lru.ts';
import { locate, variantHref, type SiteView } from './model.ts';
import { firstDocumentUnder } from './navigation.ts';
import { pageHref } from './page.ts';
import type { CurrentContent } from './resolve.ts';
import { gitRedirectPage } from './git-redirects.ts';

/**
 * Links that never break. An address of a site that leads to no page is looked up, in this order, in the
 * site's redirects (set through the API, and by Git Sync's `.gitbook.yaml`), then among the paths its pages
 * were served under before (recorded the first time the reader sees each revision of a space). Either way
 * the reader answers 301 to where the page is now. Only addresses that would 404 pay for the lookup.
 */

type Db = Pick<Context, 'db' | 'dialect'>;

/** The client's SiteRedirectDestination. */
export type RedirectDestination =
  | { kind: 'site-section'; siteSectionId: string }
  | { kind: 'site-space'; siteSpaceId: string }
  | { kind: 'site-page'; siteSpaceId: string; pageId: string };

/** The revisions whose paths this process has recorded already (a revision never changes). */
const recorded = new LruCache<string, true>(10_000);

/** How many rows one insert writes (SQLite allows 32,766 bound values; four per row). */
const CHUNK = 500;

/**
 * Records every document path of a space's revision, once per revision per process: the next revision can
 * then send an old path to the page that had it. A path later taken by another page points to that page.
 */
export function rememberPaths(ctx: Db & Pick<Context, 'clock'>, spaceId: string, revisionId: string, tree: RevisionTree): Promise<void> | undefined {
  // The hot path: a revision already recorded costs one map lookup and no promise.
  if (recorded.get(revisionId)) return undefined;
  return recordPaths(ctx, spaceId, revisionId, tree);
}

async function recordPaths(ctx: Db & Pick<Context, 'clock'>, spaceId: string, revisionId: string, tree: RevisionTree): Promise<void> {
  const seenAt = ctx.clock.now().toISOString();
  const rows: Array<{ space_id: string; path: string; page_id: string; seen_at: string }> = [];
  for (const [path, page] of tree.byPath) if (page.node.type === 'document') rows.push({ space_id: spaceId, path, page_id: page.node.id, seen_at: seenAt });
  for (let i = 0; i < rows.length; i += CHUNK) {
    await ctx.db
      .insertInto('published_page_paths')
      .values(rows.slice(i, i + CHUNK))
      .onConflict((oc) => oc.columns(['space_id', 'path']).doUpdateSet((eb) => ({ page_id: eb.ref('excluded.page_id'), seen_at: eb.ref('excluded.seen_at') })))
      .execute();
  }
  recorded.set(revisionId, true);
}

/** The path a redirect's source is stored under: `/` and the encoded segments below the site root. */
export function redirectSource(segments: string[]): string {
  return `/${segments.map((s) => encodeURIComponent(s)).join('/')}`;
}

/** Where a destination is in this reader's view of the site, or null when it is not there (gone, or hidden from them). */
export async function destinationHref(ctx: Db, view: SiteView, live: Map<string, CurrentContent>, destination: RedirectDestination): Promise<string | null> {
  switch (destination.kind) {
    case 'site-section': {
      const section = view.sections.find((s) => s.id === destination.siteSectionId);
      const variant = section?.variants.find((v) => v.isDefault) ?? section?.variants[0];
      return variant ? variantHref(view, variant) : null;
    }
    case 'site-space': {
      const variant = view.variants.find((v) => v.id === destination.siteSpaceId);
      return variant ? variantHref(view, variant) : null;
    }
    case 'site-page': {
      const variant = view.variants.find((v) => v.id === destination.siteSpaceId);
      const content = variant ? live.get(variant.spaceId) : undefined;
      if (!variant || !content) return null;
      const tree = await loadTree(ctx, content.root);
      const found = tree.byId.get(destination.pageId);
      const target = found && found.node.type !== 'link' ? firstDocumentUnder(found) : undefined;
      return target ? pageHref(view, variant, tree, target) : null;
    }
  }
}

/** The site redirect stored for a source, or null. */
export async function findRedirect(ctx: Db, siteId: string, source: string): Promise<RedirectDestination | null> {
  const row = await ctx.db.selectFrom('site_redirects').select('destination').where('site_id', '=', siteId).where('source', '=', source).executeTakeFirst();
  return row ? (JSON.parse(row.destination) as RedirectDestination) : null;
}

/** Where an address that leads to no page should send its reader, or null (then it is a 404). */
export async function redirectFor(ctx: Db, view: SiteView, live: Map<string, CurrentContent>, segments: string[]): Promise<string | null> {
  if (segments.length === 0) return null;
  const destination = await findRedirect(ctx, view.siteId, redirectSource(segments));
  if (destination) {
    const href = await destinationHref(ctx, view, live, destination);
    if (href) return href;
  }
  const located = locate(view, segments);
  const content = located ? live.get(located.variant.spaceId) : undefined;
  if (!located || !content || located.rest.length === 0) return null;
  const path = located.rest.join('/');
  // Git Sync's `.gitbook.yaml` redirects of the space (src/published/git-redirects.ts).
  const redirectTree = await loadTree(ctx, content.root);
  const redirected = await gitRedirectPage(ctx, located.variant.spaceId, path, redirectTree);
  const redirectTarget = redirected && redirected.node.type !== 'link' ? firstDocumentUnder(redirected) : undefined;
  if (redirectTarget && redirectTarget.path !== path) return pageHref(view, located.variant, redirectTree, redirectTarget);
  const row = await ctx.db.selectFrom('published_page_paths').select('page_id').where('space_id', '=', located.variant.spaceId).where('path', '=', path).executeTakeFirst();
  if (!row) return null;
  const tree = await loadTree(ctx, content.root);
  const page = tree.byId.get(row.page_id);
  const target = page && page.node.type !== 'link' ? firstDocumentUnder(page) : undefined;
  // The page still at that path (or a loop) is no redirect.
  if (!target || target.path === path) return null;
  return pageHref(view, located.variant, tree, target);
}
