import type { List, ListItem, Nodes, PhrasingContent, Root } from 'mdast';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { normalizeSource } from '../content/markdown/index.ts';

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

export function parseSummary(source: string): SummaryGroup[] {
  const tree = unified().use(remarkParse).parse(normalizeSource(source)) as Root;
  const groups: SummaryGroup[] = [{ items: [] }];
  let seenTitle = false;
  for (const node of tree.children) {
    if (node.type === 'heading') {
      if (node.depth === 1 && !seenTitle) {
        seenTitle = true;
        continue;
      }
      const anchor = anchorOf(node.children);
      groups.push({ title: textOf(node.children).trim() || 'Untitled', ...(anchor ? { anchor } : {}), items: [] });
    } else if (node.type === 'list') {
      groups[groups.length - 1].items.push(...itemsOf(node));
    }
  }
  return groups.filter((group) => group.title !== undefined || group.items.length > 0);
}
