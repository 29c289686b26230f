/**
 * What one page body says about links, kept across revisions and processes: its references (as the
 * revision's tree resolves them) and its anchors. Three levels, each consulted only for what the one
 * before it lacks:
 *
 * 1. In process, the facts as a tree resolves them, keyed by body hash, the folder of the body's file
 *    (relative links) and `resolutionKey` (a digest of everything by which a tree resolves names: the paths
 *    of its pages and files, the ids of its reusable contents). A new revision usually changes a few bodies
 *    and no path: the facts of the others are reused as they are.
 * 2. In the database, the facts as written, by body hash (store.ts): resolved against the tree without
 *    reading the body (written.ts). The search indexer stores them for every body it reads.
 * 3. The body itself, read once; its facts as written are then stored (written back by the caller with
 *    `storeWrittenFacts`), so the next process finds them at level 2.
 */
import { createHash } from 'node:crypto';
import type { Context } from '../../context.ts';
import { parseOptionsAt } from '../documents.ts';
import type { ParseOptions } from '../markdown/index.ts';
import { folderOfFile, pageFile } from '../links.ts';
import { LruCache } from '../../lru.ts';
import { getObjects } from '../objects.ts';
import { reusableContentsOf, reusableContentFile } from '../reusable-contents.ts';
import { walkPages, type RevisionTree, type TreePage } from '../tree.ts';
import { documentRefs, type FoundRef } from './extract.ts';
import { loadWrittenFacts } from './store.ts';
import { documentAnchors, readMarkdownBody, readWritten, resolveWritten, type WrittenFacts } from './written.ts';

export interface BodyFacts {
  refs: FoundRef[];
  /** The body's anchors; read from the body the first time they are asked for when it holds no reference. */
  anchors(): ReadonlySet<string>;
}

/** The facts of the bodies of a revision's pages, and the facts as written read from bodies meanwhile (to be stored). */
export interface PageFacts {
  byPage: Map<string, BodyFacts>;
  /** Grows while anchors are read lazily: store it once the analysis is done. */
  newlyRead: Map<string, WrittenFacts>;
}

/**
 * A body without any of these holds no reference (no link, image, tag, HTML, bare URL or e-mail address),
 * so it is parsed only if a link points at one of its anchors.
 */
const MAY_REFER = /[[<{@]|:\/\/|www\./i;

/** About 2,000,000 references and anchors in memory per process. */
const facts = new LruCache<string, BodyFacts>(500_000, 2_000_000);
const resolutionKeys = new WeakMap<RevisionTree, string>();

/** Bodies read with the Markdown reader, for tests and measurements. */
export const bodyFactsStats = { parsed: 0 };

/** Empties the in-process level (level 1), as a freshly started process has it. */
export function clearBodyFactsCache(): void {
  facts.clear();
}

/** A digest of everything by which a tree resolves the names written in its bodies. */
export function resolutionKey(tree: RevisionTree): string {
  const known = resolutionKeys.get(tree);
  if (known) return known;
  // The lines are hashed as one text (the digest is the same as line by line, in one call rather than one a line).
  const lines: string[] = [];
  for (const page of walkPages(tree.pages)) lines.push(`p\t${page.node.id}\t${page.node.type}\t${page.path}\t${pageFile(page)}\n`);
  for (const file of tree.files.values()) lines.push(`f\t${file.id}\t${file.name}\t${file.git?.path ?? ''}\n`);
  for (const content of reusableContentsOf(tree)) lines.push(`r\t${content.id}\t${reusableContentFile(content)}\n`);
  const key = createHash('sha1').update(lines.join('')).digest('base64url');
  resolutionKeys.set(tree, key);
  return key;
}

/**
 * The resolvers of one analysis, by folder: how a body names files and pages depends only on the tree and
 * the folder of its file, so the pages of one folder share them (and the maps a resolver builds lazily, such
 * as the files by name, are built once per folder rather than once per page).
 */
class FolderOptions {
  private readonly byFolder = new Map<string, ParseOptions>();
  constructor(private readonly tree: RevisionTree) {}

  /** The folder of the page's file, as the key of facts and of resolvers. */
  static folderOf(page: TreePage): string {
    return folderOfFile(pageFile(page)).join('/');
  }

  get(folder: string): ParseOptions {
    let options = this.byFolder.get(folder);
    if (!options) {
      options = parseOptionsAt(this.tree, folder === '' ? [] : folder.split('/'));
      this.byFolder.set(folder, options);
    }
    return options;
  }
}

function factsKey(tree: RevisionTree, folder: string, bodyHash: string): string {
  return `${bodyHash}|${folder}|${resolutionKey(tree)}`;
}

function remember(tree: RevisionTree, folder: string, bodyHash: string, found: BodyFacts, weight: number): BodyFacts {
  facts.set(factsKey(tree, folder, bodyHash), found, weight);
  return found;
}

/**
 * Facts as written, resolved: the anchors' set made when first asked for. A class rather than an object with a
 * closure per body: the TypeScript loader names every closure it makes (a property definition each), which
 * for the 10,000 bodies of a first analysis was a visible part of its time.
 */
class ResolvedFacts implements BodyFacts {
  private anchorSet: ReadonlySet<string> | undefined;
  constructor(
    readonly refs: FoundRef[],
    private readonly written: readonly string[],
  ) {}

  anchors(): ReadonlySet<string> {
    return (this.anchorSet ??= new Set(this.written));
  }
}

/** Facts as written, resolved with the resolvers of the page's folder: no body is read. */
function resolved(options: ParseOptions, written: Extract<WrittenFacts, { treeDependent: false }>): BodyFacts {
  return new ResolvedFacts(resolveWritten(written.refs, options), written.anchors);
}

/** A body whose structure depends on its tree, read in it (its facts cannot be kept as written). */
function readInTree(options: ParseOptions, source: string): BodyFacts {
  bodyFactsStats.parsed++;
  const document = readMarkdownBody(source, options);
  const anchors = new Set(documentAnchors(document));
  return { refs: documentRefs(document), anchors: () => anchors };
}

/** A body read now (level 3); its facts as written go to `newlyRead`. */
function readSource(options: ParseOptions, hash: string, source: string, newlyRead: Map<string, WrittenFacts>): BodyFacts {
  const readBefore = newlyRead.get(hash);
  if (readBefore && !readBefore.treeDependent) return resolved(options, readBefore);
  if (!MAY_REFER.test(source)) {
    // No reference and (no tag) nothing that depends on the tree: read only if an anchor is asked for.
    let anchors: ReadonlySet<string> | undefined;
    return {
      refs: [],
      anchors: () => {
        if (!anchors) {
          bodyFactsStats.parsed++;
          const { facts: written } = readWritten(source);
          newlyRead.set(hash, written);
          anchors = new Set(written.treeDependent ? [] : written.anchors);
        }
        return anchors;
      },
    };
  }
  if (readBefore) return readInTree(options, source);
  bodyFactsStats.parsed++;
  const { facts: written } = readWritten(source);
  newlyRead.set(hash, written);
  return written.treeDependent ? readInTree(options, source) : resolved(options, written);
}

/** The facts of the body of every document page in `pages` (pages without a body have none). */
export async function pageFacts(ctx: Pick<Context, 'db' | 'dialect'>, tree: RevisionTree, pages: TreePage[]): Promise<PageFacts> {
  const byPage = new Map<string, BodyFacts>();
  const newlyRead = new Map<string, WrittenFacts>();
  const options = new FolderOptions(tree);
  const folders = new Map<TreePage, string>();
  let unknown: TreePage[] = [];
  for (const page of pages) {
    if (page.node.type !== 'document' || !page.node.body) continue;
    const folder = FolderOptions.folderOf(page);
    const known = facts.get(factsKey(tree, folder, page.node.body));
    if (known) byPage.set(page.node.id, known);
    else {
      unknown.push(page);
      folders.set(page, folder);
    }
  }
  if (unknown.length === 0) return { byPage, newlyRead };

  const stored = await loadWrittenFacts(ctx, unknown.map((page) => page.node.body!));
  const unread: TreePage[] = [];
  for (const page of unknown) {
    const written = stored.get(page.node.body!);
    const folder = folders.get(page)!;
    if (written && !written.treeDependent) byPage.set(page.node.id, remember(tree, folder, page.node.body!, resolved(options.get(folder), written), 1 + written.refs.length + written.anchors.length));
    else unread.push(page);
  }
  unknown = unread;
  if (unknown.length === 0) return { byPage, newlyRead };

  const bodies = await getObjects(ctx, [...new Set(unknown.map((page) => page.node.body!))]);
  for (const page of unknown) {
    const hash = page.node.body!;
    const source = bodies.get(hash)!;
    const folder = folders.get(page)!;
    const found = stored.has(hash) ? readInTree(options.get(folder), source) : readSource(options.get(folder), hash, source, newlyRead);
    byPage.set(page.node.id, remember(tree, folder, hash, found, 1 + found.refs.length + Math.ceil(source.length / 1000)));
  }
  return { byPage, newlyRead };
}
