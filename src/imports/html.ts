import { refuseNul } from '../http/text-rules.ts';
import { BadRequest } from '../errors.ts';
import type { Element, ElementContent, Nodes as HastNodes, Root as HastRoot } from 'hast';
import type { Nodes as MdastNodes, Root as MdastRoot } from 'mdast';
import rehypeParse from 'rehype-parse';
import rehypeRemark from 'rehype-remark';
import remarkGfm from 'remark-gfm';
import remarkStringify from 'remark-stringify';
import { unified } from 'unified';
import { visit } from 'unist-util-visit';

/**
 * HTML → Markdown through a real converter (rehype-parse, rehype-remark, remark-stringify with GFM).
 * Links and image sources are made absolute against the page's address, so the writer can tell links to
 * other imported pages, and images to download, from everything else.
 */

export interface HtmlDocument {
  title?: string;
  description?: string;
  /** The part of the page that holds the content: <main>, else <article>, else <body>. */
  content: ElementContent[];
  /** The address relative references are read against (the page's, or its <base href>). */
  base?: string;
}

export interface ConvertedHtml {
  /** The text of the first first-level heading, which leaves the body (it is the page's title). */
  heading?: string;
  markdown: string;
  /** Absolute http(s) addresses of the links, in order. */
  links: string[];
  /** Image sources: absolute http(s) addresses or data: URLs. */
  images: string[];
}

const DROPPED = new Set(['script', 'style', 'noscript', 'template', 'nav', 'footer', 'aside', 'form', 'button', 'select', 'dialog']);

export function textOf(node: HastNodes): string {
  if (node.type === 'text') return node.value;
  if ('children' in node) return (node.children as HastNodes[]).map(textOf).join('');
  return '';
}

function find(node: HastNodes, test: (element: Element) => boolean): Element | undefined {
  if (node.type === 'element' && test(node)) return node;
  if (!('children' in node)) return undefined;
  for (const child of node.children as HastNodes[]) {
    const found = find(child, test);
    if (found) return found;
  }
  return undefined;
}

function absolute(url: string, base: string | undefined): string | undefined {
  try {
    return new URL(url, base).href;
  } catch {
    return undefined;
  }
}

/** Elements nested deeper than this are refused: the conversion to Markdown walks the tree recursively. */
export const MAX_HTML_DEPTH = 400;

/** The depth of the deepest element, found without recursion. */
function depthOf(root: HastRoot): number {
  let deepest = 0;
  const stack: Array<[{ children?: unknown[] }, number]> = [[root, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (depth > deepest) deepest = depth;
    for (const child of node.children ?? []) {
      if (typeof child === 'object' && child !== null && 'children' in child) stack.push([child as { children?: unknown[] }, depth + 1]);
    }
  }
  return deepest;
}

/** Reads an HTML page: its title, description, and the elements that hold its content. */
export function readHtml(html: string, url?: string): HtmlDocument {
  refuseNul(html, url && !url.startsWith('data:') ? `the HTML of ${url}` : 'the HTML');
  const tree = unified().use(rehypeParse).parse(html) as HastRoot;
  if (depthOf(tree) > MAX_HTML_DEPTH) {
    throw new BadRequest(`The HTML${url ? ` of ${url}` : ''} nests elements more than ${MAX_HTML_DEPTH} deep; Quire does not import pages nested that deep. Simplify the page or import its parts.`);
  }
  const title = find(tree, (element) => element.tagName === 'title');
  const meta = find(tree, (element) => element.tagName === 'meta' && String(element.properties.name ?? '').toLowerCase() === 'description');
  const baseElement = find(tree, (element) => element.tagName === 'base' && typeof element.properties.href === 'string');
  const base = baseElement && url?.startsWith('http') ? absolute(String(baseElement.properties.href), url) : url?.startsWith('http') ? url : undefined;
  const body = find(tree, (element) => element.tagName === 'body');
  const main = find(tree, (element) => element.tagName === 'main' || element.properties.role === 'main') ?? find(tree, (element) => element.tagName === 'article');
  const holder = main ?? body;
  const content = holder ? holder.children : (tree.children.filter((child) => child.type !== 'doctype') as ElementContent[]);
  const description = typeof meta?.properties.content === 'string' ? meta.properties.content.trim() : undefined;
  return {
    title: title ? textOf(title).trim() || undefined : undefined,
    ...(description ? { description } : {}),
    content: main ? content : content.filter((child) => !(child.type === 'element' && child.tagName === 'header')),
    base,
  };
}

function prune(nodes: ElementContent[]): ElementContent[] {
  return nodes
    .filter((node) => !(node.type === 'element' && DROPPED.has(node.tagName)) && node.type !== 'comment')
    .map((node) => (node.type === 'element' ? { ...node, children: prune(node.children) } : node));
}

/** Converts content elements to Markdown (see ConvertedHtml). */
export async function htmlToMarkdown(nodes: ElementContent[], base: string | undefined): Promise<ConvertedHtml> {
  const root: HastRoot = { type: 'root', children: prune(nodes) };
  const mdast = (await unified().use(rehypeRemark).run(root)) as MdastRoot;
  let heading: string | undefined;
  const first = mdast.children.findIndex((node) => node.type !== 'html');
  const top = mdast.children[first];
  if (top?.type === 'heading' && top.depth === 1) {
    heading = mdastText(top).trim() || undefined;
    mdast.children.splice(first, 1);
  }
  const links: string[] = [];
  const images: string[] = [];
  visit(mdast, (node) => {
    if (node.type === 'link') {
      if (node.url.startsWith('#')) return;
      const href = absolute(node.url, base);
      if (href && /^https?:/i.test(href)) {
        node.url = href;
        links.push(href);
      }
    } else if (node.type === 'image') {
      if (/^data:image\//i.test(node.url)) {
        images.push(node.url);
        return;
      }
      const src = absolute(node.url, base);
      if (src && /^https?:/i.test(src)) {
        node.url = src;
        images.push(src);
      }
    }
  });
  const markdown = unified().use(remarkGfm).use(remarkStringify, { bullet: '*', rule: '*', fences: true }).stringify(mdast);
  return { ...(heading ? { heading } : {}), markdown: markdown.trim() ? markdown : '', links, images };
}

function mdastText(node: MdastNodes): string {
  if ('value' in node && typeof node.value === 'string') return node.value;
  if ('children' in node) return (node.children as MdastNodes[]).map(mdastText).join('');
  return '';
}
