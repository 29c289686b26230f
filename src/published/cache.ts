import { createHash } from 'node:crypto';
import { LruCache } from '../lru.ts';
import type { StoredCustomizations } from '../sites/customization.ts';
import type { SiteStructureModel } from '../sites/structure.ts';
import type { SiteView } from './view.ts';

/**
 * The reader's caches. Every key holds what its value was made from (the site's version, the visible set,
 * the revision), so an edit or a structure change makes new keys and old entries age out of the LRU:
 * nothing is ever invalidated by hand and nothing polls.
 */

/** A rendered response body and its validator. */
export interface CachedBody {
  /** Kept encoded: a page is sent many more times than it is made. */
  body: Buffer;
  etag: string;
}

/** Full structures, by site id and version (a site's structure changes only with its version). */
export const structures = new LruCache<string, SiteStructureModel>(500);
/** Sites' stored customizations, by site id and version (every customization write bumps the version). */
export const customizations = new LruCache<string, StoredCustomizations>(500);
/** What one visible set of a structure looks like to readers, by site, version, visible-set key and address. */
export const views = new LruCache<string, SiteView>(2000);
/** Rendered pages (and Markdown, llms.txt, sitemaps), weighed by their length: at most 64 MB of text. */
export const bodies = new LruCache<string, CachedBody>(20_000, 64 * 1024 * 1024);

/** Counts cache misses of rendered bodies, so tests can tell a re-render from a hit. */
export const renderStats = { rendered: 0 };

export function etagOf(body: string | Buffer): string {
  return `"${createHash('sha1').update(body).digest('base64url')}"`;
}

/** The body under `key`, made by `make` on a miss. A hit is answered without a promise (the hot path). */
export function cachedBody(key: string, make: () => Promise<string> | string): CachedBody | Promise<CachedBody> {
  return bodies.get(key) ?? renderBody(key, make);
}

async function renderBody(key: string, make: () => Promise<string> | string): Promise<CachedBody> {
  renderStats.rendered++;
  const text = await make();
  const body = Buffer.from(text);
  const entry: CachedBody = { body, etag: etagOf(body) };
  bodies.set(key, entry, Math.max(1, body.length));
  return entry;
}
