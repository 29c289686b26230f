import type { Context } from '../context.ts';
import { recordPutBlobs } from '../content/files.ts';
import { linkWriter } from '../content/links.ts';
import { parseMarkdown, renderMarkdown } from '../content/markdown/index.ts';
import type { ContentRef, PageNode } from '../content/nodes.ts';
import { buildTreeInSteps, type RevisionTree } from '../content/tree.ts';
import { RevisionWriter } from '../content/writer.ts';
import { BadRequest, NotFound } from '../errors.ts';
import type { ImportedContent, ImportedPage } from './types.ts';
import { pauseForEventLoop } from '../workers/pool.ts';

/** Pages laid between pauses for the event loop (an import may hold tens of thousands). */
const PAUSE_EVERY = 500;

/** Where an import goes: a new revision over `baseRevisionId`, in `spaceId`, at the top or under a page. */
export interface ImportTarget {
  baseRevisionId: string;
  spaceId: string;
  /** Import into this page: a single page replaces its body, several go under it. */
  underPageId?: string;
}

export interface ImportResult {
  revisionId: string;
  importedResources: number;
  totalResources: number;
}

/** The tree the writer holds now, built in memory (not written), for the paths links are written with. */
async function previewTree(writer: RevisionWriter): Promise<RevisionTree> {
  const nodes = new Map<string, PageNode>();
  const visit = (id: string) => {
    const children = writer.children(id);
    nodes.set(id, { ...writer.page(id), children });
    children.forEach(visit);
  };
  const top = writer.children(null);
  top.forEach(visit);
  return buildTreeInSteps('preview', { pages: top, files: writer.fileList(), reusableContents: [], variables: {} }, nodes);
}

/** Records the import's blobs (already in blob storage) in the database, as storeBlob does. */
async function recordBlobs(tx: Context, content: ImportedContent): Promise<void> {
  await recordPutBlobs(tx, content.assets.map((asset) => ({ hash: asset.blob, size: asset.size })));
}

/** Imported content laid into a writer over a base revision, ready to be written. */
export interface PreparedImport {
  baseRevisionId: string;
  underPageId?: string;
  content: ImportedContent;
  writer: RevisionWriter;
  imported: number;
}

/**
 * Lays imported content over a base revision, in memory: pages and files added, and every page body
 * rewritten so that links between imported pages become links to the new pages (written as the content
 * store writes them: relative paths of the new tree) and references to imported files become
 * `files/<id>`. Reads the base revision and writes nothing, so it can run before the transaction.
 */
export async function prepareImport(ctx: Pick<Context, 'db' | 'ids'>, content: ImportedContent, target: Omit<ImportTarget, 'spaceId'> & { spaceId?: string }): Promise<PreparedImport> {
  const writer = await RevisionWriter.fromRevision(ctx, target.baseRevisionId);
  const under = target.underPageId;
  if (under !== undefined) {
    if (!writer.has(under)) throw new NotFound(`No page "${under}" exists in the space "${target.spaceId ?? ''}".`);
    if (writer.page(under).type === 'link') throw new BadRequest(`The page "${under}" is a link; import into a document page or a group.`);
  }
  const pageIds = new Map<ImportedPage, string>();
  const byKey = new Map<string, string>();
  let imported = 0;
  const [only] = content.pages;
  const replace = under !== undefined && content.pages.length === 1 && only.pages.length === 0 && only.type === 'document' && writer.page(under).type === 'document';
  if (replace) {
    writer.updatePage(under, { ...only.settings });
    pageIds.set(only, under);
    byKey.set(only.key, under);
    imported++;
  } else {
    const add = async (page: ImportedPage, parent: string | null): Promise<void> => {
      if (imported % PAUSE_EVERY === PAUSE_EVERY - 1) await pauseForEventLoop();
      const type = page.type === 'group' && parent !== null ? 'document' : page.type;
      const target: ContentRef | undefined = type === 'link' ? { kind: 'url', url: page.href ?? 'about:blank' } : undefined;
      const git = page.file ? { git: page.file } : {};
      const id = writer.addPage({ type, title: page.title || 'Untitled', ...page.settings, ...git, ...(target ? { target } : {}) }, { parent });
      pageIds.set(page, id);
      if (!byKey.has(page.key)) byKey.set(page.key, id);
      imported++;
      for (const child of page.pages) await add(child, type === 'link' ? parent : id);
    };
    for (const page of content.pages) await add(page, under ?? null);
    // A link to a page of the import points at it once every page has its id.
    for (const [page, id] of pageIds) {
      const to = page.linkTo && byKey.get(page.linkTo.key);
      if (to) writer.updatePage(id, { target: page.linkTo!.anchor ? { kind: 'anchor', anchor: page.linkTo!.anchor, page: to } : { kind: 'page', page: to } });
    }
  }
  const fileIds = new Map<string, string>();
  for (const asset of content.assets) {
    fileIds.set(asset.key, writer.addFile({ name: asset.name, contentType: asset.contentType, blob: asset.blob, size: asset.size, ...(asset.file ? { git: asset.file } : {}) }));
    imported++;
  }
  for (const reusable of content.reusableContents ?? []) {
    writer.putReusableContent({ id: reusable.id, title: reusable.title, markdown: reusable.markdown, git: reusable.file });
    imported++;
  }

  // Built when a body needs its links rewritten (pages of a folder or an archive keep theirs as written).
  let tree: RevisionTree | undefined;
  let rewritten = 0;
  for (const [page, id] of pageIds) {
    if (page.markdown === undefined) continue;
    if (++rewritten % PAUSE_EVERY === 0) await pauseForEventLoop();
    // A page read from a file of a folder keeps its body as written: its links are relative to its file
    // (kept as `git.path`) and resolve when it is read, so nothing needs rewriting and nothing changes.
    if (page.file) {
      writer.updatePage(id, { markdown: page.markdown });
      continue;
    }
    const resolveFile = (src: string) => {
      const found = content.resolve(page, src);
      return found ? fileIds.get(found.key) : undefined;
    };
    const resolveLink = (url: string): ContentRef | undefined => {
      const found = content.resolve(page, url);
      if (!found) return undefined;
      const file = fileIds.get(found.key);
      if (file) return { kind: 'file', file };
      const target = byKey.get(found.key);
      if (!target) return undefined;
      if (found.anchor) return target === id ? { kind: 'anchor', anchor: found.anchor } : { kind: 'anchor', anchor: found.anchor, page: target };
      return { kind: 'page', page: target };
    };
    const { document, frontmatter } = parseMarkdown(page.markdown, { resolveFile, resolveLink });
    tree ??= await previewTree(writer);
    const markdown = renderMarkdown(document, { frontmatter, refUrl: linkWriter(tree, tree.byId.get(id)!) });
    writer.updatePage(id, { markdown });
  }
  // Everything is stored and the new tree built before the transaction that commits the import (which
  // caches the tree: an import refused before it leaves nothing in the cache).
  await writer.write(ctx, { remember: false });
  return { baseRevisionId: target.baseRevisionId, underPageId: under, content, writer, imported };
}

/**
 * Writes a prepared import as one new revision (type "edits") whose parent is its base revision; moves no
 * space or change request to it. Call inside the transaction that also moves whatever should point at it.
 */
export async function commitImport(tx: Context, prepared: PreparedImport, spaceId: string): Promise<ImportResult> {
  await recordBlobs(tx, prepared.content);
  const { revisionId } = await prepared.writer.commit(tx, { spaceId, type: 'edits', parents: [prepared.baseRevisionId] });
  return { revisionId, importedResources: prepared.imported, totalResources: prepared.imported + prepared.content.skipped };
}
