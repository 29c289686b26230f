import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';
import { api, header, ms, percentile, row, start, stop, type Api } from './lib.ts';

/**
 * `npm run bench -- live`: live co-editing (src/live/) on one `quire serve` (SQLite, loopback).
 *
 * - 2, 10 and 50 clients (Hocuspocus providers on Yjs documents, in this process) on one document for
 *   BENCH_LIVE_SECONDS (default 60) each, every client typing a character every BENCH_LIVE_TYPE_MS (default
 *   200): the update latency from a sender's update to its arrival at every other client, p50 and p95
 *   (goal p95 <= 50 ms with 50 clients).
 * - Memory per open document: the server's resident memory before and after opening BENCH_LIVE_DOCUMENTS
 *   (default 20) documents with one client each, divided by their number.
 * - The periodic revision write on a 1,000-block page: the server's own histogram
 *   (quire_live_revision_write_seconds on /metrics) over BENCH_LIVE_WRITES (default 5) idle writes.
 *
 * Figures only, never asserted: on a loaded machine they mean nothing.
 */
const seconds = Number(process.env.BENCH_LIVE_SECONDS ?? 60);
const typeEvery = Number(process.env.BENCH_LIVE_TYPE_MS ?? 200);
const documents = Number(process.env.BENCH_LIVE_DOCUMENTS ?? 20);
const writes = Number(process.env.BENCH_LIVE_WRITES ?? 5);
const root = join(import.meta.dirname, '..');
const METRICS_TOKEN = 'bench-metrics';

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });
const now = () => performance.timeOrigin + performance.now();

interface Client {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
}

function connect(url: string, name: string, token: string): Promise<Client> {
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
  return new Promise((resolve) => {
    const provider = new HocuspocusProvider({ websocketProvider: socket, name, document: doc, token, onSynced: () => resolve({ doc, provider, socket }) });
    provider.attach();
  });
}

function close(client: Client): void {
  client.provider.destroy();
  client.socket.destroy();
}

async function metric(base: string, name: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const line = text.split('\n').find((l) => l.startsWith(`${name} `) || l.startsWith(`${name}{`));
  return line ? Number(line.split(' ').pop()) : NaN;
}

/** Latency of `count` clients typing into one document for `seconds`. */
async function latency(url: string, name: string, token: string, count: number): Promise<number[]> {
  const clients = await Promise.all(Array.from({ length: count }, () => connect(url, name, token)));
  const samples: number[] = [];
  clients.forEach((client, index) => {
    // Each send stamps its time under the sender's key; every other client measures when it sees it.
    client.doc.getMap<number>('bench').observe((event) => {
      if (event.transaction.local) return;
      const arrived = now();
      for (const key of event.keysChanged) if (key !== String(index)) samples.push(arrived - client.doc.getMap<number>('bench').get(key)!);
    });
  });
  const timers = clients.map((client, index) =>
    setInterval(
      () =>
        client.doc.transact(() => {
          const text = (client.doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText;
          text.insert(text.length, String(index % 10));
          client.doc.getMap<number>('bench').set(String(index), now());
        }),
      typeEvery,
    ),
  );
  await new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  timers.forEach(clearInterval);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  clients.forEach(close);
  return samples;
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
    const quire = await start(join(root, 'bin', 'quire'), ['serve'], env, `${base}/readyz`);
    try {
      const space = (await api(client, 'POST', `/v1/orgs/${organization}/spaces`, { title: 'Live' })).id as string;
      const cr = (await api(client, 'POST', `/v1/spaces/${space}/change-requests`, { subject: 'Live bench' })).id as string;
      const newPage = async (title: string, blocks: number) =>
        (await api(client, 'POST', `/v1/spaces/${space}/change-requests/${cr}/content/pages`, { title, document: { object: 'document', data: {}, nodes: Array.from({ length: blocks }, (_, i) => paragraph(`Paragraph ${i + 1} of ${title}.`)) } })).id as string;
      const nameOf = (page: string) => `${organization}/${space}/${cr}/${page}`;

      header();
      for (const count of [2, 10, 50]) {
        const page = await newPage(`Latency ${count}`, 3);
        const samples = await latency(url, nameOf(page), token, count);
        row(`live update latency, ${count} clients (ms)`, `${ms(percentile(samples, 50))} / ${ms(percentile(samples, 95))}`, '-', 'p50 / p95', count === 50 ? 'p95 <= 50 ms on loopback' : 'figure', count === 50 ? percentile(samples, 95) <= 50 : null);
      }

      const pages = await Promise.all(Array.from({ length: documents }, (_, i) => newPage(`Memory ${i}`, 20)));
      const before = await metric(base, 'quire_process_resident_memory_bytes');
      const open = await Promise.all(pages.map((page) => connect(url, nameOf(page), token)));
      await new Promise((resolve) => setTimeout(resolve, 2000));
      const after = await metric(base, 'quire_process_resident_memory_bytes');
      row('server memory per open document (KB)', ((after - before) / documents / 1024).toFixed(1), '-', '-', `${documents} documents of 20 blocks, resident memory`);
      open.forEach(close);

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
