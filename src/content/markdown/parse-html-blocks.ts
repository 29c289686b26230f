/**
 * HTML that is not one of the format's own HTML blocks (figures, aligned paragraphs, tables), and the
 * content of HTML table cells, read as blocks: paragraphs, headings, lists, code, quotes and dividers from
 * the elements that say so, and whatever inline HTML GitBook writes inside them read by the inline reader
 * (parse-inline.ts), so `<i class="fa-…">`, `<a class="button">` or `<code class="expression">` keep
 * their meaning. Elements that carry no meaning of their own (`div`, `section`, `span`, …) give their
 * content; nothing is ever shown as HTML source.
 */
import type { Element, ElementContent, Root as HastRoot } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { toHtml } from 'hast-util-to-html';
import type { ParseContext } from './context.ts';
import { convertInline } from './parse-inline.ts';
import { checkHtmlSource } from './limits.ts';
import { isEmptyInline, paragraph, textNode } from './nodes.ts';
import type { DocumentBlock, DocumentBlockCodeLine, DocumentBlockListItem, HeadingType, InlineContent } from './types.ts';

const PHRASING = new Set([
  'a', 'abbr', 'b', 'bdi', 'bdo', 'br', 'cite', 'code', 'data', 'del', 'dfn', 'em', 'i', 'img', 'ins', 'kbd', 'mark', 'q', 's', 'samp',
  'small', 'span', 'strike', 'strong', 'sub', 'sup', 'time', 'u', 'var', 'wbr', 'button', 'label', 'font', 'select', 'option',
]);

/** Parses HTML as a fragment (no html/head/body added); refuses HTML nested beyond MARKDOWN_LIMITS. */
export function parseHtmlFragment(html: string): HastRoot {
  checkHtmlSource(html);
  return fromHtml(html, { fragment: true });
}

function isPhrasing(node: ElementContent): boolean {
  return node.type === 'text' || node.type === 'comment' || (node.type === 'element' && PHRASING.has(node.tagName));
}

/** Inline content of phrasing HTML: written back as HTML and read as Markdown's inline HTML, as the page's own would be. */
export function inlineOfHtml(nodes: ElementContent[], ctx: ParseContext): InlineContent[] {
  const html = toHtml({ type: 'root', children: nodes.filter((node) => node.type !== 'comment').map(escapeMarkdown) }).trim();
  if (html === '') return [];
  const tree = ctx.subparse(html.replace(/\n+/g, ' '));
  const [first] = tree.children;
  if (tree.children.length === 1 && first.type === 'paragraph') return convertInline(first.children, ctx);
  return convertInline([{ type: 'html', value: html }], ctx);
}

/** Text of HTML is text: characters Markdown would read as syntax are escaped before it is read as Markdown. */
function escapeMarkdown(node: ElementContent): ElementContent {
  // `:` too: a URL in HTML text is text, not one of GFM's bare links.
  if (node.type === 'text') return { ...node, value: node.value.replace(/[\\`*_[\]~$|{}:#>+-]/g, '\\$&') };
  if (node.type === 'element') return { ...node, children: node.children.map(escapeMarkdown) };
  return node;
}

function textOf(node: ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type === 'element') return node.children.map(textOf).join('');
  return '';
}

function listItems(element: Element, ctx: ParseContext): DocumentBlockListItem[] {
  return element.children
    .filter((child): child is Element => child.type === 'element' && child.tagName === 'li')
    .map((item) => {
      const blocks = blocksOfHtmlNodes(item.children, ctx);
      return { object: 'block', type: 'list-item', data: {}, nodes: blocks.length > 0 ? blocks : [paragraph()] };
    });
}

function codeBlock(element: Element): DocumentBlock {
  const code = element.children.find((child): child is Element => child.type === 'element' && child.tagName === 'code');
  const classes = [...toClassList(element), ...(code ? toClassList(code) : [])];
  const language = classes.find((name) => name.startsWith('language-'))?.slice('language-'.length);
  const text = textOf(code ?? element).replace(/\n$/, '');
  const nodes = text.split('\n').map((line): DocumentBlockCodeLine => ({ object: 'block', type: 'code-line', data: {}, nodes: [textNode(line)] }));
  const data: Extract<DocumentBlock, { type: 'code' }>['data'] = {};
  if (language) data.syntax = language;
  const title = element.properties?.dataTitle;
  if (typeof title === 'string') data.title = title;
  return { object: 'block', type: 'code', data, nodes };
}

function toClassList(element: Element): string[] {
  const value: unknown = element.properties?.className;
  return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? value.split(/\s+/) : [];
}

function blocksOfElement(element: Element, ctx: ParseContext): DocumentBlock[] {
  const name = element.tagName;
  if (/^h[1-6]$/.test(name)) {
    const depth = Number(name[1]);
    const type: HeadingType = depth <= 2 ? 'heading-1' : depth === 3 ? 'heading-2' : 'heading-3';
    const nodes = inlineOfHtml(element.children, ctx);
    return isEmptyInline(nodes) ? [] : [{ object: 'block', type, data: {}, nodes }];
  }
  switch (name) {
    case 'p': {
      const nodes = inlineOfHtml(element.children, ctx);
      return isEmptyInline(nodes) ? [] : [paragraph(nodes)];
    }
    case 'ul':
    case 'ol': {
      const nodes = listItems(element, ctx);
      if (nodes.length === 0) return [];
      if (name === 'ul') return [{ object: 'block', type: 'list-unordered', data: {}, nodes }];
      const start = Number(element.properties?.start ?? 1);
      return [{ object: 'block', type: 'list-ordered', data: Number.isInteger(start) && start !== 1 ? { start } : {}, nodes }];
    }
    case 'pre':
      return [codeBlock(element)];
    case 'blockquote':
      return [{ object: 'block', type: 'blockquote', data: {}, nodes: blocksOfHtmlNodes(element.children, ctx) }];
    case 'hr':
      return [{ object: 'block', type: 'divider', data: {}, isVoid: true }];
    case 'script':
    case 'style':
    case 'template':
    case 'iframe':
    case 'object':
      // Active content is never carried into a page: what it would show is not text.
      return [];
    default:
      return blocksOfHtmlNodes(element.children, ctx);
  }
}

/** Blocks of HTML nodes: runs of phrasing content become paragraphs, block elements their blocks. */
export function blocksOfHtmlNodes(nodes: ElementContent[], ctx: ParseContext): DocumentBlock[] {
  const out: DocumentBlock[] = [];
  let run: ElementContent[] = [];
  const flush = () => {
    const inline = inlineOfHtml(run, ctx);
    if (!isEmptyInline(inline)) out.push(paragraph(inline));
    run = [];
  };
  for (const node of nodes) {
    if (isPhrasing(node)) {
      run.push(node);
      continue;
    }
    flush();
    if (node.type === 'element') out.push(...blocksOfElement(node, ctx));
  }
  flush();
  return out;
}

/** A block of HTML the format gives no meaning of its own, read as blocks. */
export function htmlToBlocks(html: string, ctx: ParseContext): DocumentBlock[] {
  return blocksOfHtmlNodes(parseHtmlFragment(html).children as ElementContent[], ctx);
}
