/**
 * Inline Markdown (mdast phrasing content) → the document's text leaves, marks and inlines. Inline HTML
 * that the format writes is read back: `<sup>`, `<sub>`, `<kbd>`, `<mark style>` (and `<strong>`, `<em>`,
 * `<code>`, `<s>`) become marks, `<br>` a line break, `<img>` an inline image; any other HTML is kept
 * as text.
 */
import type { PhrasingContent } from 'mdast';
import type { ParseContext } from './context.ts';
import { readAttributes, tagName } from './html.ts';
import { leaf, normalizeInlines, trimTrailingBreaks, type InlinePiece } from './nodes.ts';
import { readOpaqueInline } from './opaque.ts';
import { imageRefOf, linkRefOf } from './refs.ts';
import type { DocumentInlineImage, DocumentInlineLink, DocumentMark, DocumentText, InlineContent, MarkColor, SimpleMarkType } from './types.ts';

const COLORS: ReadonlySet<string> = new Set(['default', 'green', 'blue', 'red', 'orange', 'yellow', 'purple', '$primary', '$info', '$success', '$warning', '$danger']);
const SIMPLE_TAGS: Record<string, SimpleMarkType> = {
  strong: 'bold', b: 'bold', em: 'italic', i: 'italic', s: 'strikethrough', del: 'strikethrough', strike: 'strikethrough',
  code: 'code', kbd: 'keyboard', sup: 'superscript', sub: 'subscript',
};

function mark(type: SimpleMarkType): DocumentMark {
  return { object: 'mark', type };
}

function isColor(value: string): value is MarkColor {
  return COLORS.has(value);
}

/** The mark an opening HTML tag stands for, if any. */
function markOfTag(name: string, html: string): DocumentMark | undefined {
  if (name in SIMPLE_TAGS) return mark(SIMPLE_TAGS[name]);
  if (name !== 'mark') return undefined;
  const style = new Map(
    (readAttributes(html).get('style') ?? '')
      .split(';')
      .filter((part) => part.includes(':'))
      .map((part): [string, string] => [part.slice(0, part.indexOf(':')).trim().toLowerCase(), part.slice(part.indexOf(':') + 1).trim()]),
  );
  const text = style.get('color') ?? 'default';
  const background = style.get('background-color') ?? 'default';
  return isColor(text) && isColor(background) ? { object: 'mark', type: 'color', data: { text, background } } : undefined;
}

/** The index of the sibling that closes the tag opened at `open`, or -1. */
function closingIndex(nodes: PhrasingContent[], open: number, name: string): number {
  let depth = 0;
  for (let index = open; index < nodes.length; index++) {
    const node = nodes[index];
    if (node.type !== 'html') continue;
    const found = tagName(node.value);
    if (found === name) depth++;
    else if (found === `/${name}` && --depth === 0) return index;
  }
  return -1;
}

/** An inline image from `<img>` attributes or Markdown `![alt](src)`; the alt text is its caption. */
export function inlineImage(src: string, alt: string | undefined, size: string | undefined, ctx: ParseContext): DocumentInlineImage {
  const data: DocumentInlineImage['data'] = { ref: imageRefOf(src, ctx.options) };
  if (alt) data.caption = alt;
  if (size === 'original' || size === 'line') data.size = size;
  return { object: 'inline', type: 'inline-image', data, isVoid: true };
}

function link(url: string, children: PhrasingContent[], ctx: ParseContext, marks: DocumentMark[]): DocumentInlineLink {
  const pieces = convertPhrasing(children, ctx, marks, true).map((piece): InlinePiece => {
    if (piece.object === 'leaf' || piece.type === 'inline-image') return piece;
    return leaf(piece.type === 'inline-math' ? `$$${piece.data.formula}$$` : '', marks);
  });
  const nodes = normalizeInlines(pieces).filter((node): node is DocumentText | DocumentInlineImage => node.object === 'text' || node.type === 'inline-image');
  return { object: 'inline', type: 'link', data: { ref: linkRefOf(url, ctx.options) }, nodes };
}

function html(value: string, ctx: ParseContext, marks: DocumentMark[], inLink: boolean): InlinePiece {
  const name = tagName(value);
  if (name === 'br') return leaf('\n', marks);
  if (name === 'img') {
    const attributes = readAttributes(value);
    const src = attributes.get('src');
    if (src !== undefined) return inlineImage(src, attributes.get('alt'), attributes.get('data-size'), ctx);
  }
  const opaque = inLink ? undefined : readOpaqueInline(value);
  return opaque ?? leaf(value.replace(/[ \t]*\n[ \t]*/g, ' '), marks);
}

/** Converts phrasing content to pieces of inline content, each leaf carrying `marks` and its own. */
export function convertPhrasing(nodes: PhrasingContent[], ctx: ParseContext, marks: DocumentMark[] = [], inLink = false): InlinePiece[] {
  const out: InlinePiece[] = [];
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index];
    switch (node.type) {
      case 'text':
        out.push(leaf(node.value.replace(/[ \t]*\n[ \t]*/g, ' '), marks));
        break;
      case 'strong':
        out.push(...convertPhrasing(node.children, ctx, [...marks, mark('bold')], inLink));
        break;
      case 'emphasis':
        out.push(...convertPhrasing(node.children, ctx, [...marks, mark('italic')], inLink));
        break;
      case 'delete':
        out.push(...convertPhrasing(node.children, ctx, [...marks, mark('strikethrough')], inLink));
        break;
      case 'inlineCode':
        out.push(leaf(node.value, [...marks, mark('code')]));
        break;
      case 'break':
        out.push(leaf('\n', marks));
        break;
      case 'inlineMath':
        out.push({ object: 'inline', type: 'inline-math', data: { formula: node.value }, isVoid: true });
        break;
      case 'link':
        if (inLink) out.push(...convertPhrasing(node.children, ctx, marks, true));
        else out.push(link(node.url, node.children, ctx, marks));
        break;
      case 'linkReference': {
        const definition = ctx.definitions.get(node.identifier);
        if (definition && !inLink) out.push(link(definition.url, node.children, ctx, marks));
        else out.push(...convertPhrasing(node.children, ctx, marks, inLink));
        break;
      }
      case 'image':
        out.push(inlineImage(node.url, node.alt ?? undefined, undefined, ctx));
        break;
      case 'imageReference': {
        const definition = ctx.definitions.get(node.identifier);
        out.push(definition ? inlineImage(definition.url, node.alt ?? undefined, undefined, ctx) : leaf(node.alt ?? '', marks));
        break;
      }
      case 'footnoteReference':
        out.push(leaf(`[^${node.label ?? node.identifier}]`, marks));
        break;
      case 'html': {
        const name = tagName(node.value);
        const tagMark = name === undefined ? undefined : markOfTag(name, node.value);
        const close = tagMark && name ? closingIndex(nodes, index, name) : -1;
        if (tagMark && close !== -1) {
          out.push(...convertPhrasing(nodes.slice(index + 1, close), ctx, [...marks, tagMark], inLink));
          index = close;
        } else out.push(html(node.value, ctx, marks, inLink));
        break;
      }
    }
  }
  return out;
}

/** Converts phrasing content to the normal form of a paragraph's nodes. */
export function convertInline(nodes: PhrasingContent[], ctx: ParseContext): InlineContent[] {
  return normalizeInlines(trimTrailingBreaks(convertPhrasing(nodes, ctx)));
}

