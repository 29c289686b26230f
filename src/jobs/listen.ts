import { listenOnChannel, type ChannelListener } from '../db/notifications.ts';
import { JOBS_CHANNEL } from './queue.ts';

export type JobListener = ChannelListener;

/**
 * Wakes a worker when any process enqueues a job (PostgreSQL LISTEN on the jobs channel), so a job starts
 * at once instead of at the next poll. Polling stays as the fallback: when the connection drops, the
 * listener says so and connects again after `retryMs`, and no job is lost meanwhile, only later; on every
 * (re)connection it wakes the worker, as jobs may have come while it was away.
 */
export function listenForJobs(databaseUrl: string, wake: () => void, onError: (error: unknown) => void, retryMs = 5000): JobListener {
  return listenOnChannel(databaseUrl, JOBS_CHANNEL, { onNotification: () => wake(), onError, onConnect: wake }, retryMs);
}
