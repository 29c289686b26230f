import { hostname } from 'node:os';
import type { AppServices } from '../context.ts';
import { randomId } from '../ids.ts';
import { releaseJobsOfDeadWorkers, runDueJobs, type RunOptions } from './queue.ts';
import type { JobRegistry } from './registry.ts';
import type { JobInfo } from './types.ts';

/** Timers, injectable so tests can drive the loop. */
export interface Timers {
  setTimeout(callback: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (callback, ms) => setTimeout(callback, ms),
  clearTimeout: (handle) => clearTimeout(handle as NodeJS.Timeout),
};

export interface JobRunnerOptions {
  /** Names this worker in `locked_by` (default: host, process id and a random suffix). */
  workerId?: string;
  /** Pause between rounds when the last one found less than a full batch (default 1000 ms). */
  intervalMs?: number;
  /** Jobs per round (default 10). */
  limit?: number;
  registry?: JobRegistry;
  timers?: Timers;
  /** Told about every failed run and every round that could not run (the database was unreachable…). */
  onError?: (error: unknown, job?: JobInfo) => void;
  /** Told how every run ended and how long it took. */
  onFinished?: RunOptions['onFinished'];
  /** Told how many jobs left running by dead workers of this host were taken back at start. */
  onReleased?: (count: number) => void;
}

/**
 * Polls the queue and runs due jobs, one round at a time: right away again after a full batch, after
 * `intervalMs` otherwise. Time comes from the services' clock, so tests can move it. Every process of a
 * deployment may run one; on PostgreSQL they share the work without running a job twice.
 */
export class JobRunner {
  readonly workerId: string;
  private readonly intervalMs: number;
  private readonly timers: Timers;
  private readonly run: RunOptions;
  private timer: unknown = null;
  private running = false;
  private round: Promise<void> | null = null;
  /** A wake-up came during a round: run another right after it. */
  private woken = false;
  /** The jobs left running by dead workers of this host have been released (done before the first round). */
  private released = false;

  constructor(
    private readonly services: AppServices,
    private readonly options: JobRunnerOptions = {},
  ) {
    this.workerId = options.workerId ?? `${hostname()}:${process.pid}:${randomId(6)}`;
    this.intervalMs = options.intervalMs ?? 1000;
    this.timers = options.timers ?? realTimers;
    this.run = {
      workerId: this.workerId,
      limit: options.limit ?? 10,
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

  /**
   * Runs a round now instead of at the next poll (a NOTIFY said a job was enqueued); during a round, runs
   * another right after it.
   */
  wake(): void {
    if (!this.running) return;
    if (this.timer === null) {
      this.woken = true;
      return;
    }
    this.timers.clearTimeout(this.timer);
    this.schedule(0);
  }

  /**
   * Stops polling; resolves once the round in progress (if any) has finished its current job. The jobs that
   * round claimed but had not started go back to the queue for another worker.
   */
  async stop(): Promise<void> {
    this.running = false;
    if (this.timer !== null) this.timers.clearTimeout(this.timer);
    this.timer = null;
    await this.round;
  }

  /** One round now; how many jobs it claimed. */
  async tick(): Promise<number> {
    if (!this.released) {
      // A process killed before this one (maybe this one's previous run) left its claimed jobs running.
      const released = await releaseJobsOfDeadWorkers(this.services, { host: hostname(), workerId: this.workerId });
      this.released = true;
      if (released > 0) this.options.onReleased?.(released);
    }
    const report = await runDueJobs(this.services, this.run);
    return report.claimed;
  }

  private schedule(ms: number): void {
    if (!this.running) return;
    this.timer = this.timers.setTimeout(() => {
      this.timer = null;
      this.round = this.tick().then(
        (claimed) => {
          const again = this.woken || claimed >= (this.run.limit ?? 10);
          this.woken = false;
          this.schedule(again ? 0 : this.intervalMs);
        },
        (error: unknown) => {
          this.options.onError?.(error);
          this.schedule(this.intervalMs);
        },
      );
    }, ms);
  }
}
