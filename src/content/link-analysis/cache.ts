/**
 * The link analysis of a revision: every link of every page, classified, grouped by target, with the
 * pages that use each file. A revision's content never changes, so its analysis is a pure function of
 * its root hash (and of the server's public URL, which decides what is one of its own addresses): it is
 * computed once and kept in a bounded cache; each body is read once, its link facts kept by body hash in
 * memory and in the database (facts.ts, store.ts). The analysis of a space's current revision is also kept
 * in the database whole (saved.ts), written by the search indexer's job (`saveRevisionAnalysis`), so that a
 * freshly started process reads it rather than computing it. Spaces and change requests (for their mirrors)
 * read it through `analyzeRevision`.
 */
import { nowIso, type Context } from '../../context.ts';
import { LruCache } from '../../lru.ts';
import { findRevision } from '../revisions.ts';
import { loadTree, walkPages, type RevisionTree, type TreePage } from '../tree.ts';
import { classify, type AnalyzedLink, type ClassifyScope } from './classify.ts';
import { nodeRefs, type FoundRef } from './extract.ts';
import { bodyFactsStats, pageFacts } from './facts.ts';
import { storeWrittenFacts } from './store.ts';
import { dropOutdatedAnalyses, hasSavedAnalysis, loadSavedAnalysis, restoreAnalysis, saveAnalysis } from './saved.ts';

export type { AnalyzedLink, LinkStatus, LinkTarget } from './classify.ts';
export type { LinkRelation } from './extract.ts';

/** One target and the pages that link to it. */
export interface LinkUsage extends AnalyzedLink {
  /** Ids of the pages holding the link, in reading order, each once. */
  pages: string[];
}

export interface RevisionLinks {
  rootHash: string;
  tree: RevisionTree;
  /** Every target of the revision, ordered by key. */
  usages: LinkUsage[];
  /** The links of each page that has any, ordered by key, each once. */
  byPage: Map<string, AnalyzedLink[]>;
  /** The pages that use each file (links, images, file blocks, covers), in reading order. */
  fileBacklinks: Map<string, string[]>;
  /** Every space that links point at (resolved for each caller). */
  spaces: string[];
}

type Store = Pick<Context, 'db' | 'dialect' | 'config' | 'clock'>;

const NO_ANCHORS: ReadonlySet<string> = new Set();

/** At most 64 analyses and about 500,000 pages and links in memory per process. */
const cache = new LruCache<string, RevisionLinks>(64, 500_000);
const pending = new Map<string, Promise<RevisionLinks>>();

/**
 * Counts the analyses computed (not taken from the cache), those read from a kept row instead, and the
 * bodies parsed, for tests and measurements.
 */
export const linkAnalysisStats = {
  built: 0,
  restored: 0,
  get parsed(): number {
    return bodyFactsStats.parsed;
  },
};

export function clearLinkAnalysisCache(): void {
  cache.clear();
}

/** The analysis of a revision by id; undefined when there is no such revision. */
export async function analyzeRevision(ctx: Store, revisionId: string): Promise<RevisionLinks | undefined> {
  const revision = await findRevision(ctx, revisionId);
  return revision ? analyzeRoot(ctx, revision.root) : undefined;
}

/** The public URL as links are classified against it: without a trailing slash. */
function publicUrlOf(ctx: Store): string {
  return ctx.config.publicUrl.replace(/\/+$/, '');
}

/**
 * The analysis of the revision whose root object is `rootHash`: from the cache, or else from its kept row,
 * or else computed; once, concurrent callers share it.
 */
export async function analyzeRoot(ctx: Store, rootHash: string): Promise<RevisionLinks> {
  const publicUrl = publicUrlOf(ctx);
  const key = `${rootHash} ${publicUrl}`;
  const cached = cache.get(key);
  if (cached) return cached;
  let running = pending.get(key);
  if (!running) {
    running = compute(ctx, rootHash, publicUrl).finally(() => pending.delete(key));
    pending.set(key, running);
  }
  return running;
}

/**
 * Keeps the analysis of a revision in the database, unless it is kept already (in the current reading, for
 * this public URL), and drops the kept analyses of revisions that are no space's current one. Run by the
 * space's `keep-link-analysis` job (keep-job.ts) for its current revision.
 */
export async function saveRevisionAnalysis(ctx: Store, rootHash: string): Promise<void> {
  const publicUrl = publicUrlOf(ctx);
  if (await hasSavedAnalysis(ctx, rootHash, publicUrl)) return;
  const analysis = await analyzeRoot(ctx, rootHash);
  await saveAnalysis(ctx, rootHash, publicUrl, analysis, nowIso(ctx));
  await dropOutdatedAnalyses(ctx, rootHash);
}

async function compute(ctx: Store, rootHash: string, publicUrl: string): Promise<RevisionLinks> {
  const tree = await loadTree(ctx, rootHash);
  const saved = await loadSavedAnalysis(ctx, rootHash, publicUrl);
  const restored = saved && restoreAnalysis(rootHash, tree, saved);
  if (restored) {
    linkAnalysisStats.restored++;
    cache.set(`${rootHash} ${publicUrl}`, restored, Math.max(1, tree.byId.size + restored.links));
    return restored;
  }
  const pages = [...walkPages(tree.pages)];

  // The facts of each body (references, anchors): from memory, from the facts stored by body hash, or
  // read now from the bodies that have none (their facts are stored once the analysis is done).
  const { byPage: factsByPage, newlyRead } = await pageFacts(ctx, tree, pages);
  const anchorsOf = (pageId: string): ReadonlySet<string> => factsByPage.get(pageId)?.anchors() ?? NO_ANCHORS;

  const scope: ClassifyScope = { tree, anchors: anchorsOf, publicUrl };
  const byPage = new Map<string, AnalyzedLink[]>();
  const usages = new Map<string, LinkUsage>();
  const fileBacklinks = new Map<string, string[]>();
  const spaces = new Set<string>();
  let weight = pages.length;
  // One map for every page's own links (cleared per page), and each page's references read where they are
  // (its node, then its body's facts) rather than copied into a list per page first.
  const own = new Map<string, AnalyzedLink>();
  const take = (page: TreePage, refs: readonly FoundRef[]): void => {
    const pageId = page.node.id;
    for (const ref of refs) {
      const link = classify(scope, page, ref);
      if (!link || own.has(link.key)) continue;
      own.set(link.key, link);
      const usage = usages.get(link.key);
      if (usage) usage.pages.push(pageId);
      else usages.set(link.key, { key: link.key, relation: link.relation, target: link.target, status: link.status, href: link.href, pages: [pageId] });
      if (link.target.kind === 'space') spaces.add(link.target.space);
      if (link.target.kind === 'file') {
        const users = fileBacklinks.get(link.target.file);
        if (!users) fileBacklinks.set(link.target.file, [pageId]);
        else if (users[users.length - 1] !== pageId) users.push(pageId);
      }
    }
  };
  for (const page of pages) {
    const pageId = page.node.id;
    if (page.node.type === 'link' || page.node.cover) take(page, nodeRefs(page.node));
    const bodyRefs = factsByPage.get(pageId)?.refs;
    if (bodyRefs) take(page, bodyRefs);
    if (own.size > 0) {
      byPage.set(pageId, own.size === 1 ? [...own.values()] : [...own.values()].sort(byKey));
      weight += own.size;
      own.clear();
    }
  }

  if (newlyRead.size > 0) await storeWrittenFacts(ctx, newlyRead, nowIso(ctx));

  const analysis: RevisionLinks = { rootHash, tree, usages: [...usages.values()].sort(byKey), byPage, fileBacklinks, spaces: [...spaces] };
  linkAnalysisStats.built++;
  cache.set(`${rootHash} ${publicUrl}`, analysis, Math.max(1, weight));
  return analysis;
}

function byKey(a: { key: string }, b: { key: string }): number {
  return a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
}
