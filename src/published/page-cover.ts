import type { LayoutOptions, PageCover } from '../content/nodes.ts';
import { escapeAttribute, escapeHtml, safeUrl } from './render/escape.ts';

/**
 * A page's cover and emoji as the reader shows them. The cover (GitBook's `cover` of a page, shown when the
 * page layout's `cover` is on) is a picture from the space's files or from an address, `hero` (a band above the
 * title) or `full` (the width of the page); it is decoration, so its text alternative is empty.
 */
export function coverHtml(layout: LayoutOptions, cover: PageCover | undefined, fileUrl: (fileId: string) => string | null): string {
  if (!layout.cover || !cover) return '';
  const source = (ref: PageCover['ref']) => (ref?.kind === 'file' ? fileUrl(ref.file) : ref?.kind === 'url' ? safeUrl(ref.url) : null);
  const light = source(cover.ref);
  if (!light) return '';
  const dark = source(cover.refDark);
  const picture = dark
    ? `<picture><source srcset="${escapeAttribute(dark)}" media="(prefers-color-scheme: dark)"><img src="${escapeAttribute(light)}" alt=""></picture>`
    : `<img src="${escapeAttribute(light)}" alt="">`;
  return `<figure class="page-cover page-cover-${layout.coverSize === 'full' ? 'full' : 'hero'}">${picture}</figure>`;
}

/** A page's emoji as text: GitBook stores its code points in hex ("1f4d8", "1f468-200d-1f4bb"); older pages the character. */
export function emojiText(code: string): string {
  if (!/^[0-9a-f]{2,6}(-[0-9a-f]{2,6})*$/i.test(code)) return escapeHtml(code);
  const points = code.split('-').map((part) => parseInt(part, 16));
  return points.every((point) => point <= 0x10ffff) ? escapeHtml(String.fromCodePoint(...points)) : escapeHtml(code);
}
