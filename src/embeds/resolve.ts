import { BadRequest } from '../errors.ts';
import { safeFetch, type FetchOptions } from '../net/fetch.ts';

/**
 * What an address a user pastes into a page looks like as an embed: its title, its site, its icon, and, when
 * the page offers oEmbed with HTML, that HTML (`rich`); else a plain `link`. Every request goes through the
 * outbound fetcher (src/net/fetch.ts), so private addresses are refused unless the operator allowed them.
 */
export type Embed = { title: string; site: string; icon?: string } & ({ type: 'link' } | { type: 'rich'; html: string });

export type EmbedFetchOptions = Pick<FetchOptions, 'allowPrivate' | 'resolver' | 'transport'>;

const MAX_PAGE_BYTES = 1024 * 1024;
const TIMEOUT_MS = 10_000;

function decodeEntities(text: string): string {
  return text
    .replace(/&#(\d+);/g, (_m, code: string) => String.fromCodePoint(Number(code)))
    .replace(/&#x([0-9a-f]+);/gi, (_m, code: string) => String.fromCodePoint(Number.parseInt(code, 16)))
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

/** The attributes of each tag named `name` in some HTML (enough for <meta> and <link> in a page's head). */
function tags(html: string, name: string): Array<Record<string, string>> {
  const found: Array<Record<string, string>> = [];
  for (const match of html.matchAll(new RegExp(`<${name}\\b([^>]*)>`, 'gi'))) {
    const attributes: Record<string, string> = {};
    for (const attribute of match[1].matchAll(/([a-zA-Z:-]+)\s*=\s*("([^"]*)"|'([^']*)'|([^\s"'>]+))/g)) {
      attributes[attribute[1].toLowerCase()] = decodeEntities(attribute[3] ?? attribute[4] ?? attribute[5] ?? '');
    }
    found.push(attributes);
  }
  return found;
}

function meta(html: string, key: string): string | undefined {
  return tags(html, 'meta').find((tag) => (tag.property ?? tag.name)?.toLowerCase() === key)?.content?.trim() || undefined;
}

function absolute(href: string | undefined, base: string): string | undefined {
  if (!href) return undefined;
  try {
    const url = new URL(href, base);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.href : undefined;
  } catch {
    return undefined;
  }
}

/** Resolves an address into an embed; a URL that is not http(s), private, unreachable or failing is a 400 naming why. */
export async function resolveEmbed(address: string, options: EmbedFetchOptions): Promise<Embed> {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    throw new BadRequest('The query parameter "url" is not a valid URL.');
  }
  const fetchOptions: FetchOptions = { ...options, what: 'embed URL', maxBytes: MAX_PAGE_BYTES, maxRedirects: 5, signal: AbortSignal.timeout(TIMEOUT_MS), accept: 'text/html,*/*;q=0.8' };
  const page = await safeFetch(url, fetchOptions);
  const site = new URL(page.url).hostname;
  if (page.contentType !== 'text/html' && page.contentType !== 'application/xhtml+xml') {
    const name = decodeURIComponent(new URL(page.url).pathname.split('/').filter(Boolean).pop() ?? '') || site;
    return { type: 'link', title: name, site };
  }
  const html = page.bytes.toString('utf8');
  const head = html.slice(0, html.search(/<\/head>/i) >= 0 ? html.search(/<\/head>/i) : html.length);
  const titleTag = /<title[^>]*>([^<]*)<\/title>/i.exec(head)?.[1];
  const title = meta(head, 'og:title') ?? (titleTag ? decodeEntities(titleTag).trim() : undefined) ?? site;
  const links = tags(head, 'link');
  const icon = absolute(links.find((tag) => /(^|\s)icon(\s|$)/i.test(tag.rel ?? ''))?.href ?? '/favicon.ico', page.url);
  const embed: Embed = { type: 'link', title, site: meta(head, 'og:site_name') ?? site, ...(icon ? { icon } : {}) };
  const oembed = absolute(links.find((tag) => tag.rel?.toLowerCase() === 'alternate' && tag.type?.toLowerCase() === 'application/json+oembed')?.href, page.url);
  if (!oembed) return embed;
  const answer = await safeFetch(oembed, { ...fetchOptions, what: 'oEmbed URL', accept: 'application/json' });
  let data: unknown;
  try {
    data = JSON.parse(answer.bytes.toString('utf8'));
  } catch {
    return embed;
  }
  const fields = (data ?? {}) as { html?: unknown; title?: unknown; provider_name?: unknown };
  const rich = { ...embed, ...(typeof fields.title === 'string' && fields.title ? { title: fields.title } : {}), ...(typeof fields.provider_name === 'string' && fields.provider_name ? { site: fields.provider_name } : {}) };
  return typeof fields.html === 'string' && fields.html ? { ...rich, type: 'rich', html: fields.html } : rich;
}
