import type { SiteCustomizationSettings } from '../sites/customization.ts';
import { escapeAttribute, escapeHtml, safeUrl } from './render/escape.ts';

/**
 * A site's branding as the reader draws it: the primary colour (made readable on each theme's background),
 * the font, the corners, the logo, the favicon, header links and the footer. Everything is set through
 * attributes and CSS custom properties on the root element (`style` attributes are allowed by the reader's
 * policy; `<style>` elements are not), so the stylesheets stay shared and immutable.
 */

/** The page backgrounds of the two themes (site.css). */
const BACKGROUND = { light: '#ffffff', dark: '#0d1117' };
/** WCAG AA for normal text. */
const MIN_CONTRAST = 4.5;

type Rgb = [number, number, number];

function parseHex(hex: string): Rgb | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(hex.trim());
  if (!m) return null;
  const h = m[1].length === 3 ? [...m[1]].map((c) => c + c).join('') : m[1];
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as Rgb;
}

function toHex(rgb: Rgb): string {
  return `#${rgb.map((c) => Math.round(Math.min(255, Math.max(0, c))).toString(16).padStart(2, '0')).join('')}`;
}

function luminance([r, g, b]: Rgb): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

export function contrast(a: string, b: string): number {
  const [x, y] = [parseHex(a), parseHex(b)];
  if (!x || !y) return 1;
  const [l1, l2] = [luminance(x), luminance(y)].sort((p, q) => q - p);
  return (l1 + 0.05) / (l2 + 0.05);
}

/**
 * The colour, mixed step by step toward black (light theme) or white (dark theme) until it reads on that
 * theme's background with a contrast of at least 4.5:1. A colour that already does is kept as it is.
 */
export function readableOn(color: string, theme: 'light' | 'dark'): string {
  const rgb = parseHex(color);
  if (!rgb) return theme === 'light' ? '#0b63ce' : '#58a6ff';
  const target = theme === 'light' ? 0 : 255;
  for (let step = 0; step <= 20; step++) {
    const t = step / 20;
    const mixed = toHex(rgb.map((c) => c + (target - c) * t) as Rgb);
    if (contrast(mixed, BACKGROUND[theme]) >= MIN_CONTRAST) return mixed;
  }
  return theme === 'light' ? '#000000' : '#ffffff';
}

const FONT_STACKS: Record<string, string> = {
  RobotoSlab: '"Roboto Slab", Georgia, serif',
  Merriweather: 'Merriweather, Georgia, serif',
  IBMPlexSerif: '"IBM Plex Serif", Georgia, serif',
};
const SANS = 'system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif';

function fontStack(font: SiteCustomizationSettings['styling']['font']): string {
  const name = typeof font === 'string' ? font : font?.fontFamily;
  if (!name) return SANS;
  // An uploaded font is named as its @font-face rules name it (src/modules/fonts/uploads.ts), exactly.
  if (typeof font === 'object' && font.custom) return `"${name.replace(/["\\;{}<>\n\r]/g, '')}", ${SANS}`;
  if (FONT_STACKS[name]) return FONT_STACKS[name];
  // The named family first (when the reader has it), the system's sans-serif otherwise.
  const family = name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/["\\;{}<>]/g, '');
  return `"${family}", ${SANS}`;
}

/**
 * The stylesheet of a custom font's `@font-face` rules (src/modules/fonts/), when the site's font is one:
 * served on every origin at `/~fonts/css/<fontId>`, the font files beside it, so `font-src 'self'` holds.
 */
export function customFontLink(settings: SiteCustomizationSettings): string {
  const font = settings.styling.font;
  if (typeof font !== 'object' || font === null || !font.custom || typeof font.id !== 'string' || !/^[A-Za-z0-9_-]{1,100}$/.test(font.id)) return '';
  return `<link rel="stylesheet" href="/~fonts/css/${escapeAttribute(font.id)}">`;
}

const RADIUS = { straight: '0', rounded: '.5rem', circular: '1rem' } as const;

/** The root element's attributes: theme mode, the custom properties of the brand. */
export function rootAttributes(settings: SiteCustomizationSettings): string {
  const styling = settings.styling;
  const vars = [
    `--q-brand-light:${readableOn(styling.primaryColor.light, 'light')}`,
    `--q-brand-dark:${readableOn(styling.primaryColor.dark, 'dark')}`,
    `--q-font:${fontStack(styling.font)}`,
    `--q-radius:${RADIUS[styling.corners] ?? RADIUS.rounded}`,
  ].join(';');
  // The site's default theme is served, as GitBook serves it; with the toggle on, theme.js puts the
  // reader's last choice in its place before the first paint.
  const theme = settings.themes.default === 'dark' ? 'dark' : 'light';
  return ` data-theme="${theme}" data-toggle="${settings.themes.toggeable ? 'on' : 'off'}" style="${escapeAttribute(vars)}"`;
}

/** An image address: a web address, or an image as a data: URL (images never run scripts). */
function imageUrl(url: string | undefined): string | null {
  if (!url) return null;
  if (/^data:image\/(png|jpeg|gif|webp|avif|svg\+xml)[;,]/i.test(url.trim())) return url.trim();
  return safeUrl(url);
}

/** The site's logo for each theme (with a fixed box: no layout shift while it loads), or its title. */
export function brandHtml(settings: SiteCustomizationSettings, title: string, href: string): string {
  const logo = settings.header.logo;
  const light = imageUrl(logo?.light);
  const dark = imageUrl(logo?.dark);
  if (!light) return `<a class="site-title" href="${escapeAttribute(href)}">${escapeHtml(title)}</a>`;
  const image = (src: string, which: string) => `<img class="site-logo logo-${which}" src="${escapeAttribute(src)}" alt="${escapeAttribute(title)}" width="160" height="32">`;
  return `<a class="site-title site-brand" href="${escapeAttribute(href)}">${image(light, 'light')}${image(dark ?? light, 'dark')}</a>`;
}

/** The favicon: the site's icon, an emoji drawn as SVG, or an empty icon (so browsers do not ask for /favicon.ico). */
export function faviconHref(settings: SiteCustomizationSettings): string {
  const icon = imageUrl(settings.favicon?.icon?.light);
  if (icon) return icon;
  const emoji = settings.favicon?.emoji;
  if (emoji && /^[\p{Extended_Pictographic}\u200d\ufe0f]{1,8}$/u.test(emoji)) {
    return `data:image/svg+xml,${encodeURIComponent(`<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><text y=".9em" font-size="90">${emoji}</text></svg>`)}`;
  }
  return 'data:,';
}

interface Link {
  title: string;
  href: string;
}

/** The target of a customization link (the client's ContentRef): URLs only; content links need a space to resolve. */
function linkOf(item: unknown): Link | null {
  if (!item || typeof item !== 'object') return null;
  const { title, to } = item as { title?: unknown; to?: unknown };
  if (typeof title !== 'string' || !to || typeof to !== 'object') return null;
  const ref = to as { kind?: string; url?: string };
  const href = ref.kind === 'url' && typeof ref.url === 'string' ? safeUrl(ref.url) : null;
  return href ? { title, href } : null;
}

export function headerLinksHtml(settings: SiteCustomizationSettings): string {
  const links = (settings.header.links ?? []).map((item) => {
    const link = linkOf(item);
    const style = (item as { style?: string }).style;
    return link ? `<a class="header-link${style?.startsWith('button') ? ` header-button ${escapeAttribute(style)}` : ''}" href="${escapeAttribute(link.href)}">${escapeHtml(link.title)}</a>` : '';
  });
  const html = links.join('');
  return html ? `<nav class="header-links" aria-label="Site links">${html}</nav>` : '';
}

export function footerHtml(settings: SiteCustomizationSettings): string {
  const groups = (settings.footer.groups ?? [])
    .map((group) => {
      const links = (group.links ?? []).map(linkOf).filter((l): l is Link => l !== null);
      if (!links.length) return '';
      return `<div class="footer-group"><p class="footer-group-title">${escapeHtml(group.title)}</p><ul>${links.map((l) => `<li><a href="${escapeAttribute(l.href)}">${escapeHtml(l.title)}</a></li>`).join('')}</ul></div>`;
    })
    .join('');
  const logo = imageUrl(settings.footer.logo?.light);
  const privacy = settings.privacyPolicy?.url ? safeUrl(settings.privacyPolicy.url) : null;
  const lines = [
    logo ? `<img class="footer-logo" src="${escapeAttribute(logo)}" alt="" width="120" height="24">` : '',
    groups ? `<div class="footer-groups">${groups}</div>` : '',
    settings.footer.copyright ? `<p class="footer-copyright">${escapeHtml(settings.footer.copyright)}</p>` : '',
    privacy ? `<p><a href="${escapeAttribute(privacy)}">Privacy policy</a></p>` : '',
    settings.trademark?.enabled === false ? '' : '<p>Published with Quire</p>',
  ].filter(Boolean);
  return `<footer class="site-footer">${lines.join('')}</footer>`;
}

/** The toggle between light and dark (shown by theme.js; readers without scripts follow their system). */
export function themeToggleHtml(settings: SiteCustomizationSettings): string {
  if (!settings.themes.toggeable) return '';
  return '<button class="theme-toggle" type="button" aria-label="Switch theme" title="Switch between light and dark"><span class="theme-icon" aria-hidden="true"></span></button>';
}
