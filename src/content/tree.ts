import type { Context } from '../context.ts';
import { LruCache } from '../lru.ts';
import { decodeNode, type PageNode } from './nodes.ts';
import { getObjects } from './objects.ts';
import type { RevisionRoot, StoredFile } from './revisions.ts';
import { keptSlug, slugify, UniqueSlugs } from './markdown/index.ts';
import { pageFileSteps } from './page-files.ts';
import { pauseForEventLoop } from '../workers/pool.ts';

/**
 * A revision's content as a tree in memory: every page with its node, slug and path, and indexes by id and
 * by path. Objects never change, so a tree is cached by its root hash and is always right; cached trees are
 * shared between requests and must never be modified (the writer copies what it changes).
 */
export interface TreePage {
  /** Hash of the page node. */
  hash: string;
  node: PageNode;
  /** Unique among the page's siblings; links have none. */
  slug: string | null;
  /** Slugs from the top of the tree ("guides/install"); links have none. */
  path: string | null;
  parentId: string | null;
  pages: TreePage[];
  /** The page's Markdown file in the folder layout, held by no other page (src/content/page-files.ts); documents only. */
  file?: string;
}

export interface RevisionTree {
  rootHash: string;
  root: RevisionRoot;
  pages: TreePage[];
  byId: Map<string, TreePage>;
  byPath: Map<string, TreePage>;
  files: Map<string, StoredFile>;
  /** How many pages the tree holds. */
  size: number;
}

/** At most 256 trees and 200,000 pages in memory per process. */
const cache = new LruCache<string, RevisionTree>(256, 200_000);

/** Counts the trees built from the database (not from the cache), for tests and measurements. */
export const treeStats = { built: 0 };

/** Pages nest at most this deep (a page at the top is at depth 1); the writer refuses a deeper one. */
export const MAX_PAGE_DEPTH = 64;

export function clearTreeCache(): void {
  cache.clear();
}

type Store = Pick<Context, 'db'>;

/** The root object of a revision. */
export async function loadRoot(ctx: Store, rootHash: string): Promise<RevisionRoot> {
  const cached = cache.get(rootHash);
  if (cached) return cached.root;
  const objects = await getObjects(ctx, [rootHash]);
  return JSON.parse(objects.get(rootHash)!) as RevisionRoot;
}

/**
 * The tree of the revision whose root object is `rootHash`: from the cache, or read level by level (one
 * `where hash in (…)` query per level of depth, in chunks), never one query per page, and built with pauses
 * for the event loop (buildTreeInSteps).
 */
export async function loadTree(ctx: Store, rootHash: string): Promise<RevisionTree> {
  const cached = cache.get(rootHash);
  if (cached) return cached;
  const root = await loadRoot(ctx, rootHash);
  const nodes = new Map<string, PageNode>();
  let level = root.pages;
  while (level.length > 0) {
    const wanted = level.filter((hash) => !nodes.has(hash));
    const objects = wanted.length > 0 ? await getObjects(ctx, wanted) : new Map<string, string>();
    const next: string[] = [];
    let decoded = 0;
    for (const [hash, data] of objects) {
      // A level of tens of thousands of pages is decoded with pauses for the event loop, as it is built.
      if (++decoded % BUILD_PAUSE_EVERY === 0) await pauseForEventLoop();
      const node = decodeNode(data);
      nodes.set(hash, node);
      for (const child of node.children) next.push(child);
    }
    level = next;
  }
  const tree = await buildTreeInSteps(rootHash, root, nodes);
  treeStats.built++;
  cache.set(rootHash, tree, Math.max(1, tree.size));
  return tree;
}

/** The tree of `rootHash` if this process holds it in memory now; never reads the database. */
export function cachedTree(rootHash: string): RevisionTree | undefined {
  return cache.get(rootHash);
}

/** Puts a tree that was just written into the cache (the writer knows it already: no need to read it back). */
export function rememberTree(tree: RevisionTree): void {
  cache.set(tree.rootHash, tree, Math.max(1, tree.size));
}

/** Pages a stepwise build (buildTreeInSteps) lays, or assigns files to, between pauses for the event loop. */
export const BUILD_PAUSE_EVERY = 1_000;

/** Counts, for tests and measurements: stepwise builds started, the pauses they made, and the builds under way now. */
export const buildStats = { builds: 0, pauses: 0, building: 0 };

/**
 * The build of a tree as steps: yields after every BUILD_PAUSE_EVERY pages it laid (and while it assigns
 * their files), so that a caller can let the event loop answer in between. buildTree runs it in one go.
 */
function* treeSteps(rootHash: string, root: RevisionRoot, nodes: Map<string, PageNode>): Generator<void, RevisionTree> {
  const byId = new Map<string, TreePage>();
  const byPath = new Map<string, TreePage>();
  let laid = 0;

  function* build(hashes: string[], parent: TreePage | null, depth: number): Generator<void, TreePage[]> {
    if (depth > MAX_PAGE_DEPTH) throw new Error(`A page tree deeper than ${MAX_PAGE_DEPTH} levels cannot be read.`);
    if (hashes.length === 0) return [];
    const slugs = new UniqueSlugs();
    const pages: TreePage[] = [];
    for (const hash of hashes) {
      const node = nodes.get(hash);
      if (!node) throw new Error(`Page node ${hash} is missing from the content store.`);
      const slug = node.type === 'link' ? null : slugs.claim(node.slug ? keptSlug(node.slug) : slugify(node.title));
      const path = slug === null ? null : parent?.path ? `${parent.path}/${slug}` : slug;
      const page: TreePage = { hash, node, slug, path, parentId: parent?.node.id ?? null, pages: [] };
      if (++laid % BUILD_PAUSE_EVERY === 0) yield;
      page.pages = yield* build(node.children, page, depth + 1);
      byId.set(node.id, page);
      if (path !== null && !byPath.has(path)) byPath.set(path, page);
      pages.push(page);
    }
    return pages;
  }

  const pages = yield* build(root.pages, null, 0);
  yield* pageFileSteps(pages, root, BUILD_PAUSE_EVERY);
  return { rootHash, root, pages, byId, byPath, files: new Map(root.files.map((file) => [file.id, file])), size: byId.size };
}

/** Assembles the tree from its root and nodes, in one pass: slugs unique among siblings, paths from the top. */
export function buildTree(rootHash: string, root: RevisionRoot, nodes: Map<string, PageNode>): RevisionTree {
  const steps = treeSteps(rootHash, root, nodes);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same tree as buildTree, built with a pause for the event loop every BUILD_PAUSE_EVERY pages: a tree of
 * 50,000 pages (a large import) takes a few hundred milliseconds to lay, which the process must not spend
 * without answering requests.
 */
export async function buildTreeInSteps(rootHash: string, root: RevisionRoot, nodes: Map<string, PageNode>): Promise<RevisionTree> {
  const steps = treeSteps(rootHash, root, nodes);
  buildStats.builds++;
  buildStats.building++;
  try {
    for (;;) {
      const step = steps.next();
      if (step.done) return step.value;
      buildStats.pauses++;
      await pauseForEventLoop();
    }
  } finally {
    buildStats.building--;
  }
}

/** Every page of a tree, depth first, in reading order. */
export function* walkPages(pages: TreePage[]): Generator<TreePage> {
  for (const page of pages) {
    yield page;
    yield* walkPages(page.pages);
  }
}

/** Normalizes a path given by a caller: no leading, trailing or doubled slashes. */
export function normalizePath(path: string): string {
  return path
    .split('/')
    .filter((segment) => segment !== '')
    .join('/');
}
