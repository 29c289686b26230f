import robotsParser from 'robots-parser';
import { BadRequest } from '../errors.ts';
import { timeUp } from './limits.ts';
import { safeFetch, USER_AGENT } from '../net/fetch.ts';
import { htmlToMarkdown, readHtml } from './html.ts';
import { collectImages } from './images.ts';
import { titleFromName } from './markdown.ts';
import { decodeText, readSource, type ImportEnvironment, type SourceFile } from './source.ts';
import type { AssetCollector, ImportedContent, ImportedPage, Reference } from './types.ts';

/**
 * `html` (one page) and `website` (a crawl): each page converted by html.ts, its images downloaded as files.
 * The crawl follows links to the same origin only, breadth first, at most `maxPages` pages and `maxDepth`
 * links away from the start page, and never fetches what the site's robots.txt disallows to its agent.
 */

/** A page address without its fragment, and without a trailing slash: the key of a page. */
export function pageKey(url: string): string {
  const parsed = new URL(url);
  parsed.hash = '';
  if (parsed.pathname.length > 1) parsed.pathname = parsed.pathname.replace(/\/+$/, '');
  return parsed.href;
}

const NOT_HTML = /\.(png|jpe?g|gif|svg|webp|ico|pdf|zip|gz|tgz|mp4|webm|mp3|wav|css|js|json|xml|txt|docx?|xlsx?|pptx?|woff2?|ttf)$/i;

function isHtml(file: SourceFile): boolean {
  return file.contentType === 'text/html' || file.contentType === 'application/xhtml+xml' || (file.contentType === '' && /<html|<body|<p[ >]/i.test(file.bytes.subarray(0, 2048).toString('utf8')));
}

async function convertPage(file: SourceFile, key: string): Promise<{ page: ImportedPage; links: string[]; images: string[] }> {
  const url = file.url.startsWith('http') ? file.url : undefined;
  const document = readHtml(decodeText(file), url);
  const converted = await htmlToMarkdown(document.content, document.base);
  const title = converted.heading ?? document.title ?? titleFromName(file.name || 'Imported page');
  const page: ImportedPage = {
    key,
    type: 'document',
    title: title.slice(0, 255),
    markdown: converted.markdown,
    ...(document.description ? { settings: { description: document.description.slice(0, 1000) } } : {}),
    pages: [],
  };
  return { page, links: converted.links, images: converted.images };
}

function resolver(pages: Map<string, string>, assets: AssetCollector) {
  return (from: ImportedPage, reference: string): Reference | undefined => {
    if (assets.has(reference)) return { key: reference };
    let url: URL;
    try {
      url = new URL(reference, from.key.startsWith('http') ? from.key : undefined);
    } catch {
      return undefined;
    }
    if (assets.has(url.href)) return { key: url.href };
    const key = pages.get(pageKey(url.href));
    if (!key || !/^https?:$/.test(url.protocol)) return undefined;
    return { key, ...(url.hash.length > 1 ? { anchor: decodeURIComponent(url.hash.slice(1)) } : {}) };
  };
}

/** One HTML page (http, https or data:) as one page. */
export async function importHtml(url: string, assets: AssetCollector, env: ImportEnvironment): Promise<ImportedContent> {
  const file = await readSource(url, env, 'text/html,application/xhtml+xml');
  if (file.contentType && !/html|xml/.test(file.contentType) && file.contentType !== 'text/plain') {
    throw new BadRequest(`The source is not an HTML page (it is "${file.contentType}"); choose the source that matches it.`);
  }
  const key = file.url.startsWith('http') ? pageKey(file.url) : 'html:page';
  const { page, images } = await convertPage(file, key);
  const { skipped } = await collectImages(images, assets, env);
  return { pages: [page], assets: assets.assets, skipped, resolve: resolver(new Map([[key, key]]), assets) };
}

async function robotsOf(origin: string, env: ImportEnvironment): Promise<(url: string) => boolean> {
  const robotsUrl = `${origin}/robots.txt`;
  try {
    const file = await safeFetch(robotsUrl, { allowPrivate: env.allowPrivate, maxBytes: 512 * 1024, maxRedirects: env.limits.maxRedirects, signal: env.signal, resolver: env.resolver, accept: 'text/plain' });
    const robots = robotsParser(robotsUrl, decodeText(file));
    return (url) => robots.isAllowed(url, USER_AGENT) !== false;
  } catch (error) {
    if (env.signal.aborted || !(error instanceof BadRequest)) throw error;
    return () => true; // No robots.txt (or none readable): everything may be fetched.
  }
}

/** Nests crawled pages by their addresses: under the nearest crawled page whose path holds theirs. */
function nest(pages: ImportedPage[], start: ImportedPage): ImportedPage[] {
  const byPath = new Map(pages.map((page) => [new URL(page.key).pathname.replace(/\/+$/, '') || '/', page]));
  const top: ImportedPage[] = [start];
  for (const page of pages) {
    if (page === start) continue;
    let path = new URL(page.key).pathname.replace(/\/+$/, '');
    let parent: ImportedPage | undefined;
    while (!parent && path.includes('/')) {
      path = path.slice(0, path.lastIndexOf('/'));
      parent = byPath.get(path || '/');
    }
    if (parent && parent !== start) parent.pages.push(page);
    else top.push(page);
  }
  return top;
}

/** A website, crawled from its start page (see above). */
export async function importWebsite(url: string, assets: AssetCollector, env: ImportEnvironment): Promise<ImportedContent> {
  if (/^data:/i.test(url)) throw new BadRequest('A website import needs an http or https start URL; use the "html" source for a data: URL.');
  const start = await readSource(url, env, 'text/html,application/xhtml+xml'); // checks the scheme and the address
  const origin = new URL(start.url).origin;
  const allowed = await robotsOf(origin, env);
  if (!allowed(start.url)) throw new BadRequest(`The robots.txt of ${origin} does not allow fetching ${start.url}; nothing was imported.`);
  if (!isHtml(start)) throw new BadRequest(`${start.url} is not an HTML page (it is "${start.contentType || 'unknown'}"); a website import starts from a page.`);

  const keys = new Map<string, string>();
  const seen = new Set<string>([pageKey(url), pageKey(start.url)]);
  const pages: ImportedPage[] = [];
  const images: string[] = [];
  let skipped = 0;
  let level: Array<{ url: string; file?: SourceFile }> = [{ url: start.url, file: start }];
  for (let depth = 0; level.length > 0; depth++) {
    const next: Array<{ url: string }> = [];
    for (const item of level) {
      if (pages.length >= env.limits.maxPages) {
        skipped++;
        continue;
      }
      if (env.signal.aborted) throw timeUp(env.limits);
      let file: SourceFile;
      try {
        file = item.file ?? { ...(await safeFetch(item.url, { allowPrivate: env.allowPrivate, maxBytes: env.limits.maxDownloadBytes, maxRedirects: env.limits.maxRedirects, signal: env.signal, resolver: env.resolver, accept: 'text/html' })), name: '' };
      } catch (error) {
        if (env.signal.aborted || !(error instanceof BadRequest)) throw error;
        skipped++;
        continue;
      }
      const key = pageKey(file.url);
      if (new URL(file.url).origin !== origin || !isHtml(file) || (keys.has(key) && item.file === undefined)) {
        skipped++;
        continue;
      }
      const converted = await convertPage({ ...file, name: new URL(file.url).pathname.split('/').filter(Boolean).pop() ?? 'Home' }, key);
      pages.push(converted.page);
      keys.set(key, key);
      keys.set(pageKey(item.url), key);
      images.push(...converted.images);
      for (const link of converted.links) {
        const target = pageKey(link);
        if (seen.has(target)) continue;
        seen.add(target);
        const linkUrl = new URL(link);
        if (linkUrl.origin !== origin || NOT_HTML.test(linkUrl.pathname) || !allowed(link) || depth + 1 > env.limits.maxDepth) {
          if (linkUrl.origin === origin) skipped++;
          continue;
        }
        next.push({ url: link });
      }
    }
    level = next;
  }
  const collected = await collectImages(images, assets, env);
  return { pages: nest(pages, pages[0]), assets: assets.assets, skipped: skipped + collected.skipped, resolve: resolver(keys, assets) };
}
