import type { Context } from '../context.ts';
import { pageFile } from '../content/links.ts';
import { encodeNode, type PageNode } from '../content/nodes.ts';
import { getObjects } from '../content/objects.ts';
import { reusableContentFile, reusableContentsOf, type StoredReusableContent } from '../content/reusable-contents.ts';
import type { StoredFile } from '../content/revisions.ts';
import { walkPages, type RevisionTree, type TreePage } from '../content/tree.ts';
import { Conflict } from '../errors.ts';
import { gitBlobOid } from '../imports/types.ts';
import { BlobReader } from './cli.ts';
import { includeFileText, mergeLines, pageFileText, repoPath, summaryText, type DocsLayout } from './files.ts';
import type { FileChange, TreeEntry } from './repository.ts';

/**
 * What an export changes in the repository: the files of the space's current content compared with the
 * tip of the branch, knowing the content that was last synced (`last`, whose files the tip holds):
 * - a page, reusable content or file unchanged since the last sync is not written at all;
 * - a changed one is written over its file line by line (mergeLines), so only the lines that changed move;
 * - a new one is written in the canonical form; a moved one is written at its new path and removed from
 *   its old one; a deleted one has its file removed — only files that the last synced content held, never
 *   a file Quire did not write;
 * - SUMMARY.md changes only when the tree (titles, order, nesting, paths) changed.
 */

export interface ExportInput {
  tree: RevisionTree;
  /** The content of the last sync, or null for the first export. */
  last: RevisionTree | null;
  layout: DocsLayout;
  /** The tip's files (empty for an empty branch). */
  tip: TreeEntry[];
  gitDir: string;
}

/** A page's settings without its place in the tree, to tell whether it changed. */
function fieldsOf(node: PageNode): string {
  const { children: _children, git: _git, ...rest } = node;
  return encodeNode({ ...rest, children: [] });
}

export async function exportChanges(ctx: Pick<Context, 'db' | 'blobs'>, input: ExportInput): Promise<FileChange[]> {
  const { tree, last, layout } = input;
  const tipByPath = new Map(input.tip.map((entry) => [entry.path, entry]));
  const reader = new BlobReader(input.gitDir);
  const changes: FileChange[] = [];
  const written = new Set<string>();
  const textAt = async (path: string) => {
    const entry = tipByPath.get(path);
    return entry ? (await reader.read(entry.oid)).toString('utf8') : undefined;
  };
  const put = (path: string, text: string | Buffer) => {
    written.add(path);
    const bytes = typeof text === 'string' ? Buffer.from(text, 'utf8') : text;
    if (tipByPath.get(path)?.oid !== gitBlobOid(bytes)) changes.push({ path, content: bytes });
  };
  const filePathOf = (file: StoredFile) => repoPath(layout, file.git?.path ?? `.gitbook/assets/${file.name}`);
  try {
    // Pages.
    const pages = [...walkPages(tree.pages)].filter((page) => page.node.type === 'document');
    const lastPages = last ? [...walkPages(last.pages)].filter((page) => page.node.type === 'document') : [];
    const changed: Array<{ page: TreePage; before?: TreePage }> = [];
    for (const page of pages) {
      const path = repoPath(layout, pageFile(page));
      const before = last?.byId.get(page.node.id);
      const beforePath = before && before.node.type === 'document' ? repoPath(layout, pageFile(before)) : undefined;
      if (before && beforePath === path && fieldsOf(before.node) === fieldsOf(page.node)) {
        // Unchanged since the last sync: its file stays as it is (and a page that had no file gets none).
        written.add(path);
        continue;
      }
      changed.push({ page, before: beforePath ? before : undefined });
    }
    const bodies = await getObjects(ctx, changed.flatMap(({ page, before }) => [page.node.body, before?.node.body]).filter((hash): hash is string => Boolean(hash)));
    const markdownOf = (node: PageNode) => (node.body ? (bodies.get(node.body) ?? '') : '');
    // A file of the branch that the last synced content did not write (a file a person added beside the
    // docs) is never written over by a page: the export stops and names both.
    const owned = new Set<string>([
      ...lastPages.map((page) => repoPath(layout, pageFile(page)).toLowerCase()),
      ...(last?.root.files ?? []).map((file) => filePathOf(file).toLowerCase()),
      ...(last ? reusableContentsOf(last).map((item) => repoPath(layout, reusableContentFile(item)).toLowerCase()) : []),
    ]);
    const tipLower = new Map(input.tip.map((entry) => [entry.path.toLowerCase(), entry.path]));
    for (const { page, before } of changed) {
      const path = repoPath(layout, pageFile(page));
      const foreign = last && (!before || repoPath(layout, pageFile(before)) !== path) && !owned.has(path.toLowerCase()) ? tipLower.get(path.toLowerCase()) : undefined;
      if (foreign) {
        throw new Conflict(`The page "${page.node.title}" would be written over "${foreign}", a file of the branch that is not one of the space's pages; rename or move the page, or move that file, then export again.`);
      }
      const next = pageFileText(page.node, markdownOf(page.node));
      const previous = before ? await textAt(repoPath(layout, pageFile(before))) : undefined;
      put(path, before && previous !== undefined ? mergeLines(previous, pageFileText(before.node, markdownOf(before.node)), next) : next);
    }

    // Reusable contents.
    const contents = reusableContentsOf(tree);
    const lastContents = new Map(last ? reusableContentsOf(last).map((item) => [item.id, item]) : []);
    const includeBodies = await getObjects(ctx, [...contents, ...lastContents.values()].map((item) => item.body).filter((hash): hash is string => Boolean(hash)));
    const includeText = (item: StoredReusableContent) => includeFileText(item.title, item.body ? (includeBodies.get(item.body) ?? '') : '');
    for (const item of contents) {
      const path = repoPath(layout, reusableContentFile(item));
      const before = lastContents.get(item.id);
      if (before && reusableContentFile(before) === reusableContentFile(item) && before.body === item.body && before.title === item.title && tipByPath.has(path)) {
        written.add(path);
        continue;
      }
      const previous = before ? await textAt(repoPath(layout, reusableContentFile(before))) : undefined;
      put(path, before && previous !== undefined ? mergeLines(previous, includeText(before), includeText(item)) : includeText(item));
    }

    // Files.
    const filePath = filePathOf;
    for (const file of tree.root.files) {
      const path = filePath(file);
      if (file.git && tipByPath.get(path)?.oid === file.git.oid) {
        written.add(path);
        continue;
      }
      const stream = await ctx.blobs.open(file.blob);
      if (!stream) continue;
      const chunks: Buffer[] = [];
      for await (const chunk of stream) chunks.push(chunk as Buffer);
      put(path, Buffer.concat(chunks));
    }

    // The table of contents.
    const summaryPath = repoPath(layout, layout.summary);
    const next = summaryText(tree.pages, layout.summary);
    const base = last ? summaryText(last.pages, layout.summary) : undefined;
    const previousSummary = await textAt(summaryPath);
    if (base === next) {
      // The tree did not change since the last sync: the summary stays as it is (or absent, as it was).
      if (previousSummary !== undefined) written.add(summaryPath);
    } else put(summaryPath, previousSummary !== undefined && base !== undefined ? mergeLines(previousSummary, base, next) : next);

    // What the last synced content held and the current one no longer does.
    const lastPaths = new Set<string>([
      ...lastPages.map((page) => repoPath(layout, pageFile(page))),
      ...[...lastContents.values()].map((item) => repoPath(layout, reusableContentFile(item))),
      ...(last?.root.files ?? []).map(filePath),
    ]);
    for (const path of lastPaths) {
      if (!written.has(path) && tipByPath.has(path)) changes.push({ path, delete: true });
    }
    return changes;
  } finally {
    reader.close();
  }
}
