import type { Context } from '../context.ts';
import { enqueue, type QueueContext } from '../jobs/queue.ts';
import type { JobRun } from '../jobs/types.ts';
import { pruneAuditLogJob } from './prune-job.ts';

/**
 * How long the audit log keeps its entries: QUIRE_AUDIT_RETENTION_DAYS. Reads never show older entries, and
 * one recurring job removes them: it runs once a day, and reschedules itself instead of finishing, so one
 * pending job (a singleton) stands for the schedule.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

/** The oldest moment the audit log still shows, as the ISO text it stores. */
export function auditHorizon(ctx: Pick<Context, 'clock' | 'config'>): string {
  return new Date(ctx.clock.now().getTime() - ctx.config.auditRetentionDays * DAY_MS).toISOString();
}

/** Removes the entries older than the retention; returns how many. */
export async function pruneAuditLog(ctx: Pick<Context, 'db' | 'clock' | 'config'>): Promise<number> {
  const result = await ctx.db.deleteFrom('audit_log').where('created_at', '<', auditHorizon(ctx)).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The handler of `audit-log-prune`: prunes, then is due again a day later. */
export const runAuditPrune: JobRun<Record<string, never>> = async (ctx) => {
  await pruneAuditLog(ctx);
  return { rescheduleAt: new Date(ctx.clock.now().getTime() + DAY_MS) };
};

/** Starts the daily schedule (at every start of a serving process: the singleton keeps one job, due now). */
export async function scheduleAuditPrune(ctx: QueueContext): Promise<void> {
  await enqueue(ctx, pruneAuditLogJob, {});
}
