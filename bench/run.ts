/**
 * `npm run bench`: each benchmark runs beside its baseline in the same run, on the same machine, and
 * prints requests per second and the ratio. Targets are printed, never asserted.
 *
 *   organizations: GET /v1/orgs/{organizationId} (authenticated, SQLite) against a bare Fastify hello-world.
 *                  Target: ratio >= 0.5.
 *
 * Baseline and Quire alternate over BENCH_ROUNDS rounds (default 3) and the medians are compared, so a
 * moment of noise on the machine weighs on both sides. BENCH_SECONDS (default 5 per round) and
 * BENCH_CONNECTIONS (default 10) tune the load.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';

const root = join(import.meta.dirname, '..');
const seconds = Number(process.env.BENCH_SECONDS ?? 5);
const rounds = Number(process.env.BENCH_ROUNDS ?? 3);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

function start(command: string, args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + 60_000;
    const poll = async () => {
      if (await fetch(readyUrl).then((r) => r.status < 500, () => false)) return resolve(child);
      if (Date.now() > deadline || child.exitCode !== null) return reject(new Error(`${command} did not start`));
      setTimeout(poll, 200);
    };
    void poll();
  });
}

async function load(url: string, headers: Record<string, string> = {}, warm = false): Promise<number> {
  // A short warm-up so that both servers are measured hot.
  if (warm) await autocannon({ url, headers, connections, duration: 2 });
  const result = await autocannon({ url, headers, connections, duration: seconds });
  if (result.non2xx > 0 || result.errors > 0) throw new Error(`${url}: ${result.non2xx} non-2xx answers, ${result.errors} errors`);
  return result.requests.average;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
}

async function main(): Promise<void> {
  const helloPort = 31000 + Math.floor(Math.random() * 1000);
  const quirePort = helloPort + 1000;
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-bench-'));
  const env = { QUIRE_DATA_DIR: dataDir, PORT: String(quirePort), QUIRE_LOG_LEVEL: 'warn' };
  try {
    const init = spawnSync(join(root, 'bin', 'quire'), ['init', '--org', 'Bench', '--email', 'bench@example.com', '--json'], { env: { ...process.env, ...env }, encoding: 'utf8' });
    if (init.status !== 0) throw new Error(`quire init failed: ${init.stderr}`);
    const { token, organization } = JSON.parse(init.stdout) as { token: string; organization: string };

    const hello = await start(process.execPath, [join(root, 'bench', 'hello-server.mjs'), String(helloPort)], {}, `http://127.0.0.1:${helloPort}/`);
    const quire = await start(join(root, 'bin', 'quire'), ['serve'], env, `http://127.0.0.1:${quirePort}/readyz`);
    const helloUrl = `http://127.0.0.1:${helloPort}/`;
    const quireUrl = `http://127.0.0.1:${quirePort}/v1/orgs/${organization}`;
    const auth = { authorization: `Bearer ${token}` };
    const baselines: number[] = [];
    const measures: number[] = [];
    for (let round = 0; round < rounds; round++) {
      baselines.push(await load(helloUrl, {}, round === 0));
      measures.push(await load(quireUrl, auth, round === 0));
    }
    await stop(hello);
    await stop(quire);

    const baseline = median(baselines);
    const measured = median(measures);
    const ratio = measured / baseline;
    console.log(`benchmark              requests/s   baseline req/s   ratio   target`);
    console.log(
      `GET /v1/orgs/{id}      ${measured.toFixed(0).padStart(10)}   ${baseline.toFixed(0).padStart(14)}   ${ratio.toFixed(2).padStart(5)}   >= 0.50 ${ratio >= 0.5 ? '(met)' : '(NOT met)'}`,
    );
    console.log(`(${connections} connections, ${rounds} alternating rounds of ${seconds} s, medians; baseline: bare Fastify hello-world; SQLite in ${dataDir})`);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
}

await main();
