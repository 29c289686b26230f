/**
 * Inline Markdown (mdast phrasing content) → the document's text leaves, marks and inlines. Inline HTML
 * that the format writes is read back: `<sup>`, `<sub>`, `<kbd>`, `<mark style>` (and `<strong>`, `<em>`,
 * `<code>`, `<s>`) become marks, `<br>` a line break, `<img>` an inline image; any other HTML is kept
 * as text.
 */
import type { FootnoteDefinition, PhrasingContent } from 'mdast';
import type { ParseContext } from './context.ts';
import { readAttributes, tagName } from './html.ts';
import { fragment, leaf, normalizeInlines, paragraph, trimTrailingBreaks, type InlinePiece } from './nodes.ts';
import { readOpaqueInline } from './opaque.ts';
import { readInlineElement } from './parse-inline-html.ts';
import { imageRefOf, linkRefOf, mentionRefOf } from './refs.ts';
import type { DocumentInlineImage, DocumentInlineLink, DocumentMark, DocumentText, InlineContent, MarkColor, SimpleMarkType } from './types.ts';
import { splitShortcodes } from './emoji-shortcodes.ts';

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

/** The mark an opening HTML tag stands for, if any (`<i>` with a class is an icon, not italic). */
function markOfTag(name: string, html: string, classes: string | undefined): DocumentMark | undefined {
  if (name === 'i' && classes) return undefined;
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

/**
 * A lone piece of inline HTML (no element around content): a line break, an image, a comment that carries
 * an inline; any other tag shows nothing (the page's Markdown keeps it), never its source as text.
 */
function html(value: string, ctx: ParseContext, marks: DocumentMark[], inLink: boolean): InlinePiece[] {
  const name = tagName(value);
  if (name === 'br') return [leaf('\n', marks)];
  if (name === 'img') {
    const attributes = readAttributes(value);
    const src = attributes.get('src');
    if (src !== undefined) return [inlineImage(src, attributes.get('alt'), attributes.get('data-size'), ctx)];
  }
  const opaque = inLink ? undefined : readOpaqueInline(value);
  if (opaque) return [opaque];
  // Text that only looks like a tag ("a < b > c" split by the parser) is text.
  return name === undefined && !/^<!--/.test(value.trim()) ? [leaf(value.replace(/[ \t]*\n[ \t]*/g, ' '), marks)] : [];
}

/**
 * A footnote reference right after a word (`word[^1]`) annotates that word: the word leaves the pieces
 * read so far and becomes the annotation's text; the footnote's content is its note.
 */
function annotate(out: InlinePiece[], definition: FootnoteDefinition | undefined, ctx: ParseContext, marks: DocumentMark[]): InlinePiece[] {
  if (!definition) return [];
  const last = out[out.length - 1];
  let word = '';
  let wordMarks = marks;
  if (last?.object === 'leaf') {
    const match = /(\S+)$/.exec(last.text);
    if (match) {
      word = match[1];
      wordMarks = last.marks;
      const rest = last.text.slice(0, -word.length);
      if (rest) out[out.length - 1] = { ...last, text: rest };
      else out.pop();
    }
  }
  const body = ctx.convertNote(definition);
  return [{
    object: 'inline',
    type: 'annotation',
    data: {},
    nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: word, marks: wordMarks }] }],
    fragments: [fragment('annotation-body', body.length > 0 ? body : [paragraph()], 'annotation-body')],
    isVoid: false,
  }];
}

/** `<picture><source srcset media="(prefers-color-scheme: dark)"><img src alt></picture>`: an inline image with its dark variant. */
function picture(inner: PhrasingContent[], ctx: ParseContext): InlinePiece[] | undefined {
  const tags = inner.filter((node) => node.type === 'html').map((node) => (node as { value: string }).value);
  const img = tags.find((tag) => tagName(tag) === 'img');
  const source = tags.find((tag) => tagName(tag) === 'source');
  if (!img) return undefined;
  const attributes = readAttributes(img);
  const src = attributes.get('src');
  if (src === undefined) return undefined;
  const image = inlineImage(src, attributes.get('alt'), attributes.get('data-size'), ctx);
  const dark = source ? readAttributes(source) : undefined;
  const darkSrc = dark?.get('srcset');
  if (darkSrc !== undefined && (dark?.get('media') ?? '').includes('dark')) image.data.refDark = imageRefOf(darkSrc, ctx.options);
  return [image];
}

/**
 * An HTML element around phrasing content: an inline GitBook writes as HTML (parse-inline-html.ts), a
 * mark, a link; any other element gives its content, without its tags.
 */
function element(name: string, openTag: string, inner: PhrasingContent[], ctx: ParseContext, marks: DocumentMark[], inLink: boolean): InlinePiece[] {
  if (name === 'picture') return picture(inner, ctx) ?? convertPhrasing(inner, ctx, marks, inLink);
  const inline = inLink ? undefined : readInlineElement(name, openTag, inner, ctx);
  if (inline) return [inline];
  const tagMark = markOfTag(name, openTag, readAttributes(openTag).get('class'));
  if (tagMark) return convertPhrasing(inner, ctx, [...marks, tagMark], inLink);
  const href = name === 'a' ? readAttributes(openTag).get('href') : undefined;
  if (href !== undefined && !inLink) return [link(href, inner, ctx, marks)];
  return convertPhrasing(inner, ctx, marks, inLink);
}

/** Converts phrasing content to pieces of inline content, each leaf carrying `marks` and its own. */
export function convertPhrasing(nodes: PhrasingContent[], ctx: ParseContext, marks: DocumentMark[] = [], inLink = false): InlinePiece[] {
  const out: InlinePiece[] = [];
  for (let index = 0; index < nodes.length; index++) {
    const node = nodes[index];
    switch (node.type) {
      case 'text': {
        const text = node.value.replace(/[ \t]*\n[ \t]*/g, ' ');
        // GitBook's emoji shortcodes (`:grinning:`) are emoji inlines, except inside a link, which holds text only.
        const pieces = inLink ? [text] : splitShortcodes(text);
        for (const piece of pieces) out.push(typeof piece === 'string' ? leaf(piece, marks) : { object: 'inline', type: 'emoji', data: { code: piece.code }, isVoid: true });
        break;
      }
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
        // GitBook writes a mention as a link titled "mention"; its text is the target's (the reader shows the target's title).
        else if (node.title === 'mention') out.push({ object: 'inline', type: 'mention', data: { ref: mentionRefOf(node.url, ctx.options) }, isVoid: true });
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
        out.push(...annotate(out, ctx.footnotes.get(node.identifier), ctx, marks));
        break;
      case 'html': {
        const name = tagName(node.value);
        const close = name && !name.startsWith('/') ? closingIndex(nodes, index, name) : -1;
        if (name && close !== -1) {
          out.push(...element(name, node.value, nodes.slice(index + 1, close), ctx, marks, inLink));
          index = close;
        } else out.push(...html(node.value, ctx, marks, inLink));
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

