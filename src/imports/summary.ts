import type { List, ListItem, Nodes, PhrasingContent, Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { normalizeSource } from '../content/markdown/index.ts';
import { runTask, workerTask } from '../workers/pool.ts';

/**
 * SUMMARY.md, the table of contents of a folder of Markdown: nested lists of links give the pages and their
 * order (`* [Install](guides/install.md)`), second-level (or deeper) headings start groups, and the first
 * heading ("# Table of contents") is a title only.
 */

export interface SummaryItem {
  title: string;
  /** The link as written (a path, or a URL for an external link); undefined for an item without a link. */
  href?: string;
  items: SummaryItem[];
}

export interface SummaryGroup {
  /** The group's title; undefined for the items before the first group heading. */
  title?: string;
  /** The id of the heading's anchor, which GitBook uses as the group's slug. */
  anchor?: string;
  items: SummaryItem[];
}

/** The text of Markdown nodes; HTML (such as the anchor GitBook writes after a group heading) is not text. */
function textOf(nodes: Nodes[]): string {
  return nodes
    .map((node) => (node.type === 'html' ? '' : 'value' in node && typeof node.value === 'string' ? node.value : 'children' in node ? textOf(node.children as Nodes[]) : ''))
    .join('');
}

/** The id of the anchor GitBook writes after a heading (`<a href="#getting-started" id="getting-started"></a>`). */
function anchorOf(nodes: Nodes[]): string | undefined {
  for (const node of nodes) {
    if (node.type !== 'html') continue;
    const id = /\bid="([^"]+)"/.exec(node.value)?.[1];
    if (id) return id;
  }
  return undefined;
}

function findLink(nodes: PhrasingContent[]): { title: string; href: string } | undefined {
  for (const node of nodes) {
    if (node.type === 'link') return { title: textOf(node.children).trim(), href: node.url };
    if ('children' in node) {
      const inner = findLink(node.children as PhrasingContent[]);
      if (inner) return inner;
    }
  }
  return undefined;
}

function itemsOf(list: List): SummaryItem[] {
  return list.children.map((item: ListItem) => {
    let title = '';
    let href: string | undefined;
    const items: SummaryItem[] = [];
    for (const child of item.children) {
      if (child.type === 'paragraph' && !title) {
        const link = findLink(child.children);
        if (link) ({ title, href } = link);
        else title = textOf(child.children).trim();
      } else if (child.type === 'list') {
        items.push(...itemsOf(child));
      }
    }
    return { title: title || 'Untitled', ...(href ? { href } : {}), items };
  });
}

/** A link reference definition (`[name]: url`): links elsewhere in the file may use it. */
const DEFINITION = /^ {0,3}\[[^\]]+\]:/m;
const BLOCK_START = /^(?:[*+-][ \t]+\S|#{1,6}(?:[ \t]|$))/;
const FENCE = /^ *(`{3,}|~{3,})/;
const HTML_ENDS: Array<[RegExp, RegExp]> = [
  [/^ {0,3}<!--/, /-->/],
  [/^ {0,3}<(?:script|pre|style|textarea)(?:\s|>|$)/i, /<\/(?:script|pre|style|textarea)>/i],
  [/^ {0,3}<\?/, /\?>/],
  [/^ {0,3}<!\[CDATA\[/, /\]\]>/],
  [/^ {0,3}<![A-Za-z]/, />/],
];

/**
 * SUMMARY.md cut where a top-level list item or a heading starts, so that each piece is parsed alone.
 * CommonMark parses a document of tens of thousands of nested list items as one list: micromark holds all
 * its events at once (hundreds of megabytes for 50,000 entries) and takes time quadratic in the number of
 * top-level items. A piece never starts inside a fenced code block, an HTML block or a comment, nor where a
 * reference definition could be used across pieces (then the file is one piece), so the pieces give the
 * same items as the whole file.
 */
export function summaryPieces(source: string): string[] {
  if (DEFINITION.test(source)) return [source];
  const pieces: string[] = [];
  const lines = source.split('\n');
  let start = 0;
  let fence: { char: string; length: number } | null = null;
  let htmlEnd: RegExp | null = null;
  let inHtml = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (fence) {
      const close = FENCE.exec(line);
      if (close && close[1][0] === fence.char && close[1].length >= fence.length && line.trim() === close[1]) fence = null;
      continue;
    }
    if (htmlEnd) {
      if (htmlEnd.test(line)) htmlEnd = null;
      continue;
    }
    if (inHtml) {
      if (line.trim() === '') inHtml = false;
      continue;
    }
    if (i > start && BLOCK_START.test(line)) {
      pieces.push(lines.slice(start, i).join('\n'));
      start = i;
    }
    const open = FENCE.exec(line);
    if (open) {
      fence = { char: open[1][0], length: open[1].length };
      continue;
    }
    const html = HTML_ENDS.map(([begins, ends]) => [begins.exec(line), ends] as const).find(([begun]) => begun);
    if (html) {
      const [begun, ends] = html;
      if (!ends.test(line.slice(begun!.index + begun![0].length))) htmlEnd = ends;
    } else if (/^ {0,3}</.test(line)) inHtml = true;
  }
  pieces.push(lines.slice(start).join('\n'));
  return pieces;
}

const summaryReader = unified().use(remarkParse);

/**
 * Pieces the Markdown parser reads together: each parse has a fixed cost, so consecutive pieces that are
 * not plain items go in runs of at most this many (a run is a slice of the file cut where pieces are, so it
 * reads as those pieces do; short, so that a run's list stays short).
 */
const PIECES_PER_PARSE = 16;

/** `* [Title](path.md)`: a list item that is one plain link, the shape of nearly every line of a summary. */
const PLAIN_ITEM = /^( *)[*+-]( {1,4})\[([^\\`*_&<>[\]!~$]*)\]\(([A-Za-z0-9._~/#-]*)\)[ \t]*$/;

/**
 * The items of a piece made only of plain link items (`* [Title](path.md)`, nested by indentation), read
 * without the Markdown parser, or null when any line is anything else (then the parser reads the piece).
 * CommonMark reads such lines simply: an item's children are the items indented at least as far as its
 * text starts, and a line indented four or more beyond that would continue its paragraph instead (null).
 */
function plainItems(piece: string): SummaryItem[] | null {
  const top: SummaryItem[] = [];
  const open: Array<{ content: number; item: SummaryItem }> = [];
  const lines = piece.split('\n');
  while (lines.length > 0 && lines[lines.length - 1].trim() === '') lines.pop();
  for (const line of lines) {
    const match = PLAIN_ITEM.exec(line);
    if (!match) return null;
    const indent = match[1].length;
    const item: SummaryItem = { title: match[3].trim() || 'Untitled', ...(match[4] ? { href: match[4] } : {}), items: [] };
    const content = indent + 1 + match[2].length;
    if (open.length === 0) {
      if (top.length > 0 || indent > 3) return null;
      top.push(item);
    } else {
      while (open.length > 0 && open[open.length - 1].content > indent) open.pop();
      const parent = open[open.length - 1];
      if (!parent || indent >= parent.content + 4) return null;
      parent.item.items.push(item);
    }
    open.push({ content, item });
  }
  return top.length > 0 ? top : null;
}

export function parseSummary(source: string): SummaryGroup[] {
  const groups: SummaryGroup[] = [{ items: [] }];
  let seenTitle = false;
  const read = (text: string) => {
    const tree = summaryReader.parse(text) as Root;
    for (const node of tree.children) {
      if (node.type === 'heading') {
        if (node.depth === 1 && !seenTitle) {
          seenTitle = true;
          continue;
        }
        const anchor = anchorOf(node.children);
        groups.push({ title: textOf(node.children).trim() || 'Untitled', ...(anchor ? { anchor } : {}), items: [] });
      } else if (node.type === 'list') {
        for (const item of itemsOf(node)) groups[groups.length - 1].items.push(item);
      }
    }
  };
  let waiting: string[] = [];
  const flush = () => {
    if (waiting.length > 0) read(waiting.join('\n'));
    waiting = [];
  };
  for (const piece of summaryPieces(normalizeSource(source))) {
    const plain = plainItems(piece);
    if (plain) {
      flush();
      for (const item of plain) groups[groups.length - 1].items.push(item);
    } else {
      waiting.push(piece);
      if (waiting.length === PIECES_PER_PARSE) flush();
    }
  }
  flush();
  return groups.filter((group) => group.title !== undefined || group.items.length > 0);
}

const SUMMARY = workerTask(import.meta.url, 'parseSummary', parseSummary);

/** parseSummary on a worker when the file is large, so that a summary of tens of thousands of entries blocks no request. */
export function readSummary(source: string, what: string, signal?: AbortSignal): Promise<SummaryGroup[]> {
  return runTask(SUMMARY, source, { size: source.length, what, signal });
}
