import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';

const QUIRE = join(import.meta.dirname, '..', '..', 'bin', 'quire');

/** One `bin/quire serve` process, with the address it listens on (it picks a free port). */
export interface QuireProcess {
  child: ChildProcess;
  base: string;
  /** Resolves with the exit code once the process has ended. */
  exited: Promise<number | null>;
  /** The log lines it has written so far (pino JSON), for failure messages. */
  log: string[];
}

/** Runs a CLI command (init, backup, restore…) to its end; its exit code and output. */
export function runQuire(args: string[], env: Record<string, string>): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, [QUIRE, ...args], { env: { ...process.env, ...env }, encoding: 'utf8', timeout: 120_000 });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Starts `bin/quire serve` with `env` (PORT=0: any free port) and waits until it listens. */
export function startQuire(env: Record<string, string>): Promise<QuireProcess> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-proc-'));
  const child = spawn(process.execPath, [QUIRE, 'serve'], {
    env: { ...process.env, QUIRE_DATA_DIR: dataDir, PORT: '0', QUIRE_LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log: string[] = [];
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  createInterface({ input: child.stderr! }).on('line', (line) => log.push(line));
  return new Promise((resolve, reject) => {
    // Generous: on a loaded machine tsx compiles the sources for each new process before it can listen.
    const timer = setTimeout(() => reject(new Error(`quire serve did not start in 180 s (exit code ${child.exitCode ?? 'none yet'}):\n${log.join('\n')}`)), 180_000);
    createInterface({ input: child.stdout! }).on('line', (line) => {
      log.push(line);
      if (log.length > 2000) log.splice(0, 1000);
      const match = /Server listening at (http:\/\/127\.0\.0\.1:\d+)/.exec(line);
      if (match) {
        clearTimeout(timer);
        resolve({ child, base: match[1], exited, log });
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`quire serve exited with ${code} before listening:\n${log.join('\n')}`));
    });
  });
}

/** A small JSON client of one process, acting with a token. */
export function apiOf(base: string, token: string) {
  const call = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(base + path, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return { status: response.status, body: (text && response.headers.get('content-type')?.includes('json') ? JSON.parse(text) : text) as any, headers: response.headers };
  };
  return {
    get: (path: string) => call('GET', path),
    post: (path: string, body: unknown = {}) => call('POST', path, body),
    patch: (path: string, body: unknown = {}) => call('PATCH', path, body),
  };
}
