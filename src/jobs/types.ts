import type { Context, JobInfo, JobOutcome, RunnableJob } from '../context.ts';

export type { JobInfo, JobOutcome } from '../context.ts';

/** What a job handler receives: a Context with no acting user (the work is the system's). */
export type JobContext = Context;

/** The type a definition's payload has; it exists only for the compiler (no value carries it). */
declare const payloadType: unique symbol;

/**
 * A kind of job: its name and the defaults its jobs are enqueued with. A definition lives in its own file,
 * `<engine>/<name>-job.ts`, which imports nothing but this one, so any code may enqueue the job
 * (`enqueue(tx, definition, payload)`, the payload's type checked at compile time) without importing the
 * work it runs; the handler is bound to it once, in src/services.ts (`handle`).
 */
export interface JobDefinition<Payload> {
  readonly kind: string;
  /** How many runs before the job is marked failed (default 5). */
  readonly maxAttempts?: number;
  /** At most one pending or running job per key: enqueueing again moves the pending one instead. */
  singletonKey?(payload: Payload): string | null;
  /** Jobs of one queue key run one at a time, in the order they were enqueued (e.g. one space's Git operations). */
  queueKey?(payload: Payload): string | null;
  /** Milliseconds to wait before retry number `attempt` (the failed run's number); default 30 s × 2^(attempt−1), at most 1 hour. */
  backoffMs?(attempt: number): number;
  /** How long a worker holds a job before another may take it over (default 5 minutes). */
  readonly leaseMs?: number;
  readonly [payloadType]?: Payload;
}

/** Declares a kind of job whose payloads are `Payload`. */
export function defineJob<Payload>(definition: JobDefinition<Payload>): JobDefinition<Payload> {
  return definition;
}

/**
 * What runs a job. A handler must be safe to run more than once for the same job (a worker may stop after
 * the work and before recording it): re-check the state it acts on instead of trusting the payload.
 */
export type JobRun<Payload> = (ctx: JobContext, payload: Payload, job: JobInfo) => Promise<JobOutcome>;

/** A definition bound to its handler: what the registry holds. */
export interface JobHandler extends RunnableJob {
  readonly definition: JobDefinition<never>;
}

/**
 * Binds a kind to its handler, checking that the handler takes the kind's payload. The payload read back from
 * the queue is the JSON the definition's type allowed when it was enqueued.
 */
export function handle<Payload>(definition: JobDefinition<Payload>, run: JobRun<Payload>): JobHandler {
  return {
    definition: definition as JobDefinition<never>,
    leaseMs: definition.leaseMs,
    backoffMs: definition.backoffMs ? (attempt) => definition.backoffMs!(attempt) : undefined,
    run: (ctx, payload, job) => run(ctx, payload as Payload, job),
  };
}

export const DEFAULT_MAX_ATTEMPTS = 5;
export const DEFAULT_LEASE_MS = 5 * 60 * 1000;

export function defaultBackoffMs(attempt: number): number {
  return Math.min(30_000 * 2 ** Math.max(0, attempt - 1), 60 * 60 * 1000);
}
