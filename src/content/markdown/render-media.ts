/**
 * Images, files, embeds and content references → Markdown. Plain images are Markdown images; images
 * with a caption, a size, a dark variant or an alignment are `<figure>` HTML.
 */
import type { BlockContent } from 'mdast';
import { writeStartTag } from './html.ts';
import { inlineToPhrasing, type RenderContext } from './render-inline.ts';
import { fileHref, imageHref, refHref } from './refs.ts';
import { writeTag } from './tags.ts';
import { tagged } from './render-tags.ts';
import type { DocumentBlock, DocumentBlockContentRef, DocumentBlockEmbed, DocumentBlockFile, DocumentBlockImage, DocumentBlockImages, DocumentFragment, InlineContent, Length } from './types.ts';

function lengthText(length: Length | undefined): string | undefined {
  if (length === undefined) return undefined;
  return typeof length === 'number' ? String(length) : `${length.value}${length.unit}`;
}

/** The inline content of a caption fragment's paragraphs, line breaks between them. */
export function captionInline(fragments: DocumentFragment[] | undefined, name = 'caption'): InlineContent[] {
  const found = fragments?.find((candidate) => candidate.fragment === name);
  const content: InlineContent[] = [];
  for (const block of found?.nodes ?? []) {
    if (block.type !== 'paragraph' && block.type !== 'heading-1' && block.type !== 'heading-2' && block.type !== 'heading-3') continue;
    if (content.length > 0) content.push({ object: 'text', leaves: [{ object: 'leaf', text: '\n', marks: [] }] });
    content.push(...block.nodes);
  }
  return content;
}

function hasText(nodes: InlineContent[]): boolean {
  return nodes.some((node) => node.object !== 'text' || node.leaves.some((leaf) => leaf.text !== ''));
}

function figure(image: DocumentBlockImage, ctx: RenderContext): string {
  const { ref, refDark, alt, width, height } = image.data;
  let img = writeStartTag('img', [['src', imageHref(ref, ctx.options)], ['alt', alt ?? ''], ['width', lengthText(width)], ['height', lengthText(height)]]);
  if (refDark) img = `<picture>${writeStartTag('source', [['srcset', imageHref(refDark, ctx.options)], ['media', '(prefers-color-scheme: dark)']])}${img}</picture>`;
  const caption = captionInline(image.fragments);
  // GitBook writes the caption element even when it is empty.
  const figcaption = hasText(caption) ? `<figcaption><p>${ctx.inlineMarkdown(inlineToPhrasing(caption, ctx, { breaksAsHtml: true }))}</p></figcaption>` : '<figcaption></figcaption>';
  return `<figure>${img}${figcaption}</figure>`;
}

export function renderImages(block: DocumentBlockImages, ctx: RenderContext): BlockContent[] {
  const { align, fullWidth, withFrame } = block.data;
  // GitBook writes every image block as figures, captioned or not.
  if (block.nodes.length === 0) return [];
  const figures = block.nodes.map((image) => figure(image, ctx)).join('\n');
  if (align === undefined && fullWidth !== true && withFrame !== true) return [{ type: 'html', value: figures }];
  // GitBook writes the wrapper and its figure on one line.
  return [{ type: 'html', value: `${writeStartTag('div', [['align', align], ['data-full-width', fullWidth ? 'true' : undefined], ['data-with-frame', withFrame ? 'true' : undefined]])}${figures}</div>` }];
}

/** Caption paragraphs written between a tag and its closing tag. */
function captionMarkdown(fragments: DocumentFragment[] | undefined, ctx: RenderContext): string {
  const found = fragments?.find((candidate) => candidate.fragment === 'caption');
  const paragraphs = (found?.nodes ?? []).filter((node: DocumentBlock) => node.type === 'paragraph' && hasText(node.nodes));
  return ctx.blocksMarkdown(paragraphs);
}

/** A tag with a caption under it and its closing tag, or the tag alone. */
function captioned(tag: string, caption: string, close: string): BlockContent[] {
  return [{ type: 'html', value: caption === '' ? tag : tagged(tag, caption, close) }];
}

export function renderFile(block: DocumentBlockFile, ctx: RenderContext): BlockContent[] {
  return captioned(writeTag('file', { src: fileHref(block.data.ref.file, ctx.options) }), captionMarkdown(block.fragments, ctx), '{% endfile %}');
}

export function renderEmbed(block: DocumentBlockEmbed, ctx: RenderContext): BlockContent[] {
  const fullWidth = block.data.fullWidth === undefined ? undefined : String(block.data.fullWidth);
  return captioned(writeTag('embed', { url: block.data.url, fullWidth }), captionMarkdown(block.fragments, ctx), '{% endembed %}');
}

/** The title GitBook writes in a content reference's link: the name of the target's file (`page.md`; `.` for `./`). */
function fileTitle(url: string): string {
  const path = url.split('#')[0].replace(/\/$/, '');
  return path.split('/').pop() || '.';
}

export function renderContentRef(block: DocumentBlockContentRef, ctx: RenderContext): BlockContent[] {
  const url = refHref(block.data.ref, ctx.options);
  const title = ctx.options.refTitle?.(block.data.ref) ?? fileTitle(url);
  const link = ctx.inlineMarkdown([{ type: 'link', url, title: null, children: [{ type: 'text', value: title }] }]);
  return [{ type: 'html', value: tagged(writeTag('content-ref', { url }), link, '{% endcontent-ref %}') }];
}
