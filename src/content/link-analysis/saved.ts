/**
 * Link analyses kept in the database by revision (table `link_analyses`): below the in-process cache of
 * cache.ts, above computing from the pages' facts (facts.ts). An analysis is a pure function of the
 * revision's root hash and the public URL, so a row is written once — by the space's `keep-link-analysis` job,
 * which the search indexer's job enqueues (keep-job.ts) — and read by the first request of any process: one row, instead of the
 * stored facts of every page, their resolution and the classification of every link.
 *
 * A row counts only for its own root hash and public URL, and only in the current reading
 * (ANALYSIS_READING); anything else, or a row that places a link on a page the tree lacks, is missing, and the
 * analysis is computed. The content collector sweeps the rows whose root object is gone (`sweepLinkAnalyses`).
 */
import type { Context } from '../../context.ts';
import type { RevisionTree } from '../tree.ts';
import type { AnalyzedLink, LinkStatus, LinkTarget } from './classify.ts';
import type { LinkRelation } from './extract.ts';
import { WRITTEN_FACTS_VERSION } from './written.ts';

/**
 * The code an analysis was made by: change the first part whenever what an analysis says changes (the
 * classification, the extraction, the resolution of written links), so that rows of the old code are
 * computed again rather than read.
 */
export const ANALYSIS_READING = `1/${WRITTEN_FACTS_VERSION}`;

/** One target: key, relation, target, status, href and the pages (in reading order), as a tuple. */
type SavedUsage = [string, LinkRelation, LinkTarget, LinkStatus | null, string, string[]];

/** What is kept of an analysis: everything but the tree (which the revision gives) and the links by page (which the usages give). */
export interface SavedAnalysis {
  usages: SavedUsage[];
  fileBacklinks: Array<[string, string[]]>;
  spaces: string[];
}

/** The parts of an analysis kept and restored here (cache.ts's RevisionLinks without its root hash). */
export interface AnalysisParts {
  usages: Array<AnalyzedLink & { pages: string[] }>;
  byPage: Map<string, AnalyzedLink[]>;
  fileBacklinks: Map<string, string[]>;
  spaces: string[];
}

type Store = Pick<Context, 'db'>;

/** The kept analysis of a revision; undefined when there is none in the current reading. */
export async function loadSavedAnalysis(ctx: Store, rootHash: string, publicUrl: string): Promise<SavedAnalysis | undefined> {
  const row = await ctx.db
    .selectFrom('link_analyses')
    .select('analysis')
    .where('root_hash', '=', rootHash)
    .where('public_url', '=', publicUrl)
    .where('reading', '=', ANALYSIS_READING)
    .executeTakeFirst();
  return row ? (JSON.parse(row.analysis) as SavedAnalysis) : undefined;
}

/** Whether the revision has a kept analysis in the current reading (without reading it). */
export async function hasSavedAnalysis(ctx: Store, rootHash: string, publicUrl: string): Promise<boolean> {
  const row = await ctx.db
    .selectFrom('link_analyses')
    .select('root_hash')
    .where('root_hash', '=', rootHash)
    .where('public_url', '=', publicUrl)
    .where('reading', '=', ANALYSIS_READING)
    .executeTakeFirst();
  return row !== undefined;
}

/** Keeps an analysis; a row of the current reading already there is kept (it says the same). */
export async function saveAnalysis(ctx: Store, rootHash: string, publicUrl: string, parts: AnalysisParts, now: string): Promise<void> {
  const saved: SavedAnalysis = {
    usages: parts.usages.map((usage) => [usage.key, usage.relation, usage.target, usage.status, usage.href, usage.pages]),
    fileBacklinks: [...parts.fileBacklinks],
    spaces: parts.spaces,
  };
  await ctx.db
    .insertInto('link_analyses')
    .values({ root_hash: rootHash, public_url: publicUrl, reading: ANALYSIS_READING, analysis: JSON.stringify(saved), created_at: now })
    .onConflict((oc) =>
      oc
        .columns(['root_hash', 'public_url'])
        .doUpdateSet((eb) => ({ reading: eb.ref('excluded.reading'), analysis: eb.ref('excluded.analysis'), created_at: eb.ref('excluded.created_at') }))
        .where('link_analyses.reading', '<>', ANALYSIS_READING),
    )
    .execute();
}

/**
 * Removes the rows of roots that are no space's current revision, but `keep`: a row is some megabytes for a
 * large space, and every revision of it would otherwise keep one. A change request's head, or a space's
 * revision before its latest, is then computed again on its first analysis in a process.
 */
export async function dropOutdatedAnalyses(ctx: Store, keep: string): Promise<void> {
  await ctx.db
    .deleteFrom('link_analyses')
    .where('root_hash', '<>', keep)
    .where('root_hash', 'not in', (eb) => eb.selectFrom('spaces').innerJoin('revisions', 'revisions.id', 'spaces.revision_id').select('revisions.root'))
    .execute();
}

/**
 * The analysis a kept one says, checked against the tree: undefined (compute it) when it places a link on a
 * page the tree lacks. The links of each page are made from the usages when first asked for (a list of a
 * space's links never asks): these are in key order, so each page's list is too, as a computed analysis
 * orders it.
 */
export function restoreAnalysis(rootHash: string, tree: RevisionTree, saved: SavedAnalysis): RestoredAnalysis | undefined {
  const usages: AnalysisParts['usages'] = [];
  for (const [key, relation, target, status, href, pages] of saved.usages) {
    for (const pageId of pages) if (!tree.byId.has(pageId)) return undefined;
    usages.push({ key, relation, target, status, href, pages });
  }
  for (const [, pages] of saved.fileBacklinks) {
    // A broken link to a file names a file the tree lacks: only its pages are checked.
    for (const pageId of pages) if (!tree.byId.has(pageId)) return undefined;
  }
  return new RestoredAnalysis(rootHash, tree, usages, new Map(saved.fileBacklinks), saved.spaces);
}

/** An analysis read from its kept row (cache.ts's RevisionLinks), its links by page made when first asked for. */
export class RestoredAnalysis implements AnalysisParts {
  private linksByPage: Map<string, AnalyzedLink[]> | undefined;
  constructor(
    readonly rootHash: string,
    readonly tree: RevisionTree,
    readonly usages: AnalysisParts['usages'],
    readonly fileBacklinks: Map<string, string[]>,
    readonly spaces: string[],
  ) {}

  get byPage(): Map<string, AnalyzedLink[]> {
    if (!this.linksByPage) {
      const byPage = new Map<string, AnalyzedLink[]>();
      for (const { key, relation, target, status, href, pages } of this.usages) {
        for (const pageId of pages) {
          const link: AnalyzedLink = { key, relation, target, status, href };
          const links = byPage.get(pageId);
          if (links) links.push(link);
          else byPage.set(pageId, [link]);
        }
      }
      this.linksByPage = byPage;
    }
    return this.linksByPage;
  }

  /** The links the analysis holds, page by page (its weight in the cache, as a computed one's). */
  get links(): number {
    let count = 0;
    for (const usage of this.usages) count += usage.pages.length;
    return count;
  }
}

/**
 * The sweep of the content collector: rows kept before `cutoff` whose root object is no longer in the store;
 * in a dry run, counted with those whose root the collector is removing (`removedObjects`).
 */
export async function sweepLinkAnalyses(ctx: Store, cutoff: string, removedObjects: string[], dryRun: boolean): Promise<number> {
  const gone = await ctx.db
    .selectFrom('link_analyses')
    .select('root_hash')
    .where('created_at', '<', cutoff)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('content_objects').select('content_objects.hash').whereRef('content_objects.hash', '=', 'link_analyses.root_hash'))))
    .execute();
  if (dryRun) {
    const removing = new Set(removedObjects);
    const counted = new Set(gone.map((row) => row.root_hash));
    const kept = await ctx.db.selectFrom('link_analyses').select('root_hash').where('created_at', '<', cutoff).execute();
    return gone.length + kept.filter((row) => removing.has(row.root_hash) && !counted.has(row.root_hash)).length;
  }
  const result = await ctx.db
    .deleteFrom('link_analyses')
    .where('created_at', '<', cutoff)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('content_objects').select('content_objects.hash').whereRef('content_objects.hash', '=', 'link_analyses.root_hash'))))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}
