/**
 * HTML blocks of the page format: figures (images with captions, sizes and dark variants), lone `<img>`
 * tags (inline images), aligned paragraphs and headings, and the comments that carry opaque blocks.
 * Any other HTML is kept, as text.
 */
import type { PhrasingContent } from 'mdast';
import type { ParseContext } from './context.ts';
import { readAttributes } from './html.ts';
import { convertHeading } from './parse-blocks.ts';
import { convertInline, inlineImage } from './parse-inline.ts';
import { fragment, normalizeInlines, paragraph } from './nodes.ts';
import { readOpaqueBlock } from './opaque.ts';
import { imageRefOf } from './refs.ts';
import { lengthOf } from './lengths.ts';
import { htmlToBlocks } from './parse-html-blocks.ts';
import { readHtmlTable } from './parse-html-table.ts';
import { readHtmlCode } from './code-html.ts';
import type { DocumentBlock, DocumentBlockImage, DocumentBlockImages, DocumentInlineImage, TextAlignment } from './types.ts';

/** The phrasing content of a piece of inline Markdown (a caption, a summary, an aligned paragraph). */
export function phrasingOf(source: string, ctx: ParseContext): PhrasingContent[] {
  const children = ctx.subparse(source).children;
  if (children.length === 0) return [];
  const [first] = children;
  return children.length === 1 && first.type === 'paragraph' ? first.children : [{ type: 'text', value: source }];
}


function readFigure(inner: string, ctx: ParseContext): DocumentBlockImage | undefined {
  const caption = /<figcaption>([\s\S]*?)(?<!\\)<\/figcaption>/.exec(inner);
  const img = /<img\b[^>]*>/.exec(inner);
  const source = /<source\b[^>]*>/.exec(inner);
  if (!img) return undefined;
  let rest = inner;
  for (const part of [caption?.[0], img[0], source?.[0], '<picture>', '</picture>']) if (part !== undefined) rest = rest.replace(part, '');
  if (rest.trim() !== '') return undefined;
  const attributes = readAttributes(img[0]);
  const src = attributes.get('src');
  if (src === undefined) return undefined;
  const data: DocumentBlockImage['data'] = { ref: imageRefOf(src, ctx.options) };
  const dark = source ? readAttributes(source[0]) : undefined;
  const darkSrc = dark?.get('srcset');
  if (darkSrc !== undefined && (dark?.get('media') ?? '').includes('dark')) data.refDark = imageRefOf(darkSrc, ctx.options);
  const width = lengthOf(attributes.get('width'));
  const height = lengthOf(attributes.get('height'));
  if (width !== undefined) data.width = width;
  if (height !== undefined) data.height = height;
  const alt = attributes.get('alt');
  if (alt) data.alt = alt;
  const captionSource = (caption?.[1] ?? '').trim().replace(/^<p>([\s\S]*)<\/p>$/, '$1');
  const captionNodes = convertInline(phrasingOf(captionSource, ctx), ctx);
  const fragments = captionSource.trim() === '' ? [] : [fragment('caption', [paragraph(captionNodes)])];
  return { object: 'block', type: 'image', data, fragments, isVoid: true };
}

/** One or more figures, possibly in a `<div align="…" data-full-width="…">`, as an images block. */
function readFigures(html: string, ctx: ParseContext): DocumentBlockImages | undefined {
  let body = html.trim();
  const data: DocumentBlockImages['data'] = {};
  const wrapper = /^<div\b([^>]*)>([\s\S]*)<\/div>$/.exec(body);
  if (wrapper) {
    const attributes = readAttributes(`<div${wrapper[1]}>`);
    const align = attributes.get('align');
    if (align === 'center' || align === 'left' || align === 'right') data.align = align;
    if (attributes.get('data-full-width') === 'true') data.fullWidth = true;
    if (attributes.get('data-with-frame') === 'true') data.withFrame = true;
    body = wrapper[2];
  }
  const figures = [...body.matchAll(/<figure>([\s\S]*?)<\/figure>/g)];
  if (figures.length === 0 || body.replace(/<figure>[\s\S]*?<\/figure>/g, '').trim() !== '') return undefined;
  const images: DocumentBlockImage[] = [];
  for (const figure of figures) {
    const image = readFigure(figure[1], ctx);
    if (!image) return undefined;
    images.push(image);
  }
  return { object: 'block', type: 'images', data, nodes: images, isVoid: false };
}

/** `<img>` tags and nothing else: a paragraph of inline images. */
function readImgTags(html: string, ctx: ParseContext): DocumentInlineImage[] | undefined {
  const tags = [...html.matchAll(/<img\b[^>]*>/g)];
  if (tags.length === 0 || html.replace(/<img\b[^>]*>/g, '').trim() !== '') return undefined;
  const images: DocumentInlineImage[] = [];
  for (const [tag] of tags) {
    const attributes = readAttributes(tag);
    const src = attributes.get('src');
    if (src === undefined) return undefined;
    images.push(inlineImage(src, attributes.get('alt'), attributes.get('data-size'), ctx));
  }
  return images;
}

/** `<img src class="gitbook-drawing">` alone: a drawing, its picture one of the space's files. */
function readDrawing(html: string, ctx: ParseContext): DocumentBlock | undefined {
  const tag = /^<img\b[^>]*>$/.exec(html.trim());
  if (!tag) return undefined;
  const attributes = readAttributes(tag[0]);
  const src = attributes.get('src');
  if (!(attributes.get('class') ?? '').split(/\s+/).includes('gitbook-drawing') || src === undefined) return undefined;
  const ref = imageRefOf(src, ctx.options);
  const alt = attributes.get('alt');
  return { object: 'block', type: 'drawing', data: { ...(ref.kind === 'file' ? { ref } : {}), ...(alt ? { alt } : {}) }, isVoid: true };
}

const ALIGN: Record<string, TextAlignment> = { left: 'start', start: 'start', center: 'center', right: 'end', end: 'end' };

/** `<p align="center">…</p>` or `<h2 align="center">…</h2>` on one line. */
function readAligned(html: string, ctx: ParseContext): DocumentBlock | undefined {
  const match = /^<(p|h[1-6])\s+align="([a-z]+)">(.*)<\/\1>$/.exec(html.trim());
  const align = match ? ALIGN[match[2]] : undefined;
  if (!match || !align) return undefined;
  const content = phrasingOf(match[3], ctx);
  if (match[1] === 'p') return { object: 'block', type: 'paragraph', data: { align }, nodes: convertInline(content, ctx) };
  const heading = convertHeading(Number(match[1][1]), content, ctx);
  return { ...heading, data: { ...heading.data, align } };
}

/** Reads an HTML block; what it does not recognise is read as blocks (parse-html-blocks.ts), never shown as source. */
export function readHtmlBlock(html: string, ctx: ParseContext): DocumentBlock[] {
  if (/^<!--\s*-->$/.test(html.trim())) return [];
  const opaque = readOpaqueBlock(html);
  if (opaque) return [opaque];
  const figures = readFigures(html, ctx);
  if (figures) return [figures];
  const drawing = readDrawing(html, ctx);
  if (drawing) return [drawing];
  const images = readImgTags(html, ctx);
  if (images) return [paragraph(normalizeInlines(images))];
  const aligned = readAligned(html, ctx);
  if (aligned) return [aligned];
  const table = readHtmlTable(html, ctx);
  if (table) return [table];
  const code = /^\s*<pre\b/.test(html) ? readHtmlCode(html) : undefined;
  if (code) return [code];
  return htmlToBlocks(html, ctx);
}
