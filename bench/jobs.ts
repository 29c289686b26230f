/**
 * `npm run bench -- jobs`: Quire's job queue against graphile-worker 0.17 (the last line for Node 20) on the
 * same PostgreSQL, in one run: throughput with one and four workers, latency from enqueue to start with an
 * idle worker woken by NOTIFY, and per-key ordering (jobs of one key must run one at a time, in order).
 * A fresh database is made for the run (BENCH_PG_URL names the server, postgres://postgres@127.0.0.1:5432
 * by default) and dropped after. docs/decisions/0062-job-queue.md reads the figures.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { Logger, makeWorkerUtils, run as runGraphile, type Runner, type WorkerUtils } from 'graphile-worker';
import { loadConfig, resolveMasterKey } from '../src/config.ts';
import { createContext, type AppServices } from '../src/context.ts';
import { createServices } from '../src/services.ts';
import { openMigratedDatabase } from '../src/server.ts';
import { FolderBlobStore } from '../src/storage/blobs.ts';
import { defineJob, enqueue, handle as bind, JobRegistry, JobRunner } from '../src/jobs/index.ts';
import { listenForJobs, type JobListener } from '../src/jobs/listen.ts';
import { percentile, ms } from './lib.ts';

const server = process.env.BENCH_PG_URL ?? 'postgres://postgres@127.0.0.1:5432';
const JOBS = Number(process.env.BENCH_JOBS ?? 2000);
const LATENCY_SAMPLES = Number(process.env.BENCH_JOB_LATENCY_SAMPLES ?? 200);
const KEYS = 10;
const PER_KEY = 20;

/**
 * What a queue under test offers the bench: enqueue (optionally under a key: Quire's queue key, graphile's
 * named queue), start and stop `count` workers (one runner running `count` jobs at once, on both sides).
 */
interface Queue {
  name: string;
  enqueue(payload: { n: number; key?: string }): Promise<void>;
  startWorkers(count: number): Promise<void>;
  stopWorkers(): Promise<void>;
  close(): Promise<void>;
}

/** The handler both queues run: tells the bench a job started, waits `work` ms, tells it the job ended. */
type Probe = { started: (payload: { n: number; key?: string }) => void; ended: (payload: { n: number; key?: string }) => void; work: number };
const probe: Probe = { started: () => {}, ended: () => {}, work: 0 };
async function handle(payload: { n: number; key?: string }): Promise<void> {
  probe.started(payload);
  if (probe.work > 0) await new Promise((resolve) => setTimeout(resolve, probe.work));
  probe.ended(payload);
}

async function quireQueue(url: string, dataDir: string): Promise<Queue> {
  const config = loadConfig({ ...process.env, QUIRE_DATA_DIR: dataDir, QUIRE_DATABASE_URL: url, QUIRE_LOG_LEVEL: 'silent' });
  const { database } = await openMigratedDatabase(config);
  const services: AppServices = createServices({ config, database, masterKey: resolveMasterKey(config), blobs: new FolderBlobStore(join(dataDir, 'blobs')) });
  const benchJob = defineJob<{ n: number; key?: string }>({ kind: 'bench' });
  const registry = new JobRegistry([bind(benchJob, (_ctx, payload) => handle(payload))]);
  const ctx = createContext(services, null);
  let runners: JobRunner[] = [];
  let listeners: JobListener[] = [];
  return {
    name: 'Quire queue',
    enqueue: async (payload) => {
      await enqueue(ctx, benchJob, payload, { queueKey: payload.key ?? null });
    },
    startWorkers: async (count) => {
      runners = [new JobRunner(services, { registry, workerId: 'bench', intervalMs: 1000, limit: 10, concurrency: count })];
      listeners = runners.map((runner) => listenForJobs(url, () => runner.wake(), () => {}));
      await new Promise((resolve) => setTimeout(resolve, 300));
      for (const runner of runners) runner.start();
    },
    stopWorkers: async () => {
      await Promise.all(runners.map((runner) => runner.stop()));
      await Promise.all(listeners.map((listener) => listener.close()));
      runners = [];
      listeners = [];
    },
    close: () => database.close(),
  };
}

async function graphileQueue(url: string): Promise<Queue> {
  const logger = new Logger(() => () => {});
  const utils: WorkerUtils = await makeWorkerUtils({ connectionString: url, logger });
  await utils.migrate();
  let runner: Runner | null = null;
  return {
    name: 'graphile-worker 0.17',
    enqueue: async (payload) => {
      await utils.addJob('bench', payload, payload.key ? { queueName: payload.key } : {});
    },
    startWorkers: async (count) => {
      runner = await runGraphile({ connectionString: url, concurrency: count, pollInterval: 1000, noHandleSignals: true, logger, taskList: { bench: async (payload) => handle(payload as { n: number }) } });
    },
    stopWorkers: async () => {
      await runner?.stop();
      runner = null;
    },
    close: async () => {
      await utils.release();
    },
  };
}

/** Enqueues `JOBS` jobs, then starts `workers` and times them until every job has run; jobs per second. */
async function throughput(queue: Queue, workers: number): Promise<number> {
  for (let n = 0; n < JOBS; n++) await queue.enqueue({ n });
  let done = 0;
  const finished = new Promise<void>((resolve) => {
    probe.ended = () => {
      if (++done === JOBS) resolve();
    };
  });
  const start = performance.now();
  await queue.startWorkers(workers);
  await finished;
  const seconds = (performance.now() - start) / 1000;
  await queue.stopWorkers();
  probe.ended = () => {};
  return JOBS / seconds;
}

/** With one idle worker, enqueues jobs one at a time and measures enqueue → start; p50 and p95 in ms. */
async function latency(queue: Queue): Promise<{ p50: number; p95: number }> {
  await queue.startWorkers(1);
  await new Promise((resolve) => setTimeout(resolve, 1500));
  const samples: number[] = [];
  for (let n = 0; n < LATENCY_SAMPLES; n++) {
    const started = new Promise<number>((resolve) => {
      probe.started = () => resolve(performance.now());
    });
    const at = performance.now();
    await queue.enqueue({ n });
    samples.push((await started) - at);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  probe.started = () => {};
  await queue.stopWorkers();
  return { p50: percentile(samples, 50), p95: percentile(samples, 95) };
}

/**
 * KEYS keys × PER_KEY jobs of 5 ms each, four workers: how many jobs started while another of their key was
 * running or before an earlier one of their key (violations), and the time to run them all.
 */
async function ordering(queue: Queue, keyed: boolean): Promise<{ violations: number; seconds: number }> {
  for (let n = 0; n < PER_KEY; n++) for (let k = 0; k < KEYS; k++) await queue.enqueue({ n, ...(keyed ? { key: `space-${k}` } : { key: undefined }), ...({ k } as object) });
  const running = new Map<number, number>();
  const next = new Map<number, number>();
  let violations = 0;
  let done = 0;
  probe.work = 5;
  const finished = new Promise<void>((resolve) => {
    probe.started = (payload) => {
      const k = (payload as unknown as { k: number }).k;
      if ((running.get(k) ?? 0) > 0 || (next.get(k) ?? 0) !== payload.n) violations++;
      running.set(k, (running.get(k) ?? 0) + 1);
      next.set(k, payload.n + 1);
    };
    probe.ended = (payload) => {
      const k = (payload as unknown as { k: number }).k;
      running.set(k, (running.get(k) ?? 1) - 1);
      if (++done === KEYS * PER_KEY) resolve();
    };
  });
  const start = performance.now();
  await queue.startWorkers(4);
  await finished;
  const seconds = (performance.now() - start) / 1000;
  await queue.stopWorkers();
  Object.assign(probe, { started: () => {}, ended: () => {}, work: 0 });
  return { violations, seconds };
}

async function withDatabase<T>(work: (url: string) => Promise<T>): Promise<T> {
  const name = `quire_bench_jobs_${Date.now()}_${process.pid}`;
  const admin = new pg.Client({ connectionString: `${server}/postgres` });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    return await work(`${server}/${name}`);
  } finally {
    // The queues closed their pools; a connection still closing is waited for rather than forced.
    for (let attempt = 0; attempt < 20; attempt++) {
      const dropped = await admin.query(`drop database if exists ${name}`).then(() => true, () => false);
      if (dropped) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await admin.end();
  }
}

export async function jobsBench(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-jobs-'));
  try {
    await withDatabase(async (url) => {
      const queues = [await quireQueue(url, dataDir), await graphileQueue(url)];
      const results = new Map<string, string[]>();
      for (const queue of queues) {
        const one = await throughput(queue, 1);
        const four = await throughput(queue, 4);
        const wait = await latency(queue);
        const order = await ordering(queue, true);
        results.set(queue.name, [
          `${one.toFixed(0)} jobs/s`,
          `${four.toFixed(0)} jobs/s`,
          `${ms(wait.p50)} / ${ms(wait.p95)} ms`,
          `${order.violations} of ${KEYS * PER_KEY}, ${order.seconds.toFixed(2)} s`,
        ]);
      }
      for (const queue of queues) await queue.close();
      const rows = ['throughput, 1 worker', 'throughput, 4 workers', 'enqueue → start p50 / p95', 'per-key order violations, time'];
      console.log(`\nJob queues on PostgreSQL (${JOBS} no-op jobs; ${LATENCY_SAMPLES} latency samples; ${KEYS} keys × ${PER_KEY} jobs of 5 ms)`);
      console.log(`${''.padEnd(34)}${queues.map((q) => q.name.padEnd(26)).join('')}`);
      rows.forEach((label, i) => console.log(`${label.padEnd(34)}${queues.map((q) => results.get(q.name)![i].padEnd(26)).join('')}`));
      console.log('Crash recovery (not timed): a killed Quire worker\'s job is taken over when its lease ends (per kind, 5 min by default);');
      console.log("graphile-worker 0.17 unlocks a killed worker's jobs after its fixed 4-hour job expiry, or when forceUnlockWorkers names the dead worker.");
    });
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}
