import type { FastifyReply, FastifyRequest } from 'fastify';
import { contentDisposition } from '../http/replies.ts';
import { loadTree } from '../content/tree.ts';
import { admit } from './audience.ts';
import { readerKey } from './adaptive.ts';
import { cachedBody, etagOf, type CachedBody } from './cache.ts';
import { canonicalJson } from '../content/revisions.ts';
import { openSiteFile, INLINE_TYPES } from './files.ts';
import { bareErrorPage, NOT_FOUND_MESSAGE, NOT_FOUND_TITLE, siteNotFoundPage } from './layout.ts';
import { locate, rootHref, siteView, variantHref, type SiteView } from './model.ts';
import { redirectFor, rememberPaths } from './redirects.ts';
import { recordBeacon } from './beacon.ts';
import { openPreview, PREVIEW_PARAMETER, previewView } from './preview.ts';
import type { SpaceAddressing } from './space-address.ts';
import { allows, type SiteAudience } from '../policy/index.ts';
import { keepWarmPage } from './warm-pages.ts';
import { firstDocumentUnder, firstPage } from './navigation.ts';
import { pageNoIndex, renderPage } from './page.ts';
import { openApiStamp } from './openapi.ts';
import type { CurrentContent, SiteAddressing } from './resolve.ts';
import { searchPage, searchSite } from './search.ts';
import { llmsFullTxt, llmsTxt, pageMarkdown, robotsTxt, sitemapXml } from './seo.ts';

/**
 * One request to a published site, from its address to the response: the audience first (nothing of the
 * site is read before the reader is admitted), then the view of the structure this reader sees, then the
 * page or special address asked for. Pages come from the rendered-body cache when their key matches.
 */

export const READER_CSP = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  // KaTeX sizes its glyphs with style attributes; <style> elements and inline scripts stay forbidden.
  "style-src-attr 'unsafe-inline'",
  "img-src 'self' https: data:",
  "media-src 'self' https:",
  "font-src 'self'",
  "connect-src 'self'",
  // The frame that draws Mermaid diagrams (assets/diagram-frame.html), Quire's own.
  "frame-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

const HTML = 'text/html; charset=utf-8';

const SECURITY_HEADERS = Object.freeze({
  'x-content-type-options': 'nosniff',
  'content-security-policy': READER_CSP,
  'referrer-policy': 'strict-origin-when-cross-origin',
});

function secure(reply: FastifyReply): FastifyReply {
  return reply.headers(SECURITY_HEADERS);
}

function bareNotFound(reply: FastifyReply): FastifyReply {
  return secure(reply).code(404).header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type(HTML).send(bareErrorPage(404, NOT_FOUND_TITLE, NOT_FOUND_MESSAGE));
}

interface Admitted {
  request: FastifyRequest;
  reply: FastifyReply;
  view: SiteView;
  live: Map<string, CurrentContent>;
  restricted: boolean;
  /** The reader's claims, which `if` blocks and expressions in pages read. */
  claims: Record<string, unknown>;
  /**
   * Tells bodies made from the whole site for these claims apart (llms-full.txt): empty when the reader has
   * none. A page's key uses only what its own expressions make of the claims (adaptive.ts).
   */
  claimsKey: string;
  /** The audience the policy admitted: a warm page is kept for it (warm-pages.ts), or null when none may be kept. */
  warm: SiteAudience | null;
}

function claimsKeyOf(claims: Record<string, unknown>): string {
  return Object.keys(claims).length === 0 ? '' : etagOf(canonicalJson(claims)).slice(1, 17);
}

/** Sends a cached body with its validator: 304 when the reader has it already. */
function sendBody(a: Admitted, entry: CachedBody, type: string, noindex: boolean): FastifyReply {
  const reply = a.reply.headers({ etag: entry.etag, 'cache-control': a.restricted ? 'private, no-cache' : 'public, no-cache', vary: 'Cookie', ...(noindex ? { 'x-robots-tag': 'noindex' } : {}) });
  if (a.warm) keepWarmPage(a.request, reply, entry, type, a.warm);
  if (a.request.headers['if-none-match'] === entry.etag) return reply.code(304).send();
  return reply.type(type).send(entry.body);
}

/** A 301 to where an old or redirected address leads now (`.md` addresses to the page's `.md`), else the site's 404. */
async function redirectOrNotFound(a: Admitted, segments: string[]): Promise<FastifyReply> {
  const last = segments[segments.length - 1];
  const markdown = last !== undefined && last.endsWith('.md') && last.length > 3;
  const wanted = markdown ? [...segments.slice(0, -1), last.slice(0, -3)] : segments;
  const href = await redirectFor(a.request.ctx, a.view, a.live, wanted);
  if (!href) return siteNotFound(a);
  const query = a.request.url.includes('?') ? a.request.url.slice(a.request.url.indexOf('?')) : '';
  const location = markdown && href !== rootHref(a.view) ? `${href}.md` : `${href}${query}`;
  return a.reply.code(301).header('cache-control', a.restricted ? 'private, no-cache' : 'public, max-age=300').header('location', location).send();
}

function siteNotFound(a: Admitted): FastifyReply {
  return a.reply.code(404).header('cache-control', 'no-store').header('x-robots-tag', 'noindex').type(HTML).send(siteNotFoundPage(a.view));
}

/** Revision ids of every variant shown: the key part of bodies made from the whole site (sitemap, llms.txt). */
function contentKey(a: Admitted): string {
  return a.view.variants.map((v) => a.live.get(v.spaceId)?.revisionId ?? '-').join(',');
}

export async function serveSite(request: FastifyRequest, reply: FastifyReply, addressing: SiteAddressing | null): Promise<FastifyReply> {
  secure(reply);
  if (!addressing) return bareNotFound(reply);
  // A manager's preview of unsaved customization (preview.ts): admitted by its sealed parameter, framed by Quire only.
  const previewToken = (request.query as Record<string, unknown> | undefined)?.[PREVIEW_PARAMETER];
  const preview = previewToken === undefined ? null : openPreview(request.ctx, previewToken, addressing.site.id);
  // The sealed parameter is only minted for the site's managers, so it reads as one of its members would.
  const previewAudience = { member: true, published: Boolean(addressing.site.published), visibility: 'public', sharedWith: false, authenticated: false } as const;
  if (preview && allows(request.ctx, 'site.readPublished', previewAudience)) {
    reply.header('content-security-policy', READER_CSP.replace("frame-ancestors 'none'", "frame-ancestors 'self'")).header('x-robots-tag', 'noindex');
    const view = previewView(await siteView(request.ctx, addressing, addressing.live, {}), addressing.site, preview, String(previewToken));
    // A preview is never kept: its sealed parameter expires.
    return dispatch({ request, reply, view, live: addressing.live, restricted: true, claims: {}, claimsKey: '', warm: null }, addressing.segments);
  }
  const admission = await admit(request, reply, addressing);
  switch (admission.kind) {
    case 'not-found':
      return bareNotFound(reply);
    case 'unauthorized':
      return reply
        .code(401)
        .header('cache-control', 'no-store')
        .header('x-robots-tag', 'noindex')
        .type(HTML)
        .send(bareErrorPage(401, 'Sign in to read this site', 'This documentation is only for signed-in readers. Open it through the link your provider gave you to sign in.'));
    case 'fallback':
    case 'redirect':
      return reply.header('cache-control', 'no-store').redirect(admission.location, 302);
  }
  const live = addressing.live;
  const view = await siteView(request.ctx, addressing, live, admission.claims);
  // A visitor's token expires by the clock, which nothing notifies: visitor-auth pages are never kept warm.
  const warm = addressing.site.visibility === 'visitor-auth' ? null : admission.audience;
  const a: Admitted = { request, reply, view, live, restricted: admission.restricted, claims: admission.claims, claimsKey: claimsKeyOf(admission.claims), warm };
  if (view.visibility !== 'public') reply.header('x-robots-tag', 'noindex');
  return dispatch(a, addressing.segments);
}

/** A space at its own address (`/s/{spaceId}`, see space-address.ts): open to anyone when public or unlisted. */
export async function serveSpace(request: FastifyRequest, reply: FastifyReply, addressing: SpaceAddressing | null): Promise<FastifyReply> {
  secure(reply);
  const audience = { member: false, published: addressing !== null, visibility: addressing?.visibility ?? 'public', sharedWith: false, authenticated: false } as const;
  if (!addressing || !allows(request.ctx, 'site.readPublished', audience) || request.method !== 'GET') return bareNotFound(reply);
  const { view, live } = addressing;
  if (view.visibility !== 'public') reply.header('x-robots-tag', 'noindex');
  return dispatch({ request, reply, view, live, restricted: false, claims: {}, claimsKey: '', warm: audience }, addressing.segments);
}

async function dispatch(a: Admitted, segments: string[]): Promise<FastifyReply> {
  const { request, reply, view } = a;
  const ctx = request.ctx;
  const [first] = segments;
  if (request.method === 'POST') {
    if (segments.length !== 1 || first !== '~insights') return siteNotFound(a);
    await recordBeacon(request.ctx, view, request.body, { address: request.ip, userAgent: String(request.headers['user-agent'] ?? '') });
    return reply.code(204).header('cache-control', 'no-store').send();
  }
  if (segments.length === 1 && first === 'robots.txt') {
    return reply.header('cache-control', a.restricted ? 'private, no-cache' : 'public, max-age=300').type('text/plain; charset=utf-8').send(robotsTxt(view));
  }
  if (segments.length === 1 && first === 'sitemap.xml') {
    if (view.visibility !== 'public') return siteNotFound(a);
    const entry = await cachedBody(`${view.key}|${contentKey(a)}|sitemap`, () => sitemapXml(ctx, view, a.live));
    return sendBody(a, entry, 'application/xml; charset=utf-8', false);
  }
  if (segments.length === 1 && first === 'llms.txt') {
    const entry = await cachedBody(`${view.key}|${contentKey(a)}|llms`, () => llmsTxt(ctx, view, a.live));
    return sendBody(a, entry, 'text/plain; charset=utf-8', false);
  }
  if (segments.length === 1 && first === 'llms-full.txt') {
    const entry = await cachedBody(`${view.key}|${contentKey(a)}|${a.claimsKey}|llms-full`, () => llmsFullTxt(ctx, view, a.live, a.claims));
    return sendBody(a, entry, 'text/plain; charset=utf-8', false);
  }
  if (segments.length === 1 && (first === '~search' || first === '~search.json')) {
    const q = (request.query as Record<string, unknown>).q;
    const text = typeof q === 'string' ? q : '';
    const results = await searchSite(ctx, view, a.live, text);
    reply.header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex');
    if (first === '~search.json') return reply.type('application/json; charset=utf-8').send(JSON.stringify({ query: text, results }));
    return reply.type(HTML).send(searchPage(view, text, results));
  }
  if (first === '~files' && segments.length >= 3) {
    const opened = await openSiteFile(ctx, view, a.live, segments[1], segments[2]);
    if (!opened) return siteNotFound(a);
    const { file, stream } = opened;
    if (request.headers['if-none-match'] === `"${file.blob}"`) {
      stream.destroy();
      return reply.code(304).header('etag', `"${file.blob}"`).send();
    }
    return reply
      .header('content-type', file.contentType || 'application/octet-stream')
      .header('content-length', String(file.size))
      .header('content-disposition', contentDisposition(INLINE_TYPES.test(file.contentType), file.name))
      .header('cache-control', a.restricted ? 'private, max-age=300' : 'public, max-age=3600')
      .header('etag', `"${file.blob}"`)
      .header('content-security-policy', "default-src 'none'; sandbox")
      .send(stream);
  }
  if (first?.startsWith('~')) return siteNotFound(a);
  return servePage(a, segments);
}

async function servePage(a: Admitted, segments: string[]): Promise<FastifyReply> {
  const { request, reply, view } = a;
  const last = segments[segments.length - 1];
  const markdown = last !== undefined && last.endsWith('.md') && last.length > 3;
  const wanted = markdown ? [...segments.slice(0, -1), last.slice(0, -3)] : segments;
  const located = locate(view, wanted);
  const content = located ? a.live.get(located.variant.spaceId) : undefined;
  if (!located || !content) return redirectOrNotFound(a, segments);
  const { variant } = located;
  const tree = await loadTree(request.ctx, content.root);
  const recording = rememberPaths(request.ctx, variant.spaceId, content.revisionId, tree);
  if (recording) await recording;
  // Links written between Markdown files name a page with children as `<path>/README.md`.
  const rest = markdown && located.rest.length > 0 && located.rest[located.rest.length - 1].toLowerCase() === 'readme' ? located.rest.slice(0, -1) : located.rest;
  const path = rest.join('/');
  const page = path === '' ? firstPage(tree) : tree.byPath.get(path);
  if (!page || page.node.type === 'link') return redirectOrNotFound(a, segments);
  if (page.node.type === 'group') {
    // A group is a heading, not a page: its address leads to its first page.
    const target = firstDocumentUnder(page);
    return target?.path ? reply.redirect(variantHref(view, variant, target.path), 302) : siteNotFound(a);
  }
  // Readers share a rendered page when its expressions make the same of their claims (adaptive.ts).
  const readerPart = await readerKey(request.ctx, content.revisionId, tree, page, a.claims);
  // A page with a variant switcher links into its sibling variants' content: their revisions are part of its key.
  const siblings = variant.section ? variant.section.variants : view.variants;
  const others = siblings.length > 1 ? siblings.map((v) => a.live.get(v.spaceId)?.revisionId ?? '-').join(',') : content.revisionId;
  const key = `${view.key}|${variant.id}|${others}|${page.node.id}|${readerPart}`;
  const noindex = pageNoIndex(view, tree, page);
  if (markdown) {
    const entry = await cachedBody(`${key}|md`, () => pageMarkdown(request.ctx, tree, page, a.claims));
    return sendBody(a, entry, 'text/markdown; charset=utf-8', noindex);
  }
  // A new version of an OpenAPI spec of the organization makes new keys for its pages (src/published/openapi.ts).
  const entry = await cachedBody(`${key}|${await openApiStamp(request.ctx, variant.spaceId)}|html`, () => renderPage(request.ctx, { view, variant, tree, page, live: a.live }, a.claims));
  return sendBody(a, entry, HTML, noindex);
}
