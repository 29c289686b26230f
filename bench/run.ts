/**
 * `npm run bench`: each benchmark runs beside its baseline in the same run, on the same machine, and
 * prints the figures and the ratio. Targets are printed, never asserted.
 *
 * The targets:
 *
 *   GET /v1/orgs/{id}                    authenticated, against a bare Fastify hello-world   target >= 0.7
 *   GET content/page/{id} (markdown)     on a 1,000-page space, against the hello-world       target >= 0.5
 *   GET content/pages                    a 1,000-page tree, against the hello-world           target >= 0.2
 *   GET search, 10,000 pages (p50, p95)  4 kinds of query, against GET /v1/spaces/{id}         (figure)  bench/search.ts
 *   POST content/import, 1,000-page zip  against unpacking the same zip                       target <= 4x  bench/import.ts
 *   POST duplicate, 10,000 pages         against duplicating a 10-page space                  target <= 3x
 *   POST change-requests, 10,000 pages   against the same in a 10-page space                  (figure)  bench/change-requests.ts
 *   POST …/merge (one page edited)       10,000 pages against 10 pages, in 5 runs              target <= 1.5x in every run
 *   GET published page, warm cache       a 100-page public site, against the same HTML bytes   target >= 0.8  bench/published.ts
 *                                        served by a bare Fastify
 *   GET links, first analysis            a 10,000-page space with 3 links a page, fresh server target <= 0.5 s  bench/links.ts
 *
 * `npm run bench -- live` measures live co-editing: update latency with 2, 10 and 50 clients, memory per open
 * document, the periodic revision write on a 1,000-block page (bench/live.ts).
 * `npm run bench -- workspace` prints the workspace's first-load JavaScript, gzipped, from its build (bench/workspace.ts).
 * `npm run bench -- workers` measures the worker pool's inline threshold (bench/workers.ts).
 * `npm run bench -- jobs` compares the job queue with graphile-worker 0.17 on PostgreSQL (bench/jobs.ts);
 * `npm run bench -- reads` runs only the three reads above, each beside hello-world and beside its ceiling: Quire's
 * answer (status, headers, body) captured once and served again by a bare Fastify (bench/bytes.ts), the three
 * alternating in every round; the default run prints these ceiling rows too.
 * `npm run bench -- published` runs only the published reader's benchmark; `npm run bench -- links` only
 * the link analysis; `npm run bench -- import` only the zip import (bench/import.ts); `npm run bench -- git` only Git Sync's (bench/git.ts: import, re-import and export
 * against git clone and a 50-page repository); `npm run bench -- organization` only the 100,000-page
 * organization (search p95 and memory, bench/organization.ts), which is not in the default run (seeding it
 * takes minutes).
 *
 * Throughput: baseline and Quire alternate over BENCH_ROUNDS rounds (default 3) and the medians are
 * compared, so a moment of noise weighs on both sides. BENCH_SECONDS (default 5 per round) and
 * BENCH_CONNECTIONS (default 10) tune the load. Search: BENCH_SEARCH_REQUESTS sequential requests per kind
 * of query (default 200). Import: median of BENCH_IMPORT_RUNS runs (default 3), each after the jobs due have run
 * (BENCH_PROFILE_DIR: the server under `node --cpu-prof`, its profiles there),
 * against the median of 5 unpacks a run. SQLite, in a fresh data folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { bodyLimitFor, buildImportZip, importZip } from './import.ts';
import { changeRequestTimes } from './change-requests.ts';
import { api, createSpace, header, median, row, start, stop, type Api } from './lib.ts';
import { captureAnswer, startBytesServer } from './bytes.ts';
import { publishedThroughput, publishSite } from './published.ts';
import { searchLatency, seedSearchSpace } from './search.ts';
import { fillSpace, jobsSettled, withContext } from './seed.ts';
import { organizationBench } from './organization.ts';
import { indexSpace } from '../src/search/indexer.ts';
import { linkAnalysisTimes, seedLinkSpace } from './links.ts';

const root = join(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);
const searchRequests = Number(process.env.BENCH_SEARCH_REQUESTS ?? 200);
const importRuns = Number(process.env.BENCH_IMPORT_RUNS ?? 3);
const linkPages = Number(process.env.BENCH_LINK_PAGES ?? 10_000);
const linkRuns = Number(process.env.BENCH_LINK_RUNS ?? 3);
/** `npm run bench -- published` runs only that benchmark (and seeds only what it needs). */
const only = process.argv[2] ?? null;

async function load(url: string, headers: Record<string, string> = {}, warm = false): Promise<number> {
  if (warm) await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

/**
 * The three reads of issue 29, each beside hello-world and beside its ceiling: the same bytes with the same
 * headers from a bare Fastify (bench/bytes.ts), the three alternating in every round. The rows are
 * Quire against hello-world, as always; the row under each says how much of the gap is the answer's size.
 */
async function readRows(base: string, auth: Record<string, string>, organization: string, spaceId: string, pageId: string, helloUrl: string, bytesPort: number, dataDir: string): Promise<void> {
  const reads = [
    { name: 'GET /v1/orgs/{id} (req/s)', url: `${base}/v1/orgs/${organization}`, target: 0.7 },
    { name: 'GET content/page, 1,000 pages (req/s)', url: `${base}/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`, target: 0.5 },
    { name: 'GET content/pages, 1,000 (req/s)', url: `${base}/v1/spaces/${spaceId}/content/pages`, target: 0.2 },
  ];
  const answers = await Promise.all(reads.map((read) => captureAnswer(read.url, auth)));
  const bytes = await startBytesServer(bytesPort, answers, dataDir);
  try {
    for (const [i, read] of reads.entries()) {
      const query = new URL(read.url).search;
      const figures = await throughputs([
        [helloUrl, {}],
        // The same request as Quire's (the token is sent, and ignored), so only the answer differs.
        [`${bytes.base}${answers[i].path}${query}`, auth],
        [read.url, auth],
      ]);
      const [hello, bare, quire] = figures;
      row(read.name, quire.toFixed(0), hello.toFixed(0), quire / hello, `>= ${read.target.toFixed(2)} of hello-world`, quire / hello >= read.target);
      row(`  same ${kilobytes(answers[i].body.length)} from a bare Fastify`, bare.toFixed(0), hello.toFixed(0), bare / hello, `ceiling of the row above (Quire: ${(quire / bare).toFixed(2)} of it)`);
    }
  } finally {
    await stop(bytes.server);
  }
}

function kilobytes(size: number): string {
  return size < 1024 ? `${size} bytes` : `${Math.round(size / 1024)} KB`;
}

/** Requests/s of each of `targets` (url, request headers), alternating within every round; the medians. */
async function throughputs(targets: Array<[string, Record<string, string>]>): Promise<number[]> {
  const runs: number[][] = targets.map(() => []);
  for (let round = 0; round < rounds; round++) {
    for (const [i, [url, headers]] of targets.entries()) runs[i].push(await load(url, headers, round === 0));
  }
  return runs.map(median);
}

/** Requests/s of `url` and of the baseline, alternating rounds; the medians. */
async function throughput(url: string, headers: Record<string, string>, baselineUrl: string): Promise<{ measured: number; baseline: number }> {
  const baselines: number[] = [];
  const measures: number[] = [];
  for (let round = 0; round < rounds; round++) {
    baselines.push(await load(baselineUrl, {}, round === 0));
    measures.push(await load(url, headers, round === 0));
  }
  return { measured: median(measures), baseline: median(baselines) };
}

/** Median milliseconds of `count` sequential duplicates of each space, alternating between the two. */
async function duplicateTimes(client: Api, small: string, large: string, count: number) {
  const times = { small: [] as number[], large: [] as number[] };
  for (let i = 0; i < count; i++) {
    for (const [name, id] of [['small', small], ['large', large]] as const) {
      const started = performance.now();
      const copy = await api(client, 'POST', `/v1/spaces/${id}/duplicate`);
      times[name].push(performance.now() - started);
      await api(client, 'DELETE', `/v1/spaces/${copy.id}`);
    }
  }
  return { small: median(times.small), large: median(times.large) };
}

async function main(): Promise<void> {
  if (only === 'git') return (await import('./git.ts')).gitBench();
  if (only === 'jobs') return (await import('./jobs.ts')).jobsBench();
  if (only === 'workers') return (await import('./workers.ts')).workersBench();
  if (only === 'workspace') return (await import('./workspace.ts')).workspaceBench();
  if (only === 'live') return (await import('./live.ts')).liveBench();
  const helloPort = 31000 + Math.floor(Math.random() * 1000);
  const quirePort = helloPort + 1000;
  // BENCH_DATA_DIR: a data folder kept after the run (the organization bench seeds it once and reuses it).
  const keptDir = only === 'organization' ? process.env.BENCH_DATA_DIR : undefined;
  const dataDir = keptDir ? (mkdirSync(keptDir, { recursive: true }), keptDir) : mkdtempSync(join(tmpdir(), 'quire-bench-'));
  const zip = buildImportZip();
  const env = { QUIRE_DATA_DIR: dataDir, PORT: String(quirePort), QUIRE_LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0', QUIRE_BODY_LIMIT: String(bodyLimitFor(zip)) };
  const base = `http://127.0.0.1:${quirePort}`;
  const helloUrl = `http://127.0.0.1:${helloPort}/`;
  try {
    if (only === 'organization') return await organizationBench(root, dataDir, env, base);
    const init = spawnSync(join(root, 'bin', 'quire'), ['init', '--org', 'Bench', '--email', 'bench@example.com', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`quire init failed: ${init.stderr}`);
    const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: string };
    const client: Api = { base, token };
    const auth = { authorization: `Bearer ${token}` };

    const hello = await start(process.execPath, [join(root, 'bench', 'hello-server.mjs'), String(helloPort)], {}, helloUrl);
    let quire = await start(join(root, 'bin', 'quire'), ['serve'], env, `${base}/readyz`);
    const spaces: Record<string, string> = {};
    for (const name of only === 'reads' ? ['docs'] : ['docs', 'small', 'large', 'search', 'site', 'links']) spaces[name] = await createSpace(client, organization, name);
    await stop(quire);
    if (only === 'reads') {
      const middle = await withContext(dataDir, (ctx) => fillSpace(ctx, spaces.docs, 1000));
      quire = await start(join(root, 'bin', 'quire'), ['serve'], env, `${base}/readyz`);
      header();
      await readRows(base, auth, organization, spaces.docs, middle, helloUrl, helloPort + 600, dataDir);
      await stop(hello);
      await stop(quire);
      console.log(`(${connections} connections, ${rounds} alternating rounds of ${seconds} s, medians; SQLite in ${dataDir})`);
      return;
    }
    const linkSetup = { root, dataDir, env, client, spaceId: spaces.links };
    if (only === 'links') {
      await seedLinkSpace(dataDir, spaces.links, linkPages, env);
      header();
      await linkAnalysisTimes(linkSetup, linkPages, linkRuns);
      // The baseline server is not used here, but it keeps the process alive until it is stopped.
      await stop(hello);
      return;
    }
    if (only === 'import') {
      // BENCH_PROFILE_DIR: the server runs under `node --cpu-prof` (every thread), its profiles written there when it stops.
      const profile = process.env.BENCH_PROFILE_DIR;
      quire = profile
        ? await start(process.execPath, ['--cpu-prof', '--cpu-prof-dir', profile, join(root, 'bin', 'quire'), 'serve'], env, `${base}/readyz`)
        : await start(join(root, 'bin', 'quire'), ['serve'], env, `${base}/readyz`);
      header();
      console.log(await importZip(client, organization, zip, importRuns, { settled: () => jobsSettled(dataDir), serverPid: quire.pid }));
      await stop(hello);
      await stop(quire);
      return;
    }
    const { pageId, smallPage, largePage, indexSeconds } = await withContext(dataDir, async (ctx) => {
      await fillSpace(ctx, spaces.site, 100);
      if (only === 'published') return { pageId: '', smallPage: '', largePage: '', indexSeconds: 0 };
      const middle = await fillSpace(ctx, spaces.docs, 1000);
      const smallPage = await fillSpace(ctx, spaces.small, 10);
      const largePage = await fillSpace(ctx, spaces.large, 10_000);
      // Indexed as a space in use would be: otherwise the first change merged into each schedules the
      // indexing of the whole space, which runs in the server beside the merges being timed.
      await indexSpace(ctx, spaces.small);
      await indexSpace(ctx, spaces.large);
      return { pageId: middle, smallPage, largePage, indexSeconds: await seedSearchSpace(ctx, spaces.search, 10_000) };
    });
    if (only === null) await seedLinkSpace(dataDir, spaces.links, linkPages, env);
    quire = await start(join(root, 'bin', 'quire'), ['serve'], env, `${base}/readyz`);

    header();
    // Chapter 1 holds topics 50 to 99: a page in the middle of the site.
    const publishedPage = await publishSite(client, organization, spaces.site, 'chapter-1/topic-60');
    await publishedThroughput(publishedPage, helloPort + 500, dataDir, throughput);
    if (only === 'published') {
      await stop(hello);
      await stop(quire);
      console.log(`(${connections} connections, ${rounds} alternating rounds of ${seconds} s, medians; SQLite in ${dataDir})`);
      return;
    }
    await readRows(base, auth, organization, spaces.docs, pageId, helloUrl, helloPort + 600, dataDir);
    await searchLatency(client, spaces.search, searchRequests);
    const importNote = await importZip(client, organization, zip, importRuns, { settled: () => jobsSettled(dataDir), serverPid: quire.pid });
    const duplicate = await duplicateTimes(client, spaces.small, spaces.large, 15);
    row('duplicate 10,000 vs 10 pages (ms)', duplicate.large.toFixed(1), duplicate.small.toFixed(1), duplicate.large / duplicate.small, '<= 3.00x', duplicate.large / duplicate.small <= 3);
    // The duplicates above each left a search index job of 10,000 pages: they run before the merges are timed.
    const settled = await jobsSettled(dataDir);
    const crs = await changeRequestTimes(client, { spaceId: spaces.small, pageId: smallPage }, { spaceId: spaces.large, pageId: largePage }, 5, 5);
    row('create change request, 10,000 vs 10 (ms)', crs.create.large.toFixed(1), crs.create.small.toFixed(1), crs.create.large / crs.create.small, 'ratio to 10 pages');
    const mergeRatios = crs.mergeRuns.map((run) => run.large / run.small);
    const worst = Math.max(...mergeRatios);
    row('merge one-page CR, 10,000 vs 10 (ms)', crs.merge.large.toFixed(1), crs.merge.small.toFixed(1), crs.merge.large / crs.merge.small, `<= 1.50x in each of 5 runs (runs: ${mergeRatios.map((r) => r.toFixed(2)).join(', ')})`, worst <= 1.5);

    await stop(hello);
    await stop(quire);
    await linkAnalysisTimes(linkSetup, linkPages, linkRuns);
    console.log(`(${connections} connections, ${rounds} alternating rounds of ${seconds} s, medians; duplicates: median of 15; change requests: 5 runs of 5 alternating, medians, after ${settled.toFixed(1)} s for the jobs left due to finish; SQLite in ${dataDir})`);
    console.log(`(search: ${searchRequests} sequential requests per kind, each after a baseline request; 10,000-page space indexed in ${indexSeconds.toFixed(1)} s while seeding; ${importNote})`);
  } finally {
    if (!keptDir) rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
