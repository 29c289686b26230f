import type { Context } from '../context.ts';
import { pruneJobsJob } from './prune-job.ts';
import { enqueue, type QueueContext } from './queue.ts';
import type { JobRun } from './types.ts';

/**
 * Finished jobs leave the queue: a job done more than 7 days ago, or failed more than 30 days ago (kept
 * longer, as its `last_error` is what an operator reads), is removed by one daily job, which reschedules
 * itself (a singleton, started by every serving process). Without it every webhook delivery, index run and
 * Git operation would stay in `jobs` for ever.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const DONE_KEPT_DAYS = 7;
export const FAILED_KEPT_DAYS = 30;

/** Removes the finished jobs past their keeping time; how many. */
export async function pruneFinishedJobs(ctx: Pick<Context, 'db' | 'clock'>): Promise<number> {
  const now = ctx.clock.now().getTime();
  const before = (days: number) => new Date(now - days * DAY_MS).toISOString();
  const result = await ctx.db
    .deleteFrom('jobs')
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'done'), eb('finished_at', '<', before(DONE_KEPT_DAYS))]),
        eb.and([eb('status', '=', 'failed'), eb('finished_at', '<', before(FAILED_KEPT_DAYS))]),
      ]),
    )
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The handler of `jobs-prune`: prunes, then is due again a day later. */
export const runJobsPrune: JobRun<Record<string, never>> = async (ctx) => {
  await pruneFinishedJobs(ctx);
  return { rescheduleAt: new Date(ctx.clock.now().getTime() + DAY_MS) };
};

/** Starts the daily schedule (at every start of a serving process: the singleton keeps one job). */
export async function scheduleJobsPrune(ctx: QueueContext): Promise<void> {
  await enqueue(ctx, pruneJobsJob, {});
}
