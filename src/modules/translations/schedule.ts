import { enqueue, type QueueContext } from '../../jobs/queue.ts';
import { runTranslationJob, runTranslationKey, type RunTranslationPayload } from './run-job.ts';

/**
 * Schedules a run of a translation in the caller's transaction, `delayMs` from now (changes of the source
 * are debounced: a burst of edits gives one run). One pending run per translation; when a run is already
 * going, a follow-up is queued under a second key, since the running one may have read the source before
 * this change (the same rule as search indexing).
 */
export async function scheduleTranslationRun(ctx: QueueContext, translationId: string, delayMs = 0): Promise<void> {
  const payload: RunTranslationPayload = { translationId };
  const runAt = new Date(ctx.clock.now().getTime() + delayMs);
  for (const singletonKey of [runTranslationKey(translationId), `${runTranslationKey(translationId)}:again`, null]) {
    const id = await enqueue(ctx, runTranslationJob, payload, { singletonKey, runAt });
    if (singletonKey === null) return;
    const job = await ctx.db.selectFrom('jobs').select('status').where('id', '=', id).executeTakeFirst();
    if (job?.status !== 'running') return;
  }
}
