/**
 * Server CPU and wall time of the first link analysis (issue 29): GET /v1/spaces/{id}/links on a freshly
 * started `quire serve`, on the links bench's space (bench/links.ts: 10,000 pages, three links a page,
 * indexed). The CPU is what the kernel charged the serving process (utime + stime of every thread, from
 * /proc/PID/stat) between sending the request and reading the answer, so trees can be compared on a loaded
 * machine. Give several trees to run them alternately (A/B/A/B); each tree seeds its own copy of the space
 * with its own code, so what a tree stores when pages are written is there, as in a space in use.
 *
 * `--seed-once` seeds one space with the first tree and serves it with every tree (each on a copy of the data
 * folder): for trees that store the same facts when pages are written, it saves a seeding per tree, which
 * on a loaded machine takes minutes (and can exceed the search indexer's time limit).
 *
 * `--data DIR` seeds nothing: every tree serves a copy of DIR, a data folder seeded before that holds
 * `links-cpu.json` ({ "spaceId", "token", "port" }; written in each folder seeded here, kept with `--keep`), served
 * on the port it was seeded with (so that the public URL, and with it the kept link analysis, is the same).
 *
 *   npx tsx scripts/links-cpu.ts [--pages N] [--rounds R] [--profile DIR] [--seed-once] [--data DIR] [--keep] [tree …]   (Linux only)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { api, createSpace, median, start, stop } from '../bench/lib.ts';

const args = process.argv.slice(2);
function option(name: string, fallback: string): string {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return value;
}
const pages = Number(option('--pages', '10000'));
const rounds = Number(option('--rounds', '3'));
const profile = option('--profile', '');
const data = option('--data', '');
const keepAt = args.indexOf('--keep');
const keep = keepAt >= 0;
if (keep) args.splice(keepAt, 1);
const seedOnceAt = args.indexOf('--seed-once');
const seedOnce = seedOnceAt >= 0;
if (seedOnce) args.splice(seedOnceAt, 1);
const STARTUP_MS = 600_000;
const here = join(import.meta.dirname, '..');
const trees = args.length > 0 ? args.map((tree) => resolve(tree)) : [here];
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS;
}

interface Seeded {
  dataDir: string;
  env: Record<string, string>;
  token: string;
  spaceId: string;
}

/** `quire init`, a space, and the links bench's pages written by the tree's own seeding (a child process). */
async function seed(tree: string, port: number): Promise<Seeded> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-links-cpu-'));
  const env = { QUIRE_DATA_DIR: dataDir, PORT: String(port), QUIRE_LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0' };
  const init = spawnSync(join(tree, 'bin', 'quire'), ['init', '--org', 'Bench', '--email', 'bench@example.com', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`quire init failed: ${init.stderr}`);
  const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: string };
  const base = `http://127.0.0.1:${port}`;
  const quire = await start(join(tree, 'bin', 'quire'), ['serve'], env, `${base}/readyz`, STARTUP_MS);
  const spaceId = await createSpace({ base, token }, organization, 'links');
  await stop(quire);
  // The tree's own seeding, in a process of its own (worker threads inherit no --eval).
  const script = join(dataDir, 'seed.mts');
  writeFileSync(script, `import { seedLinkSpace } from ${JSON.stringify(join(tree, 'bench', 'links.ts'))};\nawait seedLinkSpace(${JSON.stringify(dataDir)}, ${JSON.stringify(spaceId)}, ${pages});\n`);
  const seeded = spawnSync(process.execPath, ['--import', 'tsx', script], { cwd: tree, env: { ...process.env, ...env }, encoding: 'utf8' });
  if (seeded.status !== 0) throw new Error(`seeding in ${tree} failed: ${seeded.stderr}`);
  writeFileSync(join(dataDir, 'links-cpu.json'), JSON.stringify({ spaceId, token, port }));
  return { dataDir, env, token, spaceId };
}

// A data folder seeded before is served on the port it was seeded with: the public URL (which defaults from the
// port) is part of what the link analysis kept by the index job is for, and another one would not read it.
const seededPort = data ? (JSON.parse(readFileSync(join(resolve(data), 'links-cpu.json'), 'utf8')) as { port?: number }).port : undefined;
const port = seededPort ?? 33000 + Math.floor(Math.random() * 1000);
const seeded = new Map<string, Seeded>();
try {
  for (const tree of trees) {
    if (data) {
      const dataDir = mkdtempSync(join(tmpdir(), 'quire-links-cpu-'));
      cpSync(resolve(data), dataDir, { recursive: true });
      const { spaceId, token } = JSON.parse(readFileSync(join(dataDir, 'links-cpu.json'), 'utf8')) as { spaceId: string; token: string };
      seeded.set(tree, { dataDir, token, spaceId, env: { QUIRE_DATA_DIR: dataDir, PORT: String(port), QUIRE_LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0' } });
      console.error(`${tree} serves a copy of ${data}`);
      continue;
    }
    const first = seeded.get(trees[0]);
    if (seedOnce && first) {
      const dataDir = mkdtempSync(join(tmpdir(), 'quire-links-cpu-'));
      cpSync(first.dataDir, dataDir, { recursive: true });
      seeded.set(tree, { ...first, dataDir, env: { ...first.env, QUIRE_DATA_DIR: dataDir } });
      console.error(`${tree} serves a copy of the space seeded with ${trees[0]}`);
      continue;
    }
    const started = performance.now();
    seeded.set(tree, await seed(tree, port));
    console.error(`seeded ${pages} pages with ${tree} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  }
  const figures = new Map<string, { cpu: number[]; wall: number[] }>();
  for (let round = 0; round < rounds; round++) {
    for (const tree of trees) {
      const { env, token, spaceId } = seeded.get(tree)!;
      const base = `http://127.0.0.1:${port}`;
      const profiling = profile ? ['--cpu-prof', `--cpu-prof-dir=${profile}`] : [];
      const quire = await start(process.execPath, [...profiling, join(tree, 'bin', 'quire'), 'serve'], env, `${base}/readyz`, STARTUP_MS);
      // Let the start settle (jobs, timers) before the measure.
      await new Promise((resolve) => setTimeout(resolve, 1000));
      const before = cpuMs(quire.pid!);
      const at = performance.now();
      const answer = await api({ base, token }, 'GET', `/v1/spaces/${spaceId}/links?limit=1`);
      const wall = performance.now() - at;
      const cpu = cpuMs(quire.pid!) - before;
      await stop(quire);
      const entry = figures.get(tree) ?? { cpu: [], wall: [] };
      entry.cpu.push(cpu);
      entry.wall.push(wall);
      figures.set(tree, entry);
      console.error(`round ${round + 1}: ${tree}: CPU ${cpu.toFixed(0)} ms, wall ${wall.toFixed(0)} ms, ${answer.count} links`);
    }
  }
  console.log(`first link analysis, ${pages} pages: server CPU and wall ms (${rounds} alternating rounds; runs, median)`);
  for (const [tree, { cpu, wall }] of figures) {
    console.log(`${tree}: CPU ${cpu.map((v) => v.toFixed(0)).join(', ')} (median ${median(cpu).toFixed(0)}); wall ${wall.map((v) => v.toFixed(0)).join(', ')} (median ${median(wall).toFixed(0)})`);
  }
} finally {
  for (const { dataDir } of seeded.values()) {
    if (keep) console.error(`kept ${dataDir}`);
    else rmSync(dataDir, { recursive: true, force: true });
  }
}
