import { diff3Merge } from 'node-diff3';
import { writeFrontmatter } from '../content/markdown/frontmatter.ts';
import type { Frontmatter, JsonValue } from '../content/markdown/types.ts';
import { pageFile, relativePath, folderOfFile } from '../content/links.ts';
import type { LayoutOptions, PageFields } from '../content/nodes.ts';
import type { TreePage } from '../content/tree.ts';
import { splitFrontmatter } from '../imports/markdown.ts';

/**
 * The files of a space in the layout GitBook writes: each document page a Markdown file (front matter
 * for its settings, `# Title`, then its body), reusable contents under `.gitbook/includes/`, and
 * SUMMARY.md for the tree. What these functions write is the canonical form; an export never writes it
 * over a file whose content did not change, and over one that did it applies only the lines that changed
 * (`mergeLines`), so a file keeps its own style everywhere else.
 */

/** Where the docs of a space are in its repository. */
export interface DocsLayout {
  /** The docs folder from the top of the repository ('' for the top). */
  root: string;
  /** README and SUMMARY files, relative to `root`. */
  readme: string;
  summary: string;
  /** `.gitbook.yaml` redirects (old address → file relative to `root`), answered with 301 by the reader. */
  redirects?: Record<string, string>;
}

export const DEFAULT_LAYOUT: DocsLayout = { root: '', readme: 'README.md', summary: 'SUMMARY.md' };

/** A path relative to the docs folder, from the top of the repository. */
export function repoPath(layout: DocsLayout, path: string): string {
  return layout.root ? `${layout.root}/${path}` : path;
}

/** The front matter `layout` GitBook writes, from stored layout options (differences from the default). */
function frontmatterLayout(layout: Partial<LayoutOptions>): JsonValue {
  const out: Record<string, JsonValue> = {};
  if (layout.width) out.width = layout.width;
  const cover: Record<string, JsonValue> = {};
  if (layout.cover !== undefined) cover.visible = layout.cover;
  if (layout.coverSize) cover.size = layout.coverSize;
  if (Object.keys(cover).length > 0) out.cover = cover;
  for (const key of ['title', 'description', 'tableOfContents', 'outline', 'pagination', 'metadata'] as const) {
    if (layout[key] !== undefined) out[key] = { visible: layout[key]! };
  }
  return out;
}

/** The Markdown file of a document page. */
export function pageFileText(page: Pick<PageFields, 'title' | 'description' | 'icon' | 'emoji' | 'hidden' | 'noIndex' | 'noRobotsIndex' | 'layout'>, markdown: string): string {
  const { rest, body } = splitFrontmatter(markdown, 'The page');
  const front: Frontmatter = {};
  if (page.description) front.description = page.description;
  if (page.icon) front.icon = page.icon;
  if (page.emoji) front.emoji = page.emoji;
  if (page.hidden) front.hidden = true;
  if (page.noIndex) front.noIndex = true;
  if (page.noRobotsIndex) front.noRobotsIndex = true;
  if (page.layout && Object.keys(page.layout).length > 0) front.layout = frontmatterLayout(page.layout);
  const yaml = writeFrontmatter({ ...front, ...rest });
  const content = body.replace(/^\s*\n/, '');
  // The body keeps its own ending (with or without a final newline), as the file had it.
  return `${yaml ? `---\n${yaml}\n---\n\n` : ''}# ${page.title}\n${content ? `\n${content}` : ''}`;
}

/** The file of a reusable content: its title in front matter, then its body. */
export function includeFileText(title: string, markdown: string): string {
  const { rest, body } = splitFrontmatter(markdown, 'The reusable content');
  const yaml = writeFrontmatter({ title, ...rest });
  const content = body.replace(/^\s*\n/, '');
  return `---\n${yaml}\n---\n${content ? `\n${content}` : ''}`;
}

function linkText(title: string): string {
  return title.replace(/([\\[\]])/g, '\\$1');
}

/**
 * The address a link page has in SUMMARY.md: its URL, or, for a link to a page of the space, the path of
 * that page's file (with `#anchor` for a link to a heading), as GitBook writes it: the same path as the
 * page's own entry, which the importer reads back as a link to that page (decision 0111). A link to a page
 * that is not in the tree (another space, or a page since deleted) keeps an empty address.
 */
function linkAddress(node: TreePage['node'], byId: Map<string, TreePage>, address: (page: TreePage) => string): string {
  if (node.href) return node.href;
  const target = node.target;
  if (target?.kind === 'url') return target.url;
  if ((target?.kind === 'page' && !target.space) || (target?.kind === 'anchor' && target.page && !target.space)) {
    const page = byId.get(target.page!);
    if (page && page.node.type === 'document') return target.kind === 'anchor' ? `${address(page)}#${encodeURIComponent(target.anchor)}` : address(page);
  }
  return '';
}

/** SUMMARY.md for a tree: groups as `##` headings, pages as nested `*` items. */
export function summaryText(pages: TreePage[], summaryPath: string): string {
  const folder = folderOfFile(summaryPath);
  const lines: string[] = ['# Table of contents', ''];
  const byId = new Map<string, TreePage>();
  const index = (list: TreePage[]) => {
    for (const page of list) {
      byId.set(page.node.id, page);
      index(page.pages);
    }
  };
  index(pages);
  const address = (page: TreePage) => encodeURI(relativePath(folder, pageFile(page))).replace(/\(/g, '%28').replace(/\)/g, '%29');
  const items = (list: TreePage[], depth: number) => {
    for (const page of list) {
      const indent = '  '.repeat(depth);
      if (page.node.type === 'link') {
        lines.push(`${indent}* [${linkText(page.node.title)}](${linkAddress(page.node, byId, address)})`);
        continue;
      }
      lines.push(`${indent}* [${linkText(page.node.title)}](${address(page)})`);
      items(page.pages, depth + 1);
    }
  };
  let open = false;
  for (const page of pages) {
    if (page.node.type === 'group') {
      if (open || lines.length > 2) lines.push('');
      lines.push(`## ${page.node.title}`, '');
      items(page.pages, 0);
      open = true;
    } else items([page], 0);
  }
  return `${lines.join('\n').replace(/\n+$/, '')}\n`;
}

/**
 * Applies the change from `base` to `next` (both canonical) to `previous` (the file as the repository has
 * it), line by line: lines the change did not touch keep the file's bytes.
 */
export function mergeLines(previous: string, base: string, next: string): string {
  if (base === next) return previous;
  const regions = diff3Merge<string>(previous.split('\n'), base.split('\n'), next.split('\n'), { excludeFalseConflicts: true });
  const lines: string[] = [];
  for (const region of regions) {
    if (region.ok) lines.push(...region.ok);
    else if (region.conflict) lines.push(...region.conflict.b);
  }
  return lines.join('\n');
}
