/**
 * Images, files, embeds and content references. Embeds are link cards, never iframes: the site runs no
 * third-party frames. Anything whose file or page is gone is shown as text marked `broken-link`.
 */
import type { ContentRef, DocumentBlockContentRef, DocumentBlockEmbed, DocumentBlockFile, DocumentBlockImage, DocumentBlockImages, DocumentFragment, Length } from '../../content/markdown/index.ts';
import type { RenderContext } from './context.ts';
import { escapeAttribute, escapeHtml, safeUrl } from './escape.ts';
import { linked } from './inlines.ts';
import { isBrokenMarker } from '../../content/broken-marker.ts';
import { renderFragmentInline } from './containers.ts';
import { imageSource, pictureHtml, resolveRef, urlLabel, type ImgAttributes } from './targets.ts';

function caption(fragments: DocumentFragment[] | undefined): DocumentFragment | undefined {
  return (fragments ?? []).find((fragment) => fragment.fragment === 'caption');
}

function hasCaption(fragment: DocumentFragment | undefined): boolean {
  return (fragment?.nodes ?? []).some((block) => block.type === 'paragraph' && block.nodes?.some((node) => node.object !== 'text' || node.leaves.some((leaf) => leaf.text.trim() !== '')));
}

/** A width or height in pixels, as an attribute; other units have no attribute form and are left to the stylesheet. */
function pixels(length: Length | undefined): string | undefined {
  const value = typeof length === 'number' ? length : length?.unit === 'px' ? length.value : undefined;
  return value !== undefined && Number.isFinite(value) && value > 0 ? String(Math.round(value)) : undefined;
}

export function renderImage(image: DocumentBlockImage, ctx: RenderContext, out: string[]): void {
  const { ref, refDark, alt, width, height } = image.data ?? {};
  const src = ref ? imageSource(ref, ctx.links) : null;
  out.push('<figure class="image">');
  if (src === null) out.push(`<span class="broken-link">${escapeHtml(alt || 'Missing image')}</span>`);
  else {
    const attributes: ImgAttributes = [];
    const w = pixels(width);
    const h = pixels(height);
    if (w) attributes.push(['width', w]);
    if (h) attributes.push(['height', h]);
    out.push(pictureHtml(src, refDark, alt ?? '', ctx.links, attributes));
  }
  const captionFragment = caption(image.fragments);
  if (hasCaption(captionFragment)) {
    out.push('<figcaption>');
    renderFragmentInline(captionFragment, ctx, out);
    out.push('</figcaption>');
  }
  out.push('</figure>');
}

export function renderImages(block: DocumentBlockImages, ctx: RenderContext, out: string[]): void {
  const align = block.data?.align;
  const classes = ['images', align ? `align-${align}` : '', block.data?.fullWidth ? 'full-width' : ''].filter(Boolean).join(' ');
  out.push(`<div class="${classes}">`);
  for (const image of block.nodes ?? []) renderImage(image, ctx, out);
  out.push('</div>');
}

function renderCaption(fragments: DocumentFragment[] | undefined, className: string, ctx: RenderContext, out: string[]): void {
  const found = caption(fragments);
  if (!hasCaption(found)) return;
  out.push(`<div class="${className}">`);
  renderFragmentInline(found, ctx, out);
  out.push('</div>');
}

export function renderFile(block: DocumentBlockFile, ctx: RenderContext, out: string[]): void {
  const fileId = block.data?.ref?.file ?? '';
  const href = ctx.links.fileUrl(fileId);
  out.push('<div class="file">');
  if (href === null) out.push(`<span class="card file-card broken-link">${escapeHtml('Missing file')}</span>`);
  else out.push(`<a class="card file-card" href="${escapeAttribute(href)}" download><span class="card-title">${escapeHtml(urlLabel(href))}</span></a>`);
  renderCaption(block.fragments, 'file-caption', ctx, out);
  out.push('</div>');
}

/** The host of an absolute URL, for an embed card's title. */
function hostOf(href: string): string {
  try {
    return new URL(href).host || href;
  } catch (error) {
    // A relative URL has no host of its own: the URL is its own title.
    if (error instanceof TypeError) return href;
    throw error;
  }
}

export function renderEmbed(block: DocumentBlockEmbed, ctx: RenderContext, out: string[]): void {
  const url = block.data?.url ?? '';
  const href = safeUrl(url);
  out.push(`<div class="embed${block.data?.fullWidth ? ' full-width' : ''}">`);
  if (href === null) out.push(`<span class="card embed-card"><span class="card-url">${escapeHtml(url)}</span></span>`);
  else {
    out.push(`<a class="card embed-card" href="${escapeAttribute(href)}" rel="noopener noreferrer">`);
    out.push(`<span class="card-title">${escapeHtml(hostOf(href))}</span><span class="card-url">${escapeHtml(href)}</span></a>`);
  }
  renderCaption(block.fragments, 'embed-caption', ctx, out);
  out.push('</div>');
}

/**
 * What a content reference's card says: the document names no title, so the card names where it leads —
 * a page by its title (as GitBook's renderer does), a file by its name, a URL as written.
 */
function refLabel(ref: ContentRef, href: string | undefined, ctx: RenderContext): string {
  if (ref.kind === 'url') {
    if (!isBrokenMarker(ref.url)) return ref.url;
    return ref.url.startsWith('/broken/files/') ? 'Missing file' : 'Missing page';
  }
  if (href === undefined) return ref.kind === 'file' ? 'Missing file' : 'Missing page';
  if (ref.kind === 'file') return urlLabel(href);
  const page = ref.kind === 'page' ? ref.page : ref.kind === 'anchor' ? ref.page : undefined;
  const title = page ? ctx.links.pageTitle(page)?.trim() : undefined;
  if (title) return title;
  return ref.kind === 'anchor' && !ref.page ? `#${ref.anchor}` : 'Untitled page';
}

export function renderContentRef(block: DocumentBlockContentRef, ctx: RenderContext, out: string[]): void {
  const ref = block.data?.ref;
  if (!ref) return;
  const target = resolveRef(ref, ctx.links);
  const href = target.kind === 'href' ? target.href : undefined;
  out.push(`<div class="content-ref" data-kind="${escapeAttribute(ref.kind)}">`);
  linked(target, () => out.push(`<span class="card-title">${escapeHtml(refLabel(ref, href, ctx))}</span>`), out, 'card');
  out.push('</div>');
}
