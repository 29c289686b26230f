import type { Context } from '../../context.ts';
import { analyzeRoot } from '../../content/link-analysis/cache.ts';
import { pageFile } from '../../content/links.ts';
import type { PageNode } from '../../content/nodes.ts';
import { getObjects } from '../../content/objects.ts';
import { buildTree, type RevisionTree } from '../../content/tree.ts';
import type { RevisionWriter } from '../../content/writer.ts';
import { relinkedMarkdown } from './body.ts';

/**
 * Links between pages are stored as relative paths between their files (src/content/links.ts), and a page
 * that did not come from a file has a file named by its path: renaming or moving it (or a sibling's slug
 * giving way to a new page) moves its file. These keep every link right when that happens: the links
 * written to a moved page, and the moved page's own relative links, are written again from where the files
 * are now, through the page writer, so only the lines holding such a link change. Pages read from a Git
 * repository keep their file (`git.path`) and never move. A save of a body alone moves no file and never
 * comes here.
 */

/** The tree a writer holds now, built in memory (nothing written), for the paths links are written with. */
export function previewTree(writer: RevisionWriter): RevisionTree {
  const nodes = new Map<string, PageNode>();
  const visit = (id: string) => {
    const children = writer.children(id);
    nodes.set(id, { ...writer.page(id), children });
    children.forEach(visit);
  };
  const top = writer.children(null);
  top.forEach(visit);
  return buildTree('preview', { pages: top, files: writer.fileList(), reusableContents: [], variables: {} }, nodes);
}

/**
 * Rewrites, in the writer, the bodies whose links a structural change (`head` → `after`) moved; `skip` is
 * a page whose body the same edit writes from a document (written from its new file already).
 */
export async function relinkMovedPages(ctx: Context, head: RevisionTree, after: RevisionTree, writer: RevisionWriter, skip?: string): Promise<void> {
  const moved = new Set<string>();
  for (const [id, page] of after.byId) {
    const before = head.byId.get(id);
    if (before && page.path !== null && before.path !== null && pageFile(before) !== pageFile(page)) moved.add(id);
  }
  if (moved.size === 0) return;
  const analysis = await analyzeRoot(ctx, head.rootHash);
  const rewrite = new Set(moved);
  for (const [from, links] of analysis.byPage) {
    if (links.some((link) => link.target.kind === 'page' && moved.has(link.target.page))) rewrite.add(from);
  }
  if (skip !== undefined) rewrite.delete(skip);
  const pages = [...rewrite].flatMap((id) => {
    const before = head.byId.get(id);
    const now = after.byId.get(id);
    return before?.node.body && now && now.node.type === 'document' ? [{ id, before, now, body: before.node.body }] : [];
  });
  const bodies = await getObjects(ctx, pages.map((page) => page.body));
  for (const { id, before, now, body } of pages) {
    const previous = bodies.get(body)!;
    const markdown = relinkedMarkdown({ tree: after, page: now, previous, readFrom: { tree: head, page: before } });
    if (markdown !== previous) writer.updatePage(id, { markdown: markdown || null });
  }
}
