import { assetUrl } from './assets.ts';
import { escapeAttribute, escapeHtml } from './render/escape.ts';
import { rootHref, settingsOf, siteHref, variantHref, type SiteView, type VariantView } from './model.ts';
import type { SiteCustomizationSettings } from '../sites/customization.ts';
import { brandHtml, customFontLink, faviconHref, footerHtml, headerLinksHtml, rootAttributes, themeToggleHtml } from './theme.ts';

/**
 * The HTML around the reader's pages. Every text that came from a site, a space or a page goes through
 * escapeHtml / escapeAttribute here; the only HTML taken as is comes from the renderer and from these
 * functions. No inline script or style: the Content-Security-Policy forbids them.
 */

export interface Shell {
  title: string;
  description?: string | null;
  /** Absolute canonical address, when the page has one. */
  canonical?: string | null;
  noindex: boolean;
  body: string;
  math?: boolean;
  /** The page has Mermaid diagrams: diagrams.js loads, and draws them through Quire's diagram frame. */
  diagrams?: boolean;
  bodyClass?: string;
  /** The site's customization (a bare error page has none: Quire's defaults). */
  settings?: SiteCustomizationSettings;
  /** Attributes of <body> the reader's script reads (the page, for insights), already escaped. */
  bodyData?: string;
  /** Social cards: the page's title, and an image. */
  social?: { title: string; siteName: string; image?: string | null; url?: string | null };
  /** JSON-LD of the page (breadcrumbs). */
  jsonLd?: unknown;
  /** The page's language (`<html lang>`); English when unknown. */
  lang?: string;
  /** The same page in other languages (`<link rel="alternate" hreflang>`). */
  alternates?: Array<{ hreflang: string; href: string }>;
}

/** JSON for a <script type="application/ld+json"> block: nothing in it can close the element. */
function jsonForScript(value: unknown): string {
  return JSON.stringify(value).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');
}

function socialTags(shell: Shell): string[] {
  const s = shell.social;
  if (!s) return [];
  return [
    `<meta property="og:type" content="website">`,
    `<meta property="og:title" content="${escapeAttribute(s.title)}">`,
    `<meta property="og:site_name" content="${escapeAttribute(s.siteName)}">`,
    shell.description ? `<meta property="og:description" content="${escapeAttribute(shell.description)}">` : '',
    s.url ? `<meta property="og:url" content="${escapeAttribute(s.url)}">` : '',
    s.image ? `<meta property="og:image" content="${escapeAttribute(s.image)}">` : '',
    `<meta name="twitter:card" content="${s.image ? 'summary_large_image' : 'summary'}">`,
    `<meta name="twitter:title" content="${escapeAttribute(s.title)}">`,
    shell.description ? `<meta name="twitter:description" content="${escapeAttribute(shell.description)}">` : '',
  ].filter(Boolean);
}

export function documentHtml(shell: Shell): string {
  const head = [
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(shell.title)}</title>`,
    shell.description ? `<meta name="description" content="${escapeAttribute(shell.description)}">` : '',
    shell.canonical ? `<link rel="canonical" href="${escapeAttribute(shell.canonical)}">` : '',
    shell.noindex ? '<meta name="robots" content="noindex">' : '',
    '<meta name="color-scheme" content="light dark">',
    // The site's icon, or an empty one: browsers then never ask the site for /favicon.ico.
    `<link rel="icon" href="${escapeAttribute(shell.settings ? faviconHref(shell.settings) : 'data:,')}">`,
    ...socialTags(shell),
    shell.jsonLd ? `<script type="application/ld+json">${jsonForScript(shell.jsonLd)}</script>` : '',
    // Before the stylesheets and not deferred: it sets the reader's theme before the first paint (no flash).
    `<script src="${assetUrl('theme.js')}"></script>`,
    ...(shell.alternates ?? []).map((a) => `<link rel="alternate" hreflang="${escapeAttribute(a.hreflang)}" href="${escapeAttribute(a.href)}">`),
    `<link rel="stylesheet" href="${assetUrl('site.css')}">`,
    `<link rel="stylesheet" href="${assetUrl('content.css')}">`,
    shell.math ? `<link rel="stylesheet" href="${assetUrl('katex.min.css')}">` : '',
    shell.settings ? customFontLink(shell.settings) : '',
    `<script src="${assetUrl('search.js')}" defer></script>`,
    `<script src="${assetUrl('reader.js')}" defer></script>`,
    shell.diagrams ? `<script src="${assetUrl('diagrams.js')}" defer></script>` : '',
  ].filter(Boolean);
  const root = shell.settings ? rootAttributes(shell.settings) : '';
  return `<!doctype html>\n<html lang="${escapeAttribute(shell.lang ?? 'en')}"${root}>\n<head>\n${head.join('\n')}\n</head>\n<body${shell.bodyClass ? ` class="${escapeAttribute(shell.bodyClass)}"` : ''}${shell.bodyData ?? ''}>\n${shell.body}\n</body>\n</html>\n`;
}

export function siteHeader(view: SiteView, query = '', settings: SiteCustomizationSettings = view.settings): string {
  const action = siteHref(view, '~search');
  return `<header class="site-header">
<a class="skip-link" href="#content">Skip to content</a>
<button class="nav-toggle" type="button" aria-label="Open the navigation" aria-expanded="false"><span aria-hidden="true">☰</span></button>
${brandHtml(settings, view.title, rootHref(view))}
${headerLinksHtml(settings)}
<form class="site-search" role="search" action="${escapeAttribute(action)}" method="get" data-suggest="${escapeAttribute(`${action}.json`)}">
<label class="visually-hidden" for="site-search-q">Search</label>
<input id="site-search-q" type="search" name="q" value="${escapeAttribute(query)}" placeholder="Search…" autocomplete="off" maxlength="200" aria-keyshortcuts="Control+K Meta+K">
<button type="submit">Search</button>
</form>
${themeToggleHtml(settings)}
</header>`;
}

function sectionHref(view: SiteView, section: SiteView['sections'][number]): string | null {
  const variant = section.variants.find((v) => v.isDefault) ?? section.variants[0];
  return variant ? variantHref(view, variant) : null;
}

/** Section tabs; a group is a tab whose sections open from it (a <details>, so it works without JavaScript). */
export function sectionTabs(view: SiteView, current: VariantView | null): string {
  if (view.sections.length < 2 && view.tabs.every((t) => t.kind === 'section')) return '';
  const currentId = current?.section?.id;
  const link = (section: SiteView['sections'][number]) => {
    const href = sectionHref(view, section);
    const here = section.id === currentId;
    return href ? `<a class="tab${here ? ' current' : ''}" href="${escapeAttribute(href)}"${here ? ' aria-current="true"' : ''}>${escapeHtml(section.title)}</a>` : '';
  };
  const items = view.tabs.map((tab) => {
    if (tab.kind === 'section') return `<li>${link(tab.section)}</li>`;
    const holds = tab.sections.some((s) => s.id === currentId);
    return `<li class="tab-group"><details><summary class="tab${holds ? ' current' : ''}">${escapeHtml(tab.title)}</summary><ul>${tab.sections
      .map((s) => `<li>${link(s)}${s.description ? `<span class="tab-description">${escapeHtml(s.description)}</span>` : ''}</li>`)
      .join('')}</ul></details></li>`;
  });
  return `<nav class="section-tabs" aria-label="Sections"><ul>${items.join('')}</ul></nav>`;
}

/** The variants of the current section (or site), as links: no JavaScript needed. */
export function variantSwitcher(view: SiteView, current: VariantView, targets?: Map<string, string>): string {
  const siblings = current.section ? current.section.variants : view.variants;
  if (siblings.length < 2) return '';
  const items = siblings
    .map((v) => {
      const here = v.id === current.id;
      return `<li><a href="${escapeAttribute(targets?.get(v.id) ?? variantHref(view, v))}"${here ? ' aria-current="true" class="current"' : ''}>${escapeHtml(v.title)}</a></li>`;
    })
    .join('');
  return `<nav class="variant-switcher" aria-label="Variants"><details><summary><span class="visually-hidden">Variant: </span>${escapeHtml(current.title)}</summary><ul>${items}</ul></details></nav>`;
}

export interface Crumb {
  title: string;
  href: string | null;
}

export function breadcrumbs(crumbs: Crumb[]): string {
  if (crumbs.length === 0) return '';
  const items = crumbs.map((c) => `<li>${c.href ? `<a href="${escapeAttribute(c.href)}">${escapeHtml(c.title)}</a>` : `<span>${escapeHtml(c.title)}</span>`}</li>`);
  return `<nav class="breadcrumbs" aria-label="Breadcrumb"><ol>${items.join('')}</ol></nav>`;
}

export interface OutlineItem {
  id: string;
  title: string;
  depth: number;
}

export function outline(items: OutlineItem[]): string {
  if (items.length === 0) return '';
  const list = items.map((i) => `<li class="depth-${i.depth}"><a href="#${escapeAttribute(i.id)}">${escapeHtml(i.title)}</a></li>`).join('');
  return `<aside class="page-outline"><nav aria-labelledby="outline-title"><p id="outline-title" class="outline-title">On this page</p><ul>${list}</ul></nav></aside>`;
}

export interface Neighbour {
  title: string;
  href: string;
}

export function pagination(previous: Neighbour | null, next: Neighbour | null): string {
  if (!previous && !next) return '';
  const link = (n: Neighbour, rel: 'prev' | 'next', label: string) =>
    `<a class="pagination-${rel}" rel="${rel}" href="${escapeAttribute(n.href)}"><span class="pagination-label">${label}</span><span class="pagination-title">${escapeHtml(n.title)}</span></a>`;
  return `<nav class="pagination" aria-label="Previous and next pages">${previous ? link(previous, 'prev', 'Previous') : '<span></span>'}${next ? link(next, 'next', 'Next') : ''}</nav>`;
}

/** The frame of a page inside a site: header, tabs, then the columns, with the customization of its variant. */
export function siteFrame(view: SiteView, current: VariantView | null, columns: string, query = ''): string {
  const settings = settingsOf(view, current);
  return `${siteHeader(view, query, settings)}\n${sectionTabs(view, current)}\n<div class="site-columns">\n${columns}\n</div>\n${footerHtml(settings)}`;
}

/**
 * The page of a refusal or of an address that leads nowhere, with nothing of any site in it: an unknown
 * site, an unpublished one, and a share-link site without a key all get exactly these bytes.
 */
export function bareErrorPage(status: 401 | 404 | 500, title: string, message: string): string {
  return documentHtml({
    title,
    noindex: true,
    bodyClass: 'error-page',
    body: `<main id="content" class="error"><p class="error-status">${status}</p><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></main>`,
  });
}

export const NOT_FOUND_TITLE = 'Page not found';
export const NOT_FOUND_MESSAGE = 'There is nothing at this address. It may have moved, or it may never have existed.';

/** A 404 inside a site the reader may see: the site's header and tabs, and a way back. */
export function siteNotFoundPage(view: SiteView): string {
  const main = `<main id="content" class="error"><p class="error-status">404</p><h1>${NOT_FOUND_TITLE}</h1><p>${NOT_FOUND_MESSAGE}</p><p><a href="${escapeAttribute(rootHref(view))}">Go to the start of ${escapeHtml(view.title)}</a></p></main>`;
  return documentHtml({ title: `${NOT_FOUND_TITLE} · ${view.title}`, noindex: true, settings: view.settings, body: siteFrame(view, null, main) });
}
