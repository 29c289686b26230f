import type { FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { memoCurrent, memoStamp, MEMO_SECONDS, type MemoStamp } from '../db/memo.ts';
import { LruCache } from '../lru.ts';
import { allows } from '../policy/index.ts';
import type { SiteAudience } from '../policy/index.ts';
import type { CachedBody } from './cache.ts';
import { CLAIMS_COOKIE, SHARE_COOKIE, VISITOR_COOKIE } from './audience.ts';
import { readCookie } from './cookies.ts';

/**
 * Warm published pages, answered before the reader's work. A page the reader has sent once (200 with its
 * ETag) is remembered with every header its handler set, under what its answer was made from on the
 * request's side: the method, scheme, host and address, and the reader's cookies that admission and
 * adaptive content read (share key, visitor token, unsigned claims). The next request with the same key is
 * answered by the published routes' first onRequest hook (`answerWarm`): the same headers, the same bytes,
 * 200 or 304 on `If-None-Match`, with no database, no admission, no site view and no handler. Everything the
 * app adds around a handler still happens, because the answer still goes through Fastify's reply: the root
 * onRequest hooks (the request's context, rate limits) before, the route's onSend (the policy guard) and
 * onResponse (metrics, the request log) after.
 *
 * What a page is made from on the server's side (a space's head, the site's settings, structure and
 * publication, share links, the spaces' visibility, the organization's OpenAPI specs) is watched by the
 * memo (src/db/memo.ts): a page is kept only if none of it changed while it was made, and used only while
 * none of it changed since (in this process at once; in other processes on PostgreSQL when the
 * notification arrives; never more than MEMO_SECONDS). Pages of visitor-auth sites are never kept (a
 * visitor's token expires by the clock), nor previews, nor answers that set a cookie.
 */

interface WarmPage {
  stamp: MemoStamp;
  until: number;
  /** The headers the handler set, in its order, without those the app's hooks had set before it. */
  headers: Record<string, string | string[]>;
  /** The body's content type (a 304 has none). */
  type: string;
  body: CachedBody;
  /** The audience the page was admitted for: the policy is asked again with it on every answer. */
  audience: SiteAudience;
}

/** Weighed by their bodies' length (shared with the rendered-body cache while both hold them): at most 64 MB. */
const pages = new LruCache<string, WarmPage>(20_000, 64 * 1024 * 1024);

/** Counts answers given from memory (tests and the profile). */
export const warmPageStats = { hits: 0 };

/** What a request's answer may depend on besides the server's state. */
function keyOf(request: FastifyRequest): string {
  const key = `${request.method} ${request.protocol}://${request.headers.host ?? ''}${request.url}`;
  if (request.headers.cookie === undefined) return key;
  return `${key}\u0000${readCookie(request, SHARE_COOKIE) ?? ''}\u0000${readCookie(request, VISITOR_COOKIE) ?? ''}\u0000${readCookie(request, CLAIMS_COOKIE) ?? ''}`;
}

/** What a missed request was started under: the memo's stamp and the headers already set before the handler. */
const started = new WeakMap<FastifyRequest, { stamp: MemoStamp; before: Set<string> }>();

/**
 * The published routes' first onRequest hook: answers a warm page, or notes when the request started so
 * that its page can be kept.
 */
export const answerWarm: onRequestHookHandler = (request, reply, done) => {
  const dialect = request.ctx.dialect;
  const key = keyOf(request);
  const page = pages.get(key);
  if (page !== undefined) {
    if (page.until > Date.now() && memoCurrent(page.stamp, dialect) && allows(request.ctx, 'site.readPublished', page.audience)) {
      warmPageStats.hits++;
      reply.headers(page.headers);
      if (request.headers['if-none-match'] === page.body.etag) reply.code(304).send();
      else reply.type(page.type).send(page.body.body);
      return;
    }
    pages.delete(key);
  }
  const stamp = memoStamp(dialect);
  if (stamp) started.set(request, { stamp, before: new Set(Object.keys(reply.getHeaders())) });
  done();
};

/**
 * Keeps the page a handler is about to send (called by the handler before it sets the content type and
 * sends), when nothing it was made from changed while it was made.
 */
export function keepWarmPage(request: FastifyRequest, reply: FastifyReply, body: CachedBody, type: string, audience: SiteAudience): void {
  const start = started.get(request);
  if (!start || !memoCurrent(start.stamp, request.ctx.dialect)) return;
  const all = reply.getHeaders();
  if (all['set-cookie'] !== undefined) return;
  const headers: Record<string, string | string[]> = {};
  for (const [name, value] of Object.entries(all)) {
    if (start.before.has(name) || value === undefined) continue;
    headers[name] = typeof value === 'number' ? String(value) : value;
  }
  pages.set(keyOf(request), { stamp: start.stamp, until: Date.now() + MEMO_SECONDS * 1000, headers, type, body, audience }, Math.max(1, body.body.length));
}

/** Forgets every warm page (tests). */
export function forgetWarmPages(): void {
  pages.clear();
}
