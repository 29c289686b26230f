import type { Context } from '../context.ts';
import type { DomainEventListener } from '../event-bus.ts';
import type { SpaceContentChanged } from '../events.ts';
import { enqueue, type QueueContext } from '../jobs/queue.ts';
import type { JobRun } from '../jobs/types.ts';
import { indexSpaceJob, indexSpaceKey, type IndexSpacePayload } from './index-job.ts';
import { currentRoot, indexSpace } from './indexer.ts';
import { saveRevisionAnalysis } from '../content/link-analysis/cache.ts';
import { KEEP_ANALYSIS_AFTER_MS, keepLinkAnalysisJob, keepLinkAnalysisKey, type KeepLinkAnalysisPayload } from '../content/link-analysis/keep-job.ts';

/**
 * Schedules the indexing of a space's current content: enqueues the space's `index-space` job in the
 * caller's transaction, so the index follows once the change is committed (within a round of the job
 * queue).
 *
 * The queue keeps one pending or running job per key, and leaves a running job alone. A job that is
 * already running may have read the content before this change, so then a follow-up job is enqueued
 * under a second key (or, if that one is running too, with no key): indexing is incremental and safe to
 * run concurrently, so an extra run costs little, while a missed one would leave search behind.
 */
export async function scheduleSpaceIndex(ctx: QueueContext, spaceId: string): Promise<void> {
  const payload: IndexSpacePayload = { spaceId };
  for (const singletonKey of [indexSpaceKey(spaceId), `${indexSpaceKey(spaceId)}:again`, null]) {
    const id = await enqueue(ctx, indexSpaceJob, payload, { singletonKey });
    if (singletonKey === null) return;
    const job = await ctx.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirst();
    if (job?.status !== 'running') return;
  }
}

/** Search's subscription to `space-content-changed`. */
export const indexOnContentChange: DomainEventListener<SpaceContentChanged> = (tx, event) => scheduleSpaceIndex(tx, event.spaceId);

/**
 * What the `index-space` job does: brings the space's search index up to its current revision, then has that
 * revision's link analysis kept (src/content/link-analysis/saved.ts) by the space's `keep-link-analysis` job,
 * due KEEP_ANALYSIS_AFTER_MS later unless one is pending already (whose due time stays: a space edited without
 * pause still has its analysis kept once a period). Made from the link facts the indexer has just stored, a kept
 * analysis spares the first request for the revision's links, on every process, the work of every page; made
 * for every revision, it cost a 10,000-page space ten times the index of a one-page edit (docs/performance.md).
 */
export async function indexSpaceContent(ctx: Context, spaceId: string): Promise<void> {
  const report = await indexSpace(ctx, spaceId);
  if (report.rootHash) await keepAnalysisLater(ctx, spaceId);
}

async function keepAnalysisLater(ctx: Context, spaceId: string): Promise<void> {
  const key = keepLinkAnalysisKey(spaceId);
  const pending = await ctx.db.selectFrom('jobs').select('id').where('singleton_key', '=', key).where('status', '=', 'pending').executeTakeFirst();
  if (pending) return;
  await enqueue(ctx, keepLinkAnalysisJob, { spaceId }, { runAt: new Date(ctx.clock.now().getTime() + KEEP_ANALYSIS_AFTER_MS) });
}

/** What the `keep-link-analysis` job does: keeps the link analysis of the space's current revision. */
export async function keepSpaceAnalysis(ctx: Context, spaceId: string): Promise<void> {
  const root = await currentRoot(ctx, spaceId);
  if (root) await saveRevisionAnalysis(ctx, root);
}

/** The handler of `keep-link-analysis`. */
export const runKeepLinkAnalysis: JobRun<KeepLinkAnalysisPayload> = async (ctx, payload) => {
  await keepSpaceAnalysis(ctx, payload.spaceId);
};

/** The handler of `index-space`. */
export const runIndexSpace: JobRun<IndexSpacePayload> = async (ctx, payload) => {
  await indexSpaceContent(ctx, payload.spaceId);
};
