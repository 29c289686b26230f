import { sql } from 'kysely';
import type { AppServices, Context } from '../context.ts';
import { createContext, nowIso } from '../context.ts';
import { lockRows } from '../db/locks.ts';
import type { JobsTable } from '../db/tables/jobs.ts';
import { DEFAULT_LEASE_MS, DEFAULT_MAX_ATTEMPTS, defaultBackoffMs, type JobDefinition, type JobInfo, type JobOutcome } from './types.ts';
import type { JobHandlers } from '../context.ts';

/**
 * The durable job queue, in the `jobs` table. A job is written in the transaction of the request that
 * causes it (so the write and its follow-up work commit together or not at all) and run later by a worker:
 *
 *   pending ──claim──▶ running ──▶ done
 *      ▲                  │
 *      └── error: retry ──┤ (last_error kept, run_at = now + backoff)
 *                         └──▶ failed (after max_attempts runs)
 *
 * `attempts` counts the runs started; a running job whose worker stopped is taken over once its lease
 * (`locked_until`) has passed, which counts as another attempt. A singleton key allows one pending or
 * running job per key (a unique index); finished jobs give their key up. A queue key runs jobs one at a
 * time in the order they were enqueued: a job is claimed only once every earlier job of its queue key has
 * finished (done or failed), so work on one object (a space's Git operations) never overlaps or reorders,
 * while jobs of other keys run beside it.
 */

export interface EnqueueOptions {
  /** When the job becomes due (default: now). */
  runAt?: Date;
  /** Overrides the kind's singleton key; null for none. */
  singletonKey?: string | null;
  /** Overrides the kind's number of attempts. */
  maxAttempts?: number;
  /** Overrides the kind's queue key; null for none. */
  queueKey?: string | null;
}

/** What enqueueing needs of a Context: the database (the caller's transaction), the clock and ids. */
export type QueueContext = Pick<Context, 'db' | 'clock' | 'ids'> & Partial<Pick<Context, 'dialect'>>;

/** The PostgreSQL channel that wakes workers when a job is enqueued (see src/jobs/listen.ts). */
export const JOBS_CHANNEL = 'quire_jobs';

/**
 * Tells the workers of every process that a job is due, in the enqueuing transaction: PostgreSQL delivers
 * a NOTIFY when (and only when) the transaction commits, so a worker never wakes for a job it cannot see.
 */
async function wakeWorkers(ctx: QueueContext, kind: string): Promise<void> {
  if (ctx.dialect === 'postgres') await sql`select pg_notify(${JOBS_CHANNEL}, ${kind})`.execute(ctx.db);
}

/**
 * Enqueues a job in the caller's transaction (`ctx.db`); returns its id. With a singleton key that already
 * has a pending job, that job takes the new payload and due time (and starts its attempts again); when the
 * job holding the key is running, it is left alone and its id returned.
 */
export async function enqueue<Payload>(ctx: QueueContext, definition: JobDefinition<Payload>, payload: NoInfer<Payload>, options: EnqueueOptions = {}): Promise<string> {
  const kind = definition.kind;
  const singletonKey = options.singletonKey !== undefined ? options.singletonKey : (definition.singletonKey?.(payload) ?? null);
  const queueKey = options.queueKey !== undefined ? options.queueKey : (definition.queueKey?.(payload) ?? null);
  const row: JobsTable = {
    id: ctx.ids.next(),
    kind,
    payload: JSON.stringify(payload ?? null),
    status: 'pending',
    singleton_key: singletonKey,
    queue_key: queueKey,
    attempts: 0,
    max_attempts: options.maxAttempts ?? definition.maxAttempts ?? DEFAULT_MAX_ATTEMPTS,
    run_at: (options.runAt ?? ctx.clock.now()).toISOString(),
    locked_by: null,
    locked_until: null,
    last_error: null,
    created_at: nowIso(ctx),
    finished_at: null,
  };
  const due = row.run_at <= ctx.clock.now().toISOString();
  if (singletonKey === null) {
    await ctx.db.insertInto('jobs').values(row).execute();
    if (due) await wakeWorkers(ctx, kind);
    return row.id;
  }
  const stored = await ctx.db
    .insertInto('jobs')
    .values(row)
    .onConflict((oc) =>
      oc
        .column('singleton_key')
        .where('singleton_key', 'is not', null)
        .doUpdateSet((eb) => ({
          payload: eb.ref('excluded.payload'),
          run_at: eb.ref('excluded.run_at'),
          max_attempts: eb.ref('excluded.max_attempts'),
          attempts: 0,
          last_error: null,
        }))
        .where('jobs.status', '=', 'pending'),
    )
    .returning('id')
    .executeTakeFirst();
  if (stored) {
    if (due) await wakeWorkers(ctx, kind);
    return stored.id;
  }
  const running = await ctx.db.selectFrom('jobs').select('id').where('singleton_key', '=', singletonKey).executeTakeFirstOrThrow();
  return running.id;
}

/** Drops the pending job of a singleton key, if any (a running one finishes, and its handler re-checks). */
export async function cancelPending(ctx: Pick<Context, 'db'>, singletonKey: string): Promise<boolean> {
  const result = await ctx.db.deleteFrom('jobs').where('singleton_key', '=', singletonKey).where('status', '=', 'pending').executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/**
 * Takes up to `limit` due jobs for `workerId`: pending jobs whose time has come, and running jobs whose
 * lease has passed; a job with a queue key only when no job of its key enqueued before it is unfinished
 * (which also leaves out every later job of a key while one runs). The one place where the two databases
 * differ: PostgreSQL lets several workers claim at once, each skipping the rows another is claiming (an
 * UPDATE whose subquery takes FOR UPDATE SKIP LOCKED); SQLite has a single writer, so one UPDATE … RETURNING claims
 * atomically. Two PostgreSQL workers claiming at once cannot take two jobs of one key: the later job is
 * held back by the earlier one, which is unfinished in either worker's snapshot until its claim commits.
 */
export async function claimDue(services: AppServices, workerId: string, limit: number): Promise<JobsTable[]> {
  const now = services.clock.now();
  const nowText = now.toISOString();
  const lockedUntil = new Date(now.getTime() + DEFAULT_LEASE_MS).toISOString();
  const claim = { status: 'running', locked_by: workerId, locked_until: lockedUntil, attempts: sql<number>`attempts + 1` };
  const due = (db: typeof services.db) =>
    db
      .selectFrom('jobs')
      .select('jobs.id')
      .where((eb) =>
        eb.or([
          eb.and([eb('jobs.status', '=', 'pending'), eb('jobs.run_at', '<=', nowText)]),
          eb.and([eb('jobs.status', '=', 'running'), eb('jobs.locked_until', '<=', nowText)]),
        ]),
      )
      .where((eb) =>
        eb.or([
          eb('jobs.queue_key', 'is', null),
          eb.not(
            eb.exists(
              eb
                .selectFrom('jobs as earlier')
                .select('earlier.id')
                .whereRef('earlier.queue_key', '=', 'jobs.queue_key')
                .where('earlier.status', 'in', ['pending', 'running'])
                .where((inner) =>
                  inner.or([
                    inner('earlier.created_at', '<', inner.ref('jobs.created_at')),
                    inner.and([inner('earlier.created_at', '=', inner.ref('jobs.created_at')), inner('earlier.id', '<', inner.ref('jobs.id'))]),
                  ]),
                ),
            ),
          ),
        ]),
      )
      .orderBy('jobs.run_at')
      .orderBy('jobs.id')
      .limit(limit);
  let rows: JobsTable[];
  if (services.dialect === 'postgres') {
    // One statement, one round trip: the subquery locks the due rows it picks, skipping those another
    // worker is claiming, and the update claims them before the locks are released.
    rows = await services.db.updateTable('jobs').set(claim).where('id', 'in', lockRows(due(services.db), services.dialect, { skipLocked: true })).returningAll().execute();
  } else {
    rows = await services.db.updateTable('jobs').set(claim).where('id', 'in', due(services.db)).returningAll().execute();
  }
  return rows.sort((a, b) => (a.run_at < b.run_at ? -1 : a.run_at > b.run_at ? 1 : a.id < b.id ? -1 : 1));
}

/** Whether a process of this host is alive (a signal 0 tests it; EPERM means it is, under another user). */
export function processIsAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Ends the leases of the jobs a dead worker of this host left running, so they are taken over at once
 * instead of when their lease runs out (up to 30 minutes): a process killed (SIGKILL, out of memory, power
 * lost) never gives its claimed jobs back. A worker is named `host:pid:suffix` (src/jobs/runner.ts); one of
 * `host` whose process is gone, or whose pid is now `self`'s own under another name (a restart that was given
 * the same pid, as in a container), is dead. Workers of other hosts, or not named so, keep their leases.
 * The takeover then counts as another attempt, as for any expired lease. Answers how many were released.
 */
export async function releaseJobsOfDeadWorkers(
  services: Pick<AppServices, 'db' | 'clock'>,
  self: { host: string; workerId: string },
  isAlive: (pid: number) => boolean = processIsAlive,
): Promise<number> {
  const running = await services.db.selectFrom('jobs').select(['id', 'locked_by']).where('status', '=', 'running').execute();
  const dead = new Set<string>();
  for (const { locked_by: worker } of running) {
    if (!worker || worker === self.workerId || dead.has(worker)) continue;
    const parts = worker.split(':');
    if (parts.length < 3 || parts.slice(0, -2).join(':') !== self.host) continue;
    const pid = Number(parts[parts.length - 2]);
    if (!Number.isInteger(pid) || pid <= 0) continue;
    if (pid === process.pid || !isAlive(pid)) dead.add(worker);
  }
  if (dead.size === 0) return 0;
  const result = await services.db
    .updateTable('jobs')
    .set({ locked_until: services.clock.now().toISOString() })
    .where('status', '=', 'running')
    .where('locked_by', 'in', [...dead])
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

export interface RunOptions {
  workerId: string;
  /** At most this many jobs in this round (default 10). */
  limit?: number;
  /** The kinds this worker runs (default: the app's jobs). */
  registry?: JobHandlers;
  /** Told about every failed run (the failure itself is recorded on the job). */
  onError?: (error: unknown, job: JobInfo) => void;
  /** Told how every run ended and how long it took (metrics). */
  onFinished?: (job: JobInfo, outcome: JobRunOutcome, seconds: number) => void;
  /** Asked before each job: once true, the jobs claimed but not started are given back to the queue. */
  stopping?: () => boolean;
}

export type JobRunOutcome = 'done' | 'rescheduled' | 'retried' | 'failed';

export interface RunReport {
  claimed: number;
  done: number;
  rescheduled: number;
  retried: number;
  failed: number;
}

function errorText(error: unknown): string {
  const text = error instanceof Error ? error.message || error.name : String(error);
  return text.slice(0, 2000);
}

/**
 * One round of work: claims the due jobs and runs each with the handler of its kind, one after another
 * (JobRunner runs several at once; see runClaimed for what each run records).
 */
export async function runDueJobs(services: AppServices, options: RunOptions): Promise<RunReport> {
  const report: RunReport = { claimed: 0, done: 0, rescheduled: 0, retried: 0, failed: 0 };
  const jobs = await claimDue(services, options.workerId, options.limit ?? 10);
  report.claimed = jobs.length;
  for (const job of jobs) {
    const outcome = await runClaimed(services, job, options);
    if (outcome !== 'released') report[outcome]++;
  }
  return report;
}

/**
 * Runs one claimed job with the handler of its kind. A handler that returns marks its job done; one that
 * throws has the error kept in `last_error` and the job retried after a backoff, or marked failed once it
 * has used its attempts; an unknown kind fails the same way. Every update is conditional on this worker
 * still holding the job. When the worker is stopping, the job is given back untouched ('released').
 */
export async function runClaimed(services: AppServices, job: JobsTable, options: RunOptions): Promise<JobRunOutcome | 'released'> {
  const registry = options.registry ?? services.jobs;
  const held = (db: typeof services.db) => db.updateTable('jobs').where('id', '=', job.id).where('locked_by', '=', options.workerId).where('status', '=', 'running');
  if (options.stopping?.()) {
    // Shutting down: give the job back untouched (this claim does not count as an attempt).
    await held(services.db).set({ status: 'pending', attempts: sql<number>`attempts - 1`, locked_by: null, locked_until: null }).execute();
    return 'released';
  }
  const handler = registry.get(job.kind);
  const info: JobInfo = { id: job.id, kind: job.kind, attempts: job.attempts, maxAttempts: job.max_attempts, runAt: job.run_at };
  const started = performance.now();
  const finished = (outcome: JobRunOutcome) => {
    options.onFinished?.(info, outcome, (performance.now() - started) / 1000);
    return outcome;
  };
  if (handler?.leaseMs !== undefined) {
    await held(services.db).set({ locked_until: new Date(services.clock.now().getTime() + handler.leaseMs).toISOString() }).execute();
  }
  let outcome: JobOutcome;
  try {
    if (!handler) throw new Error(`No handler is registered for jobs of kind "${job.kind}".`);
    outcome = await handler.run(createContext(services, null), JSON.parse(job.payload) as unknown, info);
  } catch (error) {
    options.onError?.(error, info);
    const now = services.clock.now();
    if (job.attempts >= job.max_attempts) {
      await held(services.db)
        .set({ status: 'failed', last_error: errorText(error), finished_at: now.toISOString(), singleton_key: null, locked_by: null, locked_until: null })
        .execute();
      return finished('failed');
    }
    const wait = (handler?.backoffMs ?? defaultBackoffMs)(job.attempts);
    await held(services.db)
      .set({ status: 'pending', last_error: errorText(error), run_at: new Date(now.getTime() + wait).toISOString(), locked_by: null, locked_until: null })
      .execute();
    return finished('retried');
  }
  if (outcome && 'rescheduleAt' in outcome) {
    // Not due yet: back in the queue, and this run does not count as an attempt.
    await held(services.db)
      .set({ status: 'pending', run_at: outcome.rescheduleAt.toISOString(), attempts: sql<number>`attempts - 1`, locked_by: null, locked_until: null })
      .execute();
    return finished('rescheduled');
  }
  await held(services.db)
    .set({ status: 'done', finished_at: services.clock.now().toISOString(), singleton_key: null, locked_by: null, locked_until: null })
    .execute();
  return finished('done');
}
