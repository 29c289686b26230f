/** What the benchmarks share: starting and stopping servers, calling the API, statistics, the table. */
import { spawn, type ChildProcess } from 'node:child_process';

export function start(command: string, args: string[], env: Record<string, string>, readyUrl: string, timeoutMs = 60_000): Promise<ChildProcess> {
  const child = spawn(command, args, { env: { ...process.env, ...env }, stdio: ['ignore', 'ignore', 'inherit'] });
  return new Promise((resolve, reject) => {
    const deadline = Date.now() + timeoutMs;
    const poll = async () => {
      if (await fetch(readyUrl).then((r) => r.status < 500, () => false)) return resolve(child);
      if (Date.now() > deadline || child.exitCode !== null) return reject(new Error(`${command} did not start`));
      setTimeout(poll, 200);
    };
    void poll();
  });
}

export async function stop(child: ChildProcess): Promise<void> {
  child.kill('SIGTERM');
  if (child.exitCode === null) await new Promise((resolve) => child.once('exit', resolve));
}

/** The Quire API as the bench's one user: JSON in and out, any answer but 2xx throws. */
export interface Api {
  base: string;
  token: string;
}

export async function api({ base, token }: Api, method: string, path: string, body?: unknown): Promise<any> {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return response.status === 204 || response.status === 205 ? undefined : response.json();
}

export async function createSpace(client: Api, organization: string, title: string): Promise<string> {
  return (await api(client, 'POST', `/v1/orgs/${organization}/spaces`, { title })).id;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** The nearest-rank percentile (`p` from 0 to 100) of `values`. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Milliseconds with the digits that matter. */
export function ms(value: number): string {
  return value < 10 ? value.toFixed(2) : value.toFixed(1);
}

const widths = { name: 46, measured: 14, baseline: 14, ratio: 13 };

export function header(): void {
  console.log(`${'benchmark'.padEnd(widths.name)} ${'measured'.padStart(widths.measured)} ${'baseline'.padStart(widths.baseline)} ${'ratio'.padStart(widths.ratio)}   target`);
}

/** One line of the table; `ratio` is a number, or text (e.g. "12.0 / 9.5" for p50 / p95). */
export function row(name: string, measured: string, baseline: string, ratio: number | string, target: string, met: boolean | null = null): void {
  const verdict = met === null ? '' : met ? ' (met)' : ' (NOT met)';
  const ratioText = typeof ratio === 'number' ? ratio.toFixed(2) : ratio;
  console.log(`${name.padEnd(widths.name)} ${measured.padStart(widths.measured)} ${baseline.padStart(widths.baseline)} ${ratioText.padStart(widths.ratio)}   ${target}${verdict}`);
}
