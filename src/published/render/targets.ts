/**
 * Where references lead on the published site: URLs through the scheme gate, pages and files through
 * the caller's RenderLinks. A reference that leads nowhere is told apart from one that was refused, as
 * the first is shown as a broken link and the second as plain text.
 */
import type { ContentRef, ImageRef } from '../../content/markdown/index.ts';
import type { RenderLinks } from './context.ts';
import { escapeAttribute, safeUrl } from './escape.ts';
import { isBrokenMarker } from '../../content/broken-marker.ts';

export type Target =
  /** A URL to link to. */
  | { kind: 'href'; href: string }
  /** A page or file that is missing or hidden, or a kind of reference the site cannot show. */
  | { kind: 'broken' }
  /** A URL whose scheme is not allowed; its text is shown, never linked. */
  | { kind: 'refused' };

function fromLink(url: string | null): Target {
  return url === null ? { kind: 'broken' } : { kind: 'href', href: url };
}

export function resolveRef(ref: ContentRef, links: RenderLinks): Target {
  switch (ref.kind) {
    case 'url': {
      if (isBrokenMarker(ref.url)) return { kind: 'broken' };
      const href = safeUrl(ref.url);
      return href === null ? { kind: 'refused' } : { kind: 'href', href };
    }
    case 'page':
      return fromLink(links.pageUrl(ref.page));
    case 'anchor':
      return ref.page ? fromLink(links.pageUrl(ref.page, ref.anchor)) : { kind: 'href', href: `#${ref.anchor}` };
    case 'file':
      return fromLink(links.fileUrl(ref.file));
    default:
      // Users, collections, other spaces, reusable content and OpenAPI specs have no page on a published site.
      return { kind: 'broken' };
  }
}

/** The `src` of an image, or null when it cannot be shown (missing file, refused scheme). */
export function imageSource(ref: ImageRef, links: RenderLinks): string | null {
  const target = resolveRef(ref, links);
  return target.kind === 'href' ? target.href : null;
}

/** Extra attributes of an `<img>`, as names and raw values (escaped when written). */
export type ImgAttributes = Array<[name: string, value: string]>;

/**
 * An `<img>`, in a `<picture>` with a dark-mode source when the dark variant resolves. The caller has
 * checked that `src` is showable.
 */
export function pictureHtml(src: string, dark: ImageRef | undefined, alt: string, links: RenderLinks, attributes: ImgAttributes = []): string {
  const extra = attributes.map(([name, value]) => ` ${name}="${escapeAttribute(value)}"`).join('');
  const img = `<img src="${escapeAttribute(src)}" alt="${escapeAttribute(alt)}" loading="lazy" decoding="async"${extra}>`;
  const darkSrc = dark ? imageSource(dark, links) : null;
  if (darkSrc === null) return img;
  // A space would split the URL into a srcset descriptor.
  return `<picture><source srcset="${escapeAttribute(darkSrc.replace(/ /g, '%20'))}" media="(prefers-color-scheme: dark)">${img}</picture>`;
}

/** A short name for a URL: the last segment of its path, decoded (a file's name). */
export function urlLabel(href: string): string {
  const path = href.replace(/[?#].*$/, '');
  const last = path.split('/').filter((part) => part !== '').pop() ?? href;
  try {
    return decodeURIComponent(last);
  } catch (error) {
    // A stray `%` is not an encoding: the name is shown as written.
    if (error instanceof URIError) return last;
    throw error;
  }
}
