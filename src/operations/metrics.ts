import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { JobInfo } from '../jobs/types.ts';
import type { JobRunOutcome } from '../jobs/queue.ts';
import { renderStats } from '../published/cache.ts';

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const JOB_SECONDS = [0.01, 0.05, 0.1, 0.5, 1, 5, 10, 30, 60, 300];

/**
 * What one Quire process tells Prometheus (`GET /metrics`): requests by route and status with their
 * latency, background jobs by kind and outcome with their duration, the queue's depth and the age of its
 * oldest due job (read from the database when scraped, so every process reports the shared queue), the
 * published reader's renders, and Node's own process metrics (memory, event loop, garbage collection).
 * Each app has its own registry, so several apps in one process (the tests) do not mix their counts.
 */
export class Metrics {
  readonly registry = new Registry();
  private readonly requests: Counter<'method' | 'route' | 'status'>;
  private readonly latency: Histogram<'method' | 'route'>;
  private readonly jobRuns: Counter<'kind' | 'outcome'>;
  private readonly jobSeconds: Histogram<'kind'>;

  constructor(db: Kysely<DB>, now: () => Date = () => new Date()) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'quire_' });
    this.requests = new Counter({ name: 'quire_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'], registers });
    this.latency = new Histogram({ name: 'quire_http_request_duration_seconds', help: 'Time to answer an HTTP request, by route pattern', labelNames: ['method', 'route'], buckets: SECONDS, registers });
    this.jobRuns = new Counter({ name: 'quire_jobs_total', help: 'Background job runs in this process, by kind and how they ended', labelNames: ['kind', 'outcome'], registers });
    this.jobSeconds = new Histogram({ name: 'quire_job_duration_seconds', help: 'Time a background job run took, by kind', labelNames: ['kind'], buckets: JOB_SECONDS, registers });
    new Counter({
      name: 'quire_published_renders_total',
      help: 'Published pages rendered (cache misses of the rendered-page cache) in this process',
      registers,
      collect() {
        this.reset();
        this.inc(renderStats.rendered);
      },
    });
    new Gauge({
      name: 'quire_jobs_queued',
      help: 'Jobs in the shared queue that have not finished, by kind and status (pending, running)',
      labelNames: ['kind', 'status'],
      registers,
      async collect() {
        const rows = await db
          .selectFrom('jobs')
          .select(['kind', 'status', (eb) => eb.fn.countAll<number>().as('n')])
          .where('status', 'in', ['pending', 'running'])
          .groupBy(['kind', 'status'])
          .execute();
        this.reset();
        for (const row of rows) this.set({ kind: row.kind, status: row.status }, Number(row.n));
      },
    });
    new Gauge({
      name: 'quire_jobs_oldest_due_seconds',
      help: 'How long the oldest due pending job has waited, by kind (0 when none waits)',
      labelNames: ['kind'],
      registers,
      async collect() {
        const nowIso = now().toISOString();
        const rows = await db
          .selectFrom('jobs')
          .select(['kind', (eb) => eb.fn.min('run_at').as('oldest')])
          .where('status', '=', 'pending')
          .where('run_at', '<=', nowIso)
          .groupBy('kind')
          .execute();
        this.reset();
        for (const row of rows) this.set({ kind: row.kind }, Math.max(0, (now().getTime() - Date.parse(String(row.oldest))) / 1000));
      },
    });
  }

  /** Counts an answered request; `route` is the route's pattern (never the raw URL, which would explode the labels). */
  request(method: string, route: string, status: number, seconds: number): void {
    this.requests.inc({ method, route, status: String(status) });
    this.latency.observe({ method, route }, seconds);
  }

  /** Counts a finished job run (the job runner's onFinished). */
  job(job: JobInfo, outcome: JobRunOutcome, seconds: number): void {
    this.jobRuns.inc({ kind: job.kind, outcome });
    this.jobSeconds.observe({ kind: job.kind }, seconds);
  }

  text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
