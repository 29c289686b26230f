/**
 * Images, files, embeds and content references → Markdown. Plain images are Markdown images; images
 * with a caption, a size, a dark variant or an alignment are `<figure>` HTML.
 */
import type { Paragraph, BlockContent } from 'mdast';
import { writeStartTag } from './html.ts';
import { inlineToPhrasing, type RenderContext } from './render-inline.ts';
import { fileHref, imageHref, refHref } from './refs.ts';
import { writeTag } from './tags.ts';
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

function isPlain(image: DocumentBlockImage): boolean {
  const { refDark, width, height } = image.data;
  return refDark === undefined && width === undefined && height === undefined && !hasText(captionInline(image.fragments));
}

function figure(image: DocumentBlockImage, ctx: RenderContext): string {
  const { ref, refDark, alt, width, height } = image.data;
  let img = writeStartTag('img', [['src', imageHref(ref, ctx.options)], ['alt', alt ?? ''], ['width', lengthText(width)], ['height', lengthText(height)]]);
  if (refDark) img = `<picture>${writeStartTag('source', [['srcset', imageHref(refDark, ctx.options)], ['media', '(prefers-color-scheme: dark)']])}${img}</picture>`;
  const caption = captionInline(image.fragments);
  const figcaption = hasText(caption) ? `<figcaption><p>${ctx.inlineMarkdown(inlineToPhrasing(caption, ctx, { breaksAsHtml: true }))}</p></figcaption>` : '';
  return `<figure>${img}${figcaption}</figure>`;
}

export function renderImages(block: DocumentBlockImages, ctx: RenderContext): BlockContent[] {
  const { align, fullWidth } = block.data;
  if (align === undefined && fullWidth !== true && block.nodes.every(isPlain)) {
    const children: Paragraph['children'] = [];
    for (const image of block.nodes) {
      if (children.length > 0) children.push({ type: 'text', value: ' ' });
      children.push({ type: 'image', url: imageHref(image.data.ref, ctx.options), alt: image.data.alt ?? '', title: null });
    }
    return children.length > 0 ? [{ type: 'paragraph', children }] : [];
  }
  const figures = block.nodes.map((image) => figure(image, ctx)).join('\n');
  if (align === undefined && fullWidth !== true) return [{ type: 'html', value: figures }];
  return [{ type: 'html', value: `${writeStartTag('div', [['align', align], ['data-full-width', fullWidth ? 'true' : undefined]])}\n${figures}\n</div>` }];
}

/** Caption paragraphs written between a tag and its closing tag. */
function captionBlocks(fragments: DocumentFragment[] | undefined, ctx: RenderContext): BlockContent[] {
  const found = fragments?.find((candidate) => candidate.fragment === 'caption');
  return (found?.nodes ?? []).flatMap((node: DocumentBlock): BlockContent[] => (node.type === 'paragraph' && hasText(node.nodes) ? [{ type: 'paragraph', children: inlineToPhrasing(node.nodes, ctx) }] : []));
}

export function renderFile(block: DocumentBlockFile, ctx: RenderContext): BlockContent[] {
  const tag: BlockContent = { type: 'html', value: writeTag('file', { src: fileHref(block.data.ref.file, ctx.options) }) };
  const caption = captionBlocks(block.fragments, ctx);
  return caption.length === 0 ? [tag] : [tag, ...caption, { type: 'html', value: '{% endfile %}' }];
}

export function renderEmbed(block: DocumentBlockEmbed, ctx: RenderContext): BlockContent[] {
  const fullWidth = block.data.fullWidth === undefined ? undefined : String(block.data.fullWidth);
  const tag: BlockContent = { type: 'html', value: writeTag('embed', { url: block.data.url, fullWidth }) };
  const caption = captionBlocks(block.fragments, ctx);
  return caption.length === 0 ? [tag] : [tag, ...caption, { type: 'html', value: '{% endembed %}' }];
}

export function renderContentRef(block: DocumentBlockContentRef, ctx: RenderContext): BlockContent[] {
  const url = refHref(block.data.ref, ctx.options);
  const title = ctx.options.refTitle?.(block.data.ref) ?? url;
  return [
    { type: 'html', value: writeTag('content-ref', { url }) },
    { type: 'paragraph', children: [{ type: 'link', url, title: null, children: [{ type: 'text', value: title }] }] },
    { type: 'html', value: '{% endcontent-ref %}' },
  ];
}
