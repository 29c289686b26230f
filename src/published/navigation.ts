import type { RevisionTree, TreePage } from '../content/tree.ts';
import { safeUrl } from './render/escape.ts';

/**
 * The reading structure of one variant's tree: what the navigation shows (hidden pages and everything
 * under them left out), the reading order for previous/next, and where each page is.
 */

export interface NavItem {
  id: string;
  title: string;
  kind: 'document' | 'group' | 'link';
  emoji?: string;
  /** The page's path in the tree (documents), a URL (links), or null (groups, links that lead nowhere). */
  path: string | null;
  /** Links: an address outside the site. */
  external?: string;
  children: NavItem[];
}

/** Whether a page or one of its ancestors is hidden: such pages open by address but are listed nowhere. */
export function isHidden(tree: RevisionTree, page: TreePage): boolean {
  for (let at: TreePage | undefined = page; at; at = at.parentId ? tree.byId.get(at.parentId) : undefined) {
    if (at.node.hidden) return true;
  }
  return false;
}

/** The pages above a page, from the top. */
export function ancestors(tree: RevisionTree, page: TreePage): TreePage[] {
  const list: TreePage[] = [];
  for (let at = page.parentId ? tree.byId.get(page.parentId) : undefined; at; at = at.parentId ? tree.byId.get(at.parentId) : undefined) list.unshift(at);
  return list;
}

/** Document pages a reader can list, in reading order (hidden subtrees skipped). */
export function readingOrder(tree: RevisionTree): TreePage[] {
  const order: TreePage[] = [];
  const walk = (pages: TreePage[]) => {
    for (const page of pages) {
      if (page.node.hidden) continue;
      if (page.node.type === 'document' && page.path !== null) order.push(page);
      walk(page.pages);
    }
  };
  walk(tree.pages);
  return order;
}

/** The page a variant's root shows: its first listed document. */
export function firstPage(tree: RevisionTree): TreePage | undefined {
  return readingOrder(tree)[0];
}

/** The first document at or under a page (a group's address leads there). */
export function firstDocumentUnder(page: TreePage): TreePage | undefined {
  if (page.node.type === 'document') return page;
  for (const child of page.pages) {
    if (child.node.hidden) continue;
    const found = firstDocumentUnder(child);
    if (found) return found;
  }
  return undefined;
}

function linkTarget(tree: RevisionTree, page: TreePage): Pick<NavItem, 'path' | 'external'> {
  const target = page.node.target;
  if (target?.kind === 'url') {
    const url = safeUrl(target.url);
    return url ? { path: null, external: url } : { path: null };
  }
  if (target?.kind === 'page' && !target.space) {
    const to = tree.byId.get(target.page);
    return { path: to && to.node.type === 'document' ? to.path : null };
  }
  const href = page.node.href ? safeUrl(page.node.href) : null;
  return href ? { path: null, external: href } : { path: null };
}

/** The navigation of a tree: listed pages, groups as headings over their pages, links to where they lead. */
export function navigation(tree: RevisionTree): NavItem[] {
  const build = (pages: TreePage[]): NavItem[] =>
    pages
      .filter((page) => !page.node.hidden)
      .map((page) => {
        const base = { id: page.node.id, title: page.node.title, kind: page.node.type, ...(page.node.emoji ? { emoji: page.node.emoji } : {}) };
        if (page.node.type === 'link') return { ...base, ...linkTarget(tree, page), children: [] };
        return { ...base, path: page.node.type === 'document' ? page.path : null, children: build(page.pages) };
      });
  return build(tree.pages);
}
