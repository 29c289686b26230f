/**
 * An organization of 100,000 pages in 10 spaces of 10,000 (the search pages of bench/search.ts), indexed:
 * GET /v1/orgs/{id}/search for a common word (on 20,000 pages), p50 and p95 of sequential requests, each
 * after a baseline request (GET /v1/spaces/{id}: the same HTTP stack, token and access check, and a plain
 * indexed read), and the server's resident memory (VmRSS, sampled while it serves those requests).
 *
 * `npm run bench -- organization` (BENCH_ORG_SPACES, default 10; BENCH_ORG_PAGES per space, default 10,000;
 * BENCH_SEARCH_REQUESTS, default 200). With BENCH_DATA_DIR the data folder is kept: the first run seeds it
 * and writes bench-organization.json, later runs with the same folder reuse its organization as it is. With
 * QUIRE_DATABASE_URL it runs on that PostgreSQL database (seeded once, then analyzed, as autovacuum would).
 */
import { spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createSpace, header, ms, percentile, row, start, stop, type Api } from './lib.ts';
import { SEARCH_QUERIES, seedSearchSpace } from './search.ts';
import { withContext } from './seed.ts';
import { sql } from 'kysely';

function rssMegabytes(child: ChildProcess): number {
  const status = readFileSync(`/proc/${child.pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

async function timed(client: Api, path: string): Promise<number> {
  const started = performance.now();
  const response = await fetch(`${client.base}${path}`, { headers: { authorization: `Bearer ${client.token}` } });
  const body = await response.text();
  if (!response.ok) throw new Error(`GET ${path}: ${response.status} ${body}`);
  return performance.now() - started;
}

export async function organizationBench(root: string, dataDir: string, env: Record<string, string>, base: string): Promise<void> {
  const spacesCount = Number(process.env.BENCH_ORG_SPACES ?? 10);
  const pagesPerSpace = Number(process.env.BENCH_ORG_PAGES ?? 10_000);
  const requests = Number(process.env.BENCH_SEARCH_REQUESTS ?? 200);
  const seededFile = join(dataDir, 'bench-organization.json');
  let seeded: { token: string; organization: string; spaces: string[]; seedSeconds: number; indexSeconds: number };
  if (existsSync(seededFile)) {
    seeded = JSON.parse(readFileSync(seededFile, 'utf8'));
  } else {
    const init = spawnSync(join(root, 'bin', 'quire'), ['init', '--org', 'Bench', '--email', 'bench@example.com', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`quire init failed: ${init.stderr}`);
    const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: string };
    const setup = await start(join(root, 'bin', 'quire'), ['serve'], env, `${base}/readyz`);
    const spaces: string[] = [];
    for (let i = 0; i < spacesCount; i++) spaces.push(await createSpace({ base, token }, organization, `Space ${i}`));
    await stop(setup);
    const seeding = performance.now();
    let indexSeconds = 0;
    await withContext(dataDir, async (ctx) => {
      for (const spaceId of spaces) indexSeconds += await seedSearchSpace(ctx, spaceId, pagesPerSpace);
      // What autovacuum (PostgreSQL's default) does on its own after such a load; a server run with it off never
      // analyzes the freshly written tables, and its planner then reads every title match (docs/performance.md).
      if (ctx.dialect === 'postgres') await sql`analyze`.execute(ctx.db);
    });
    seeded = { token, organization, spaces, seedSeconds: (performance.now() - seeding) / 1000, indexSeconds };
    writeFileSync(seededFile, JSON.stringify(seeded));
  }
  const { token, organization, spaces, seedSeconds, indexSeconds } = seeded;
  const client: Api = { base, token };
  const quire = await start(join(root, 'bin', 'quire'), ['serve'], env, `${base}/readyz`);
  try {
    header();
    const idle = rssMegabytes(quire);
    const searchPath = (query: string) => `/v1/orgs/${organization}/search?query=${encodeURIComponent(query)}`;
    const baselinePath = `/v1/spaces/${spaces[0]}`;
    const words = SEARCH_QUERIES['common word'];
    for (const word of words) await timed(client, searchPath(word)); // warm
    const searches: number[] = [];
    const baselines: number[] = [];
    let peak = idle;
    for (let i = 0; i < requests; i++) {
      baselines.push(await timed(client, baselinePath));
      searches.push(await timed(client, searchPath(words[i % words.length])));
      if (i % 10 === 0) peak = Math.max(peak, rssMegabytes(quire));
    }
    const [s50, s95, b50, b95] = [percentile(searches, 50), percentile(searches, 95), percentile(baselines, 50), percentile(baselines, 95)];
    const pages = (spacesCount * pagesPerSpace).toLocaleString('en-US');
    row(`org search, ${pages} pages: common word (ms p50/p95)`, `${ms(s50)} / ${ms(s95)}`, `${ms(b50)} / ${ms(b95)}`, `${(s50 / b50).toFixed(1)} / ${(s95 / b95).toFixed(1)}`, 'p95 <= 10 ms', s95 <= 10);
    row(`RSS serving ${pages} pages (MB, peak / idle)`, peak.toFixed(0), idle.toFixed(0), '-', '<= 400 MB', peak <= 400);
    console.log(`(${requests} sequential searches, each after a baseline GET /v1/spaces/{id}; seeded in ${seedSeconds.toFixed(0)} s, indexing ${indexSeconds.toFixed(0)} s; ${process.env.QUIRE_DATABASE_URL ? 'PostgreSQL' : 'SQLite'}, data in ${dataDir})`);
  } finally {
    await stop(quire);
  }
}
