/**
 * Markdown blocks (mdast flow content) → document blocks. Each function returns a list, because a
 * Markdown block may become several document blocks when the document's nesting rules split it (see
 * nesting.ts).
 */
import type { Blockquote, Code, List, Paragraph, PhrasingContent, RootContent } from 'mdast';
import type { ParseContext } from './context.ts';
import { readHtmlBlock } from './parse-html.ts';
import { convertGroup } from './parse-containers.ts';
import { convertVoid } from './parse-gitbook.ts';
import { groupByTags, type GroupedItem } from './parse-groups.ts';
import { convertInline, convertPhrasing } from './parse-inline.ts';
import { convertTable } from './parse-table.ts';
import { isEmptyInline, normalizeInlines, paragraph, textNode, trimTrailingBreaks } from './nodes.ts';
import { allows, wrapAllowed, type Container } from './nesting.ts';
import { imageRefOf } from './refs.ts';
import type { DocumentBlock, DocumentBlockCode, DocumentBlockCodeLine, DocumentBlockHeading, DocumentBlockImage, DocumentBlockListItem, HeadingType } from './types.ts';

const HEADING_ID = /^[-a-z0-9.+_]+$/;

/** Converts the children of a Markdown container, tags and all, for a document container. */
export function convertChildren(children: RootContent[], ctx: ParseContext, container: Container): DocumentBlock[] {
  return convertItems(groupByTags(children, ctx), ctx, container);
}

/** Converts grouped items; the caller fits the result into its container. */
export function convertItems(items: GroupedItem[], ctx: ParseContext, container: Container): DocumentBlock[] {
  return items.flatMap((item): DocumentBlock[] => {
    if (!('kind' in item)) return convertNode(item, ctx, container);
    if (item.kind === 'group') return convertGroup(item, ctx, container);
    if (item.kind === 'void') return convertVoid(item, ctx);
    // A closing tag with nothing open, or a summary outside an expandable: the Markdown keeps it; nothing shows.
    return [];
  });
}

function convertNode(node: RootContent, ctx: ParseContext, container: Container): DocumentBlock[] {
  switch (node.type) {
    case 'paragraph':
      return convertParagraph(node, ctx, container);
    case 'heading':
      return [convertHeading(node.depth, node.children, ctx)];
    case 'thematicBreak':
      return [{ object: 'block', type: 'divider', data: {}, isVoid: true }];
    case 'blockquote':
      return convertQuote(node, ctx);
    case 'list':
      return convertList(node, ctx);
    case 'code':
      return [codeBlock(node)];
    case 'math':
      return [{ object: 'block', type: 'math', data: { formula: node.value }, isVoid: true }];
    case 'table':
      return [convertTable(node, ctx)];
    case 'html':
      return readHtmlBlock(node.value, ctx);
    case 'definition':
      // A definition that some reference used has become part of its links; the others are kept as written.
      return ctx.referenced.has(node.identifier) ? [] : [ctx.literal(`[${node.label ?? node.identifier}]: ${node.url}${node.title ? ` "${node.title}"` : ''}`)];
    case 'footnoteDefinition':
      // A note some text refers to is that text's annotation; one nothing refers to is kept as its content.
      return ctx.referenced.has(`^${node.identifier}`) ? [] : convertChildren(node.children, ctx, container);
    case 'tagLine':
      return convertChildren([node], ctx, container);
    case 'yaml':
      return [ctx.literal(`---\n${node.value}\n---`)];
    default:
      return [ctx.literal('value' in node && typeof node.value === 'string' ? node.value : '')];
  }
}

function isImageOnly(children: PhrasingContent[], ctx: ParseContext): boolean {
  const resolvable = (child: PhrasingContent) => child.type === 'image' || (child.type === 'imageReference' && ctx.definitions.has(child.identifier));
  return children.some(resolvable) && children.every((child) => resolvable(child) || (child.type === 'text' && child.value.trim() === ''));
}

/**
 * A paragraph, or an images block when it holds nothing but Markdown images and images may go here. A
 * paragraph left without content (a lone `<br>`) is no block at all.
 */
function convertParagraph(node: Paragraph, ctx: ParseContext, container: Container): DocumentBlock[] {
  // A paragraph that is only `$$…$$` is GitBook's block formula; `$$…$$` among other text is inline.
  const content = node.children.filter((child) => !(child.type === 'text' && !child.value.trim()));
  if (content.length === 1 && content[0].type === 'inlineMath' && allows(container, 'math')) {
    return [{ object: 'block', type: 'math', data: { formula: content[0].value }, isVoid: true }];
  }
  if (!allows(container, 'images') || !isImageOnly(node.children, ctx)) {
    const nodes = convertInline(node.children, ctx);
    return isEmptyInline(nodes) ? [] : [paragraph(nodes)];
  }
  const images = node.children.flatMap((child): DocumentBlockImage[] => {
    const source = child.type === 'image' ? { url: child.url, alt: child.alt } : child.type === 'imageReference' ? { url: ctx.definitions.get(child.identifier)?.url ?? '', alt: child.alt } : undefined;
    if (!source) return [];
    const data: DocumentBlockImage['data'] = { ref: imageRefOf(source.url, ctx.options) };
    if (source.alt) data.alt = source.alt;
    return [{ object: 'block', type: 'image', data, fragments: [], isVoid: true }];
  });
  return [{ object: 'block', type: 'images', data: {}, nodes: images, isVoid: false }];
}

/**
 * A heading, as GitBook writes them: the page's title is its `#`, so a body's `##`, `###` and `####` are the
 * document's headings 1, 2 and 3 (a `#` in the body is a heading 1 too; `#####` and deeper are 3, the
 * deepest the document has). A trailing `<a href="#id" id="id"></a>` anchor is its id, never text.
 */
export function convertHeading(depth: number, children: PhrasingContent[], ctx: ParseContext): DocumentBlockHeading {
  const type: HeadingType = depth <= 2 ? 'heading-1' : depth === 3 ? 'heading-2' : 'heading-3';
  const data: DocumentBlockHeading['data'] = {};
  let content = children;
  const [open, close] = children.slice(-2);
  if (children.length >= 2 && open.type === 'html' && close.type === 'html' && /^<\/a\s*>$/i.test(close.value.trim())) {
    const id = /^<a\s+href="#([^"]*)"\s+id="([^"]*)"\s*>$/i.exec(open.value.trim());
    if (id && id[1] === id[2] && HEADING_ID.test(id[1])) {
      data.id = id[1];
      content = children.slice(0, -2);
      const last = content[content.length - 1];
      if (last?.type === 'text') content = [...content.slice(0, -1), { ...last, value: last.value.replace(/[ \t]+$/, '') }];
    }
  }
  return { object: 'block', type, data, nodes: normalizeInlines(trimTrailingBreaks(convertPhrasing(content, ctx))) };
}

function convertQuote(node: Blockquote, ctx: ParseContext): DocumentBlock[] {
  const blocks = convertChildren(node.children, ctx, 'blockquote');
  return wrapAllowed('blockquote', blocks, (nodes) => ({ object: 'block', type: 'blockquote', data: {}, nodes }));
}

/** A list; items whose content must leave the list split it, and the list goes on after them. */
function convertList(node: List, ctx: ParseContext): DocumentBlock[] {
  const tasks = node.children.some((item) => typeof item.checked === 'boolean');
  const start = node.start ?? 1;
  const out: DocumentBlock[] = [];
  let items: DocumentBlockListItem[] = [];
  let emitted = 0;
  const flush = () => {
    if (items.length === 0) return;
    if (tasks) out.push({ object: 'block', type: 'list-tasks', data: {}, nodes: items });
    else if (!node.ordered) out.push({ object: 'block', type: 'list-unordered', data: {}, nodes: items });
    else out.push({ object: 'block', type: 'list-ordered', data: start + emitted === 1 ? {} : { start: start + emitted }, nodes: items });
    emitted += items.length;
    items = [];
  };
  for (const item of node.children) {
    const blocks = convertChildren(item.children, ctx, 'list-item');
    const parts = wrapAllowed('list-item', blocks, (nodes, part): DocumentBlockListItem => ({
      object: 'block',
      type: 'list-item',
      data: tasks ? { checked: part === 0 && item.checked === true } : {},
      nodes: nodes.length > 0 ? nodes : [paragraph()],
    }));
    for (const part of parts) {
      if (part.type === 'list-item') items.push(part);
      else {
        flush();
        out.push(part);
      }
    }
  }
  flush();
  return out;
}

const CODE_META = /([A-Za-z]+)="((?:[^"\\]|\\.)*)"/g;

/** A code block; `title="…"` (and the other options of the code tag) may also sit in the fence's info string. */
export function codeBlock(node: Code, options: Record<string, string> = {}): DocumentBlockCode {
  const data: DocumentBlockCode['data'] = {};
  if (node.lang) data.syntax = node.lang;
  const meta: Record<string, string> = {};
  for (const [, key, value] of (node.meta ?? '').matchAll(CODE_META)) meta[key] = value.replace(/\\(.)/g, '$1');
  const settings = { ...meta, ...options };
  if (settings.title !== undefined) data.title = settings.title;
  if (settings.overflow === 'wrap' || settings.overflow === 'scroll') data.overflow = settings.overflow;
  if (settings.lineNumbers === 'true' || settings.lineNumbers === 'false') data.lineNumbers = settings.lineNumbers === 'true';
  if (settings.fullWidth === 'true' || settings.fullWidth === 'false') data.fullWidth = settings.fullWidth === 'true';
  const nodes = node.value.split('\n').map((line): DocumentBlockCodeLine => ({ object: 'block', type: 'code-line', data: {}, nodes: [textNode(line)] }));
  return { object: 'block', type: 'code', data, nodes };
}
