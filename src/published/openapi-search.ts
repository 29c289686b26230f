/**
 * Site search over the API reference: the operations and webhooks of the specs a site's pages embed
 * (method, path, summary, description, operation id, tags) are found by the same words as pages, and each
 * hit links to the operation's anchor on the page that shows it. Which page embeds what is read once per
 * revision (cached by its root); descriptions once per version (src/published/openapi.ts).
 */
import type { Context } from '../context.ts';
import { parseMarkdown } from '../content/markdown/index.ts';
import { getObjects } from '../content/objects.ts';
import { loadTree, walkPages, type RevisionTree, type TreePage } from '../content/tree.ts';
import { LruCache } from '../lru.ts';
import type { SearchQuery } from '../search/query.ts';
import type { SiteView, VariantView } from './model.ts';
import { isHidden as hiddenInTree } from './navigation.ts';
import { loadVersionDocument, openApiBlocks } from './openapi.ts';
import { HTTP_METHODS, operationAnchor, webhookAnchor } from './openapi-render.ts';
import { isHidden, isObject, type Json } from './openapi-schema.ts';
import { pageHref } from './page.ts';
import type { CurrentContent } from './resolve.ts';
import type { SearchResult } from './search-result.ts';

type Ctx = Pick<Context, 'db' | 'dialect'>;

interface Embedded {
  pageId: string;
  /** `slug:…` or `url:…`, as in openapi.ts. */
  spec: string;
  kind: 'operation' | 'webhook';
  method: string;
  path: string;
}

const OPENAPI_TAG = /\{%\s*(openapi|openapi-operation|openapi-webhook|swagger)\s/;
const embeddedByRoot = new LruCache<string, Embedded[]>(500);

async function embeddedIn(ctx: Ctx, tree: RevisionTree, root: string): Promise<Embedded[]> {
  const cached = embeddedByRoot.get(root);
  if (cached) return cached;
  const pages: TreePage[] = [...walkPages(tree.pages)].filter((p) => p.node.type === 'document' && p.node.body);
  const found: Embedded[] = [];
  for (let i = 0; i < pages.length; i += 200) {
    const chunk = pages.slice(i, i + 200);
    const bodies = await getObjects(ctx, chunk.map((p) => p.node.body!));
    for (const page of chunk) {
      const markdown = bodies.get(page.node.body!) ?? '';
      if (!OPENAPI_TAG.test(markdown)) continue;
      for (const block of openApiBlocks([parseMarkdown(markdown).document])) {
        const ref = block.data.ref as { kind: string; spec?: string; url?: string };
        const spec = ref.kind === 'openapi' && ref.spec ? `slug:${ref.spec}` : ref.kind === 'url' && ref.url ? `url:${ref.url}` : null;
        if (!spec) continue;
        if (block.type === 'openapi-operation' || block.type === 'swagger') found.push({ pageId: page.node.id, spec, kind: 'operation', method: block.data.method.toLowerCase(), path: block.data.path });
        if (block.type === 'openapi-webhook') found.push({ pageId: page.node.id, spec, kind: 'webhook', method: block.data.method.toLowerCase(), path: block.data.name });
      }
    }
  }
  embeddedByRoot.set(root, found);
  return found;
}

function words(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}][\p{L}\p{N}\p{M}]*/gu) ?? [];
}

function matches(query: SearchQuery, text: string): boolean {
  const have = words(text);
  const joined = ` ${have.join(' ')} `;
  return query.terms.every((t) => have.some((w) => (t.prefix ? w.startsWith(t.word) : w === t.word))) && query.phrases.every((p) => joined.includes(` ${p.join(' ')} `));
}

async function specDocuments(ctx: Ctx, organizationId: string, keys: string[]): Promise<Map<string, Json>> {
  const slugs = keys.filter((k) => k.startsWith('slug:')).map((k) => k.slice(5));
  const urls = keys.filter((k) => k.startsWith('url:')).map((k) => k.slice(4));
  const rows = await ctx.db
    .selectFrom('openapi_specs')
    .select(['slug', 'source_url', 'last_version_id'])
    .where('organization_id', '=', organizationId)
    .where('last_version_id', 'is not', null)
    .where((eb) => eb.or([eb('slug', 'in', slugs.length ? slugs : ['']), eb('source_url', 'in', urls.length ? urls : [''])]))
    .execute();
  const docs = new Map<string, Json>();
  for (const row of rows) {
    const doc = await loadVersionDocument(ctx, row.last_version_id!);
    if (!doc) continue;
    docs.set(`slug:${row.slug}`, doc);
    if (row.source_url) docs.set(`url:${row.source_url}`, doc);
  }
  return docs;
}

/** The operations of the API reference that match, as search results (one per page, a section per operation). */
export async function searchApiReference(ctx: Ctx, view: SiteView, live: Map<string, CurrentContent>, query: SearchQuery, limit: number): Promise<SearchResult[]> {
  const results = new Map<string, SearchResult>();
  const seenSpaces = new Set<string>();
  for (const variant of view.variants) {
    if (results.size >= limit || seenSpaces.has(variant.spaceId)) continue;
    seenSpaces.add(variant.spaceId);
    const content = live.get(variant.spaceId);
    if (!content) continue;
    const tree = await loadTree(ctx, content.root);
    const embedded = await embeddedIn(ctx, tree, content.root);
    if (!embedded.length) continue;
    const space = await ctx.db.selectFrom('spaces').select('organization_id').where('id', '=', variant.spaceId).executeTakeFirst();
    if (!space) continue;
    const docs = await specDocuments(ctx, space.organization_id, [...new Set(embedded.map((e) => e.spec))]);
    for (const item of embedded) {
      const hit = operationHit(docs.get(item.spec), item, query);
      if (!hit) continue;
      addHit(results, view, variant, tree, item, hit, limit);
    }
  }
  return [...results.values()];
}

function operationHit(doc: Json | undefined, item: Embedded, query: SearchQuery): { title: string; snippet: string } | null {
  if (!doc || !(HTTP_METHODS as readonly string[]).includes(item.method)) return null;
  const container = doc[item.kind === 'webhook' ? 'webhooks' : 'paths'];
  const pathItem = isObject(container) ? container[item.path] : undefined;
  const operation = isObject(pathItem) ? pathItem[item.method] : undefined;
  if (!isObject(operation) || isHidden(operation)) return null;
  const summary = typeof operation.summary === 'string' ? operation.summary : '';
  const description = typeof operation.description === 'string' ? operation.description : '';
  const tags = Array.isArray(operation.tags) ? operation.tags.join(' ') : '';
  const text = [item.method, item.path, summary, description, typeof operation.operationId === 'string' ? operation.operationId : '', tags].join(' ');
  if (!matches(query, text)) return null;
  const line = `${item.method.toUpperCase()} ${item.path}${description ? ` — ${description.replace(/\s+/g, ' ').slice(0, 160)}` : ''}`;
  return { title: summary || `${item.method.toUpperCase()} ${item.path}`, snippet: line };
}

function addHit(results: Map<string, SearchResult>, view: SiteView, variant: VariantView, tree: RevisionTree, item: Embedded, hit: { title: string; snippet: string }, limit: number): void {
  const page = tree.byId.get(item.pageId);
  if (!page || page.node.type !== 'document' || page.node.noIndex || hiddenInTree(tree, page)) return;
  const url = pageHref(view, variant, tree, page);
  const anchor = item.kind === 'webhook' ? webhookAnchor(item.path, item.method) : operationAnchor(item.method, item.path);
  let result = results.get(url);
  if (!result) {
    if (results.size >= limit) return;
    result = { spaceId: variant.spaceId, siteSpaceId: variant.id, pageId: page.node.id, path: page.path ?? '', title: page.node.title, url, place: '', sections: [] };
    results.set(url, result);
  }
  if (result.sections.length < 5) result.sections.push({ id: anchor, title: hit.title, url: `${url}#${encodeURIComponent(anchor)}`, snippet: hit.snippet });
}
