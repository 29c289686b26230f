import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Kysely } from 'kysely';
import type { DB } from '../db/types.ts';
import type { JobInfo } from '../jobs/types.ts';
import type { JobRunOutcome } from '../jobs/queue.ts';
import { renderStats } from '../published/cache.ts';

const SECONDS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const REQUESTS_NAME = 'quire_http_requests_total';
const REQUESTS_HELP = 'HTTP requests answered, by route pattern and status';
const LATENCY_NAME = 'quire_http_request_duration_seconds';
const LATENCY_HELP = 'Time to answer an HTTP request, by route pattern';

/** One route pattern and method's answers since the process started. */
interface RouteTally {
  labels: { method: string; route: string };
  /** Answers by status code. */
  statuses: Map<number, number>;
  /** Answers by latency bucket (not cumulative): buckets[i] counts the times <= SECONDS[i] and > SECONDS[i - 1]; the last, the rest. */
  buckets: number[];
  sum: number;
  count: number;
}

/**
 * The requests' counter and latency histogram, tallied in plain numbers on every answer and handed to the
 * registry as prom-client's own Counter and Histogram would when scraped (the same series, names, labels and
 * values; the registry formats them). prom-client's `inc` and `observe` check and hash their labels on every
 * call, twice per request (issue 29's profile of every read); here a request costs two map lookups and a few
 * additions.
 */
class RequestTallies {
  private readonly byRoute = new Map<string, Map<string, RouteTally>>();

  constructor(registry: Registry) {
    const tallies = this;
    // prom-client's Registry formats whatever has a name, help, type and values (getForPromString or get).
    const counter = {
      name: REQUESTS_NAME,
      help: REQUESTS_HELP,
      type: 'counter',
      aggregator: 'sum',
      get: async () => ({ name: REQUESTS_NAME, help: REQUESTS_HELP, type: 'counter', aggregator: 'sum', values: tallies.counterValues() }),
      reset: () => tallies.byRoute.clear(),
    };
    const histogram = {
      name: LATENCY_NAME,
      help: LATENCY_HELP,
      type: 'histogram',
      aggregator: 'sum',
      getForPromString: async () => ({ name: LATENCY_NAME, help: LATENCY_HELP, type: 'histogram', aggregator: 'sum', values: tallies.histogramValues() }),
      // As prom-client's Histogram.get: each value's labels with the shared ones spread in.
      get: async () => ({
        name: LATENCY_NAME,
        help: LATENCY_HELP,
        type: 'histogram',
        aggregator: 'sum',
        values: tallies.histogramValues().map(({ sharedLabels, labels, ...value }) => ({ ...value, labels: { ...labels, ...sharedLabels } })),
      }),
      reset: () => tallies.byRoute.clear(),
    };
    registry.registerMetric(counter as unknown as Parameters<Registry['registerMetric']>[0]);
    registry.registerMetric(histogram as unknown as Parameters<Registry['registerMetric']>[0]);
  }

  add(method: string, route: string, status: number, seconds: number): void {
    let byMethod = this.byRoute.get(route);
    if (byMethod === undefined) {
      byMethod = new Map();
      this.byRoute.set(route, byMethod);
    }
    let tally = byMethod.get(method);
    if (tally === undefined) {
      tally = { labels: { method, route }, statuses: new Map(), buckets: new Array<number>(SECONDS.length + 1).fill(0), sum: 0, count: 0 };
      byMethod.set(method, tally);
    }
    tally.statuses.set(status, (tally.statuses.get(status) ?? 0) + 1);
    let bucket = 0;
    while (bucket < SECONDS.length && seconds > SECONDS[bucket]) bucket++;
    tally.buckets[bucket]++;
    tally.sum += seconds;
    tally.count++;
  }

  private *tallies(): Iterable<RouteTally> {
    for (const byMethod of this.byRoute.values()) yield* byMethod.values();
  }

  /** As prom-client's Counter: one value per method, route and status (labels in that order, the status as text). */
  private counterValues() {
    const values = [];
    for (const tally of this.tallies()) {
      for (const [status, count] of tally.statuses) values.push({ value: count, labels: { method: tally.labels.method, route: tally.labels.route, status: String(status) } });
    }
    return values;
  }

  /** As prom-client's Histogram.getForPromString: cumulative buckets, +Inf, sum and count per method and route. */
  private histogramValues() {
    const values = [];
    const bucketName = `${LATENCY_NAME}_bucket`;
    for (const tally of this.tallies()) {
      const sharedLabels = tally.labels;
      let cumulative = 0;
      for (const [i, bound] of SECONDS.entries()) {
        cumulative += tally.buckets[i];
        values.push({ labels: { le: bound } as Record<string, string | number>, sharedLabels, value: cumulative, metricName: bucketName, exemplar: null });
      }
      values.push(
        { labels: { le: '+Inf' }, sharedLabels, value: tally.count, metricName: bucketName, exemplar: null },
        { labels: {}, sharedLabels, value: tally.sum, metricName: `${LATENCY_NAME}_sum`, exemplar: undefined },
        { labels: {}, sharedLabels, value: tally.count, metricName: `${LATENCY_NAME}_count`, exemplar: undefined },
      );
    }
    return values;
  }
}
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
  private readonly requests: RequestTallies;
  private readonly jobRuns: Counter<'kind' | 'outcome'>;
  private readonly jobSeconds: Histogram<'kind'>;

  constructor(db: Kysely<DB>, now: () => Date = () => new Date()) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'quire_' });
    this.requests = new RequestTallies(this.registry);
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
    this.requests.add(method, route, status, seconds);
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
