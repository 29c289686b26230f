import type { Context } from '../context.ts';

/** What a job handler receives: a Context with no acting user (the work is the system's). */
export type JobContext = Context;

/** A claimed job, as its handler sees it. */
export interface JobInfo {
  id: string;
  kind: string;
  /** This run is attempt number `attempts` (1 for the first run). */
  attempts: number;
  maxAttempts: number;
  runAt: string;
}

/** A handler may ask to run again later without it counting as a failed attempt (the work is not due yet). */
export type JobOutcome = void | { rescheduleAt: Date };

/**
 * A kind of job: how to run it, and the defaults its jobs are enqueued with. A handler must be safe to run
 * more than once for the same job (a worker may stop after the work and before recording it): re-check the
 * state it acts on instead of trusting the payload.
 */
export interface JobDefinition<Payload = unknown> {
  kind: string;
  run(ctx: JobContext, payload: Payload, job: JobInfo): Promise<JobOutcome>;
  /** How many runs before the job is marked failed (default 5). */
  maxAttempts?: number;
  /** At most one pending or running job per key: enqueueing again moves the pending one instead. */
  singletonKey?(payload: Payload): string | null;
  /** Jobs of one queue key run one at a time, in the order they were enqueued (e.g. one space's Git operations). */
  queueKey?(payload: Payload): string | null;
  /** Milliseconds to wait before retry number `attempt` (the failed run's number); default 30 s × 2^(attempt−1), at most 1 hour. */
  backoffMs?(attempt: number): number;
  /** How long a worker holds a job before another may take it over (default 5 minutes). */
  leaseMs?: number;
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_LEASE_MS = 5 * 60 * 1000;

export function defaultBackoffMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 60 * 60 * 1000);
}
