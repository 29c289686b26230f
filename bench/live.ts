import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as Y from 'yjs';
import type { ClientsJob, ClientsResult } from './live-clients.ts';
import { close, connect } from './live-client.ts';
import { api, header, ms, percentile, row, start, stop, type Api } from './lib.ts';

/**
 * `npm run bench -- live`: live co-editing (src/live/) on one `quire serve` (SQLite, loopback).
 *
 * - 2, 10 and 50 clients (BENCH_LIVE_COUNTS; Hocuspocus providers on Yjs documents, in child processes) on one document for
 *   BENCH_LIVE_SECONDS (default 60) each, every client typing a character every BENCH_LIVE_TYPE_MS (default
 *   200): the update latency from a sender's update to its arrival at every other client, p50 and p95
 *   (goal p95 <= 50 ms with 50 clients).
 * - Memory per open document: the server's resident memory before and after opening BENCH_LIVE_DOCUMENTS
 *   (default 20) documents with one client each, divided by their number.
 * - The periodic revision write on a 1,000-block page: the server's own histogram
 *   (quire_live_revision_write_seconds on /metrics) over BENCH_LIVE_WRITES (default 5) idle writes.
 *
 * BENCH_LIVE_PARTS picks parts (latency,memory,writes); BENCH_LIVE_SERVER_NODE_ARGS gives the server Node options
 * (e.g. "--cpu-prof --cpu-prof-dir=/tmp/p"). Each latency run also prints the server's event-loop delay and
 * messages in/out per second, and the clients' own loop delay.
 *
 * Figures only, never asserted: on a loaded machine they mean nothing.
 */
const seconds = Number(process.env.BENCH_LIVE_SECONDS ?? 60);
const typeEvery = Number(process.env.BENCH_LIVE_TYPE_MS ?? 200);
const documents = Number(process.env.BENCH_LIVE_DOCUMENTS ?? 20);
const writes = Number(process.env.BENCH_LIVE_WRITES ?? 5);
const counts = (process.env.BENCH_LIVE_COUNTS ?? '2,10,50').split(',').map(Number);
const clientWorkers = Number(process.env.BENCH_LIVE_CLIENT_WORKERS ?? 2);
/** Which parts to run: latency, memory, writes (all by default). */
const parts = (process.env.BENCH_LIVE_PARTS ?? 'latency,memory,writes').split(',');
const root = join(import.meta.dirname, '..');
const METRICS_TOKEN = 'bench-metrics';

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });



async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').pop()) : NaN;
}

/** What the server's /metrics says of the live path and its event loop (the loop histogram resets on each read). */
async function serverFigures(base: string): Promise<{ in: number; out: number; loopP99: number; loopMax: number }> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const value = (name: string) => Number(text.split('\n').find((l) => l.startsWith(`${name} `))?.split(' ').pop() ?? NaN);
  return { in: value('quire_live_messages_total'), out: value('quire_live_messages_sent_total'), loopP99: value('quire_nodejs_eventloop_lag_p99_seconds') * 1000, loopMax: value('quire_nodejs_eventloop_lag_max_seconds') * 1000 };
}

interface Latency {
  samples: number[];
  sent: number;
  clientLoopP99: number;
  clientLoopMax: number;
  server: { inPerSecond: number; outPerSecond: number; loopP99: number; loopMax: number };
}

/**
 * Latency of `count` clients typing into one document for `seconds`. The clients run in child processes
 * (BENCH_LIVE_CLIENT_WORKERS, default 2), apart from this process and from the server's (`quire serve`, its
 * own process), so that a queue in the clients' 50 Yjs documents is not taken for one in the server.
 */
async function latency(base: string, url: string, name: string, token: string, count: number): Promise<Latency> {
  const shares = Math.max(1, Math.min(count, clientWorkers));
  const workers = Array.from({ length: shares }, (_, w) => {
    const job: ClientsJob = { url, name, token, indices: Array.from({ length: count }, (_, i) => i).filter((i) => i % shares === w), seconds, typeEvery };
    const child = fork(join(import.meta.dirname, 'live-clients.ts'), [], { execArgv: ['--import', 'tsx'], serialization: 'advanced' });
    child.send(job);
    return child;
  });
  const next = (worker: ChildProcess) => new Promise<any>((resolve, reject) => { worker.once('message', resolve); worker.once('error', reject); });
  await Promise.all(workers.map(next));
  const before = await serverFigures(base);
  const started = performance.now();
  const done = workers.map(next);
  workers.forEach((worker) => worker.send('go'));
  const results = (await Promise.all(done)).map((message) => message.result as ClientsResult);
  const elapsed = (performance.now() - started) / 1000;
  const after = await serverFigures(base);
  workers.forEach((worker) => worker.kill());
  return {
    samples: results.flatMap((result) => result.samples),
    sent: results.reduce((n, result) => n + result.sent, 0),
    clientLoopP99: Math.max(...results.map((result) => result.loopP99)),
    clientLoopMax: Math.max(...results.map((result) => result.loopMax)),
    server: { inPerSecond: (after.in - before.in) / elapsed, outPerSecond: (after.out - before.out) / elapsed, loopP99: after.loopP99, loopMax: after.loopMax },
  };
}

export async function liveBench(): Promise<void> {
  const port = 33000 + Math.floor(Math.random() * 1000);
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-live-'));
  const env = { QUIRE_DATA_DIR: dataDir, PORT: String(port), QUIRE_LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0', QUIRE_METRICS_TOKEN: METRICS_TOKEN, QUIRE_LIVE_MAX_UPDATES_PER_SECOND: '1000' };
  const base = `http://127.0.0.1:${port}`;
  const url = `ws://127.0.0.1:${port}/v1/live`;
  try {
    const init = spawnSync(join(root, 'bin', 'quire'), ['init', '--org', 'Bench', '--email', 'bench@example.com', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`quire init failed: ${init.stderr}`);
    const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: string };
    const client: Api = { base, token };
    // BENCH_LIVE_SERVER_NODE_ARGS: Node options for the server alone (e.g. "--cpu-prof --cpu-prof-dir=/tmp/profiles").
    const nodeArgs = (process.env.BENCH_LIVE_SERVER_NODE_ARGS ?? '').split(' ').filter(Boolean);
    const quire = await start(process.execPath, [...nodeArgs, join(root, 'bin', 'quire'), 'serve'], env, `${base}/readyz`);
    try {
      const space = (await api(client, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Live' })).id as string;
      const cr = (await api(client, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Live bench' })).id as string;
      const newPage = async (title: string, blocks: number) =>
        (await api(client, 'POST', `/v1/spaces/${space}/change-requests/${cr}/content/pages`, { title, document: { object: 'document', data: {}, nodes: Array.from({ length: blocks }, (_, i) => paragraph(`Paragraph ${i + 1} of ${title}.`)) } })).id as string;
      const nameOf = (page: string) => `${organization}/${space}/${cr}/${page}`;

      header();
      for (const count of parts.includes('latency') ? counts : []) {
        const page = await newPage(`Latency ${count}`, 3);
        const run = await latency(base, url, nameOf(page), token, count);
        const { samples, server } = run;
        row(`live update latency, ${count} clients (ms)`, `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 95))}`, '-', 'p50 / p95', count === 50 ? 'p95 <= 50 ms on loopback' : 'figure', count === 50 ? percentile(samples, 95) <= 50 : null);
        row(`  ${count} clients: p99 / max (ms)`, `${ms(percentile(samples, 99))} / ${ms(samples.reduce((a, b) => Math.max(a, b), 0))}`, '-', '-', `${samples.length} arrivals of ${run.sent} sends`);
        row(`  ${count} clients: server loop delay (ms)`, `${ms(server.loopP99)} / ${ms(server.loopMax)}`, '-', 'p99 / max', 'quire serve\'s event loop over the run');
        row(`  ${count} clients: server messages/s`, `${server.inPerSecond.toFixed(0)} / ${server.outPerSecond.toFixed(0)}`, '-', 'in / out', 'live messages received / sent');
        row(`  ${count} clients: clients' loop delay (ms)`, `${ms(run.clientLoopP99)} / ${ms(run.clientLoopMax)}`, '-', 'p99 / max', `the worst of ${Math.min(count, clientWorkers)} client workers`);
      }
      if (!parts.includes('memory') && !parts.includes('writes')) return;

      const pages = !parts.includes('memory') ? [] : await Promise.all(Array.from({ length: documents }, (_, i) => newPage(`Memory ${i}`, 20)));
      if (pages.length) {
        const before = await metric(base, 'quire_process_resident_memory_bytes');
        const open = await Promise.all(pages.map((page) => connect(url, nameOf(page), token)));
        await new Promise((resolve) => setTimeout(resolve, 2000));
        const after = await metric(base, 'quire_process_resident_memory_bytes');
        row('server memory per open document (KB)', ((after - before) / documents / 1024).toFixed(1), '-', '-', `${documents} documents of 20 blocks, resident memory`);
        open.forEach(close);
      }
      if (!parts.includes('writes')) return;

      const large = await newPage('Large', 1000);
      const editor = await connect(url, nameOf(large), token);
      const [sumBefore, countBefore] = [await metric(base, 'quire_live_revision_write_seconds_sum'), await metric(base, 'quire_live_revision_write_seconds_count')];
      for (let i = 0; i < writes; i++) {
        const text = (editor.doc.getXmlFragment('default').get(500) as Y.XmlElement).get(0) as Y.XmlText;
        const revision = (await api(client, 'GET', `/v1/spaces/${space}/change-requests/${cr}`)).revision as string;
        text.insert(0, `Edit ${i}. `);
        // Until the idle write has moved the change request's head (the other documents are quiet by now).
        const end = Date.now() + 120_000;
        while ((await api(client, 'GET', `/v1/spaces/${space}/change-requests/${cr}`)).revision === revision && Date.now() < end) await new Promise((resolve) => setTimeout(resolve, 200));
      }
      const [sumAfter, countAfter] = [await metric(base, 'quire_live_revision_write_seconds_sum'), await metric(base, 'quire_live_revision_write_seconds_count')];
      const each = countAfter > countBefore ? ((sumAfter - sumBefore) / (countAfter - countBefore)) * 1000 : NaN;
      row('revision write, 1,000-block page (ms)', ms(each), '-', '-', `mean of ${countAfter - countBefore} idle writes`);
      close(editor);
    } finally {
      await stop(quire);
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log('(figures of this machine as it was; a loaded machine gives none worth keeping)');
}
