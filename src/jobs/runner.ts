import { hostname } from 'node:os';
import type { AppServices } from '../context.ts';
import { randomId } from '../ids.ts';
import type { JobsTable } from '../db/tables/jobs.ts';
import { claimDue, releaseJobsOfDeadWorkers, runClaimed, runDueJobs, type RunOptions } from './queue.ts';
import type { JobHandlers } from '../context.ts';
import type { JobInfo } from './types.ts';

/** Timers, injectable so tests can drive the loop. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

/** Node's timers; a look due now runs on the next turn of the event loop (setImmediate), not a timer's 1 ms later. */
const realTimers: Timers = {
  setTimeout: (callback, ms) => (ms <= 0 ? { immediate: setImmediate(callback) } : { timeout: setTimeout(callback, ms) }),
  clearTimeout: (handle) => {
    const held = handle as { immediate?: NodeJS.Immediate; timeout?: NodeJS.Timeout };
    if (held.immediate) clearImmediate(held.immediate);
    if (held.timeout) clearTimeout(held.timeout);
  },
};

export interface JobRunnerOptions {
  /** Names this worker in `locked_by` (default: host, process id and a random suffix). */
  workerId?: string;
  /** Pause before looking again when the last look found nothing more to do (default 1000 ms). */
  intervalMs?: number;
  /** Jobs claimed at most per look (default 10). */
  limit?: number;
  /** Jobs run at once (default 4): a long job (a Git import) never holds up the others. */
  concurrency?: number;
  registry?: JobHandlers;
  timers?: Timers;
  /** Told about every failed run and every look that could not run (the database was unreachable…). */
  onError?: (error: unknown, job?: JobInfo) => void;
  /** Told how every run ended and how long it took. */
  onFinished?: RunOptions['onFinished'];
  /** Told how many jobs left running by dead workers of this host were taken back at start. */
  onReleased?: (count: number) => void;
}

/**
 * Runs due jobs, up to `concurrency` at once: claims as many as it has free slots, starts each as soon as
 * it is claimed, and looks again when a job finishes, when woken (a NOTIFY said a job was enqueued), or
 * after `intervalMs` when nothing more was due. Time comes from the services' clock, so tests can move it.
 * Every process of a deployment may run one; on PostgreSQL they share the work without running a job
 * twice, and queue keys keep the jobs of one key one at a time across all of them.
 */
export class JobRunner {
  readonly workerId: string;
  private readonly intervalMs: number;
  private readonly limit: number;
  private readonly concurrency: number;
  private readonly timers: Timers;
  private readonly run: RunOptions;
  private timer: unknown = null;
  private running = false;
  /** The look for due jobs in progress, if any. */
  private claiming: Promise<void> | null = null;
  private readonly inFlight = new Set<Promise<void>>();
  /** Something happened during a look (a wake-up, a finished job): look again right after it. */
  private woken = false;
  /** The jobs left running by dead workers of this host have been released (done before the first round). */
  private released = false;

  constructor(
    private readonly services: AppServices,
    private readonly options: JobRunnerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomId(6)}`;
    this.intervalMs = options.intervalMs ?? 1000;
    this.limit = options.limit ?? 10;
    this.concurrency = Math.max(1, options.concurrency ?? 4);
    this.timers = options.timers ?? realTimers;
    this.run = {
      workerId: this.workerId,
      limit: this.limit,
      registry: options.registry,
      onError: options.onError,
      onFinished: options.onFinished,
      stopping: () => !this.running,
    };
  }

  start(): void {
    if (this.running) return;
    this.running = true;
    this.schedule(0);
  }

  /** Looks for due jobs now instead of at the next poll (a NOTIFY said a job was enqueued). */
  wake(): void {
    this.schedule(0);
  }

  /**
   * Stops looking for jobs; resolves once the jobs in flight have finished (a look in progress gives back
   * what it claimed but did not start).
   */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.claiming;
    await Promise.all([...this.inFlight]);
  }

  /** One round now, its jobs one after another (tests and tools); how many jobs it claimed. */
  async tick(): Promise<number> {
    await this.releaseDead();
    const report = await runDueJobs(this.services, this.run);
    return report.claimed;
  }

  /** Before the first claim: a process killed before this one (maybe this one's previous run) left its claimed jobs running. */
  private async releaseDead(): Promise<void> {
    if (this.released) return;
    const released = await releaseJobsOfDeadWorkers(this.services, { host: hostname(), workerId: this.workerId });
    this.released = true;
    if (released > 0) this.options.onReleased?.(released);
  }

  /** Jobs running now. */
  get active(): number {
    return this.inFlight.size;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    if (this.claiming) {
      if (ms === 0) this.woken = true;
      return;
    }
    if (this.timer !== null) {
      if (ms > 0) return; // a look is already due, no later than this one
      this.timers.clearTimeout(this.timer);
    }
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      let next: number | null = this.intervalMs;
      this.claiming = this.look()
        .then((delay) => void (next = delay))
        .finally(() => {
          this.claiming = null;
          const again = this.woken;
          this.woken = false;
          if (again) this.schedule(0);
          else if (next !== null) this.schedule(next);
        });
    }, ms);
  }

  /**
   * Claims as many due jobs as there are free slots and starts them. Answers when to look next: at once
   * when it took all it asked for and slots are left, after the interval when nothing more was due, or
   * null when every slot is busy (a finished job looks again).
   */
  private async look(): Promise<number | null> {
    const free = this.concurrency - this.inFlight.size;
    if (free <= 0) return null;
    const asked = Math.min(free, this.limit);
    let claimed: JobsTable[];
    try {
      await this.releaseDead();
      claimed = await claimDue(this.services, this.workerId, asked);
    } catch (error) {
      this.options.onError?.(error);
      return this.intervalMs;
    }
    for (const job of claimed) this.launch(job);
    if (claimed.length < asked) return this.intervalMs;
    return this.inFlight.size < this.concurrency ? 0 : null;
  }

  private launch(job: JobsTable): void {
    const done: Promise<void> = runClaimed(this.services, job, this.run).then(
      () => undefined,
      (error: unknown) => this.options.onError?.(error),
    );
    const tracked = done.finally(() => {
      this.inFlight.delete(tracked);
      this.schedule(0);
    });
    this.inFlight.add(tracked);
  }
}
