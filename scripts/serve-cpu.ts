/**
 * Server CPU per request of `quire serve` in a process of its own (issue 29): the CPU time the kernel
 * charged the serving process (utime + stime from /proc/PID/stat, every thread of it, socket writes
 * included) while autocannon, in this process, sends a fixed number of requests over loopback. The bench's
 * bare Fastify hello-world (bench/hello-server.mjs) is measured the same way as the baseline. Unlike
 * throughput, CPU per request moves little with the machine's load, so trees can be compared on a busy
 * machine: give several trees and they are run alternately on the same data. Each read's ceiling too: Quire's
 * answer captured once and served again by a bare Fastify (bench/bytes.ts), measured the same way.
 *
 *   npx tsx scripts/serve-cpu.ts [--requests N] [--rounds R] [tree …]   (default: this tree; Linux only)
 *
 * Data: `quire init` and a 1,000-page space (the bench's own seeding), in a temporary folder.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import autocannon from 'autocannon';
import { createSpace, median, start, stop } from '../bench/lib.ts';
import { captureAnswer, startBytesServer } from '../bench/bytes.ts';
import { fillSpace, withContext } from '../bench/seed.ts';

const args = process.argv.slice(2);
function option(name: string, fallback: number): number {
  const at = args.indexOf(name);
  if (at < 0) return fallback;
  const [, value] = args.splice(at, 2);
  return Number(value);
}
const requests = option('--requests', 5000);
const rounds = option('--rounds', 3);
/** A loaded machine can take minutes to start a server. */
const STARTUP_MS = 600_000;
const here = join(import.meta.dirname, '..');
const trees = args.length > 0 ? args.map((tree) => resolve(tree)) : [here];
/** Clock ticks per second of /proc's CPU times (USER_HZ, 100 on Linux). */
const TICKS = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout.trim() || 100);

function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of stat (utime, stime) are the 12th and 13th after the command's closing parenthesis.
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / TICKS;
}

async function perRequest(pid: number, url: string, headers: Record<string, string>): Promise<number> {
  await autocannon({ url, headers, connections: 10, amount: 500 });
  const before = cpuMicros(pid);
  const result = await autocannon({ url, headers, connections: 10, amount: requests });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return (cpuMicros(pid) - before) / requests;
}

const dataDir = mkdtempSync(join(tmpdir(), 'quire-serve-cpu-'));
const port = 32000 + Math.floor(Math.random() * 1000);
const env = { QUIRE_DATA_DIR: dataDir, PORT: String(port), QUIRE_LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0' };
const base = `http://127.0.0.1:${port}`;
try {
  const init = spawnSync(join(trees[0], 'bin', 'quire'), ['init', '--org', 'Bench', '--email', 'bench@example.com', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`quire init failed: ${init.stderr}`);
  const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: string };
  const auth = { authorization: `Bearer ${token}` };
  let quire = await start(join(trees[0], 'bin', 'quire'), ['serve'], env, `${base}/readyz`, STARTUP_MS);
  const space = await createSpace({ base, token }, organization, 'docs');
  await stop(quire);
  const pageId = await withContext(dataDir, (ctx) => fillSpace(ctx, space, 1000));
  const kinds: Array<[string, string, Record<string, string>]> = [
    ['GET /v1/orgs/{id}', `/v1/orgs/${organization}`, auth],
    ['GET content/page (markdown)', `/v1/spaces/${space}/content/page/${pageId}?format=markdown`, auth],
    ['GET content/pages', `/v1/spaces/${space}/content/pages`, auth],
  ];
  const figures = new Map<string, number[]>();
  const note = (key: string, value: number) => figures.set(key, [...(figures.get(key) ?? []), value]);
  const hello = await start(process.execPath, [join(here, 'bench', 'hello-server.mjs'), String(port + 1)], {}, `http://127.0.0.1:${port + 1}/`, STARTUP_MS);
  // Each read's ceiling: Quire's answer served again, the same bytes and headers, by a bare Fastify.
  quire = await start(join(trees[0], 'bin', 'quire'), ['serve'], env, `${base}/readyz`, STARTUP_MS);
  const answers = [];
  for (const [, path, headers] of kinds) answers.push(await captureAnswer(`${base}${path}`, headers));
  await stop(quire);
  const bytes = await startBytesServer(port + 2, answers, dataDir);
  for (let round = 0; round < rounds; round++) {
    note('hello-world (bare Fastify)', await perRequest(hello.pid!, `http://127.0.0.1:${port + 1}/`, {}));
    for (const [name, path, headers] of kinds) {
      note(`${name} — the same bytes from a bare Fastify`, await perRequest(bytes.server.pid!, `${bytes.base}${path}`, headers));
    }
    for (const tree of trees) {
      quire = await start(join(tree, 'bin', 'quire'), ['serve'], env, `${base}/readyz`, STARTUP_MS);
      for (const [name, path, headers] of kinds) {
        const micros = await perRequest(quire.pid!, `${base}${path}`, headers);
        note(`${name} — ${tree}`, micros);
        // As it goes too: on a loaded machine a run may be cut short.
        console.error(`round ${round + 1}: ${name} — ${tree}: ${micros.toFixed(0)} µs`);
      }
      await stop(quire);
    }
  }
  await stop(hello);
  await stop(bytes.server);
  console.log(`server CPU µs per request (${requests} requests a kind, ${rounds} alternating rounds; runs, median)`);
  for (const [key, values] of figures) console.log(`${key}: ${values.map((v) => v.toFixed(0)).join(', ')} (median ${median(values).toFixed(0)})`);
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
