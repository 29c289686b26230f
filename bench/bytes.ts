/**
 * The ceiling of each read (issue 29): Quire's answer to a request, captured once (status, response headers,
 * body), served again by a bare Fastify (bench/bytes-server.mjs) on the same path. The same bytes with the
 * same headers over the same sockets: what the answer's size costs Node and Fastify, without anything of
 * Quire's. Quire's figure against this one is what Quire's own work costs; this one against hello-world is
 * what the answer's size costs.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ChildProcess } from 'node:child_process';
import { start } from './lib.ts';

/** What Node or Fastify writes on any answer of any server, so the bare server makes its own. */
export const PER_CONNECTION = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

export interface CapturedAnswer {
  /** The path (without the query) the bare server answers on. */
  path: string;
  status: number;
  headers: Record<string, string>;
  body: Buffer;
}

/** Quire's answer to `GET url` with `headers`, as sent (no compression is asked for, as autocannon asks for none). */
export async function captureAnswer(url: string, headers: Record<string, string>): Promise<CapturedAnswer> {
  const response = await fetch(url, { headers: { ...headers, 'accept-encoding': 'identity' } });
  if (response.status !== 200) throw new Error(`${url}: ${response.status} ${await response.text()}`);
  const kept: Record<string, string> = {};
  response.headers.forEach((value, name) => {
    if (!PER_CONNECTION.has(name)) kept[name] = value;
  });
  return { path: new URL(url).pathname, status: response.status, headers: kept, body: Buffer.from(await response.arrayBuffer()) };
}

/** Starts the bare server with these answers on `port` (the files go to `dir`); each answers at `base + path`. */
export async function startBytesServer(port: number, answers: CapturedAnswer[], dir: string): Promise<{ server: ChildProcess; base: string }> {
  const manifest = answers.map((answer, i) => {
    const file = join(dir, `ceiling-${i}.bin`);
    writeFileSync(file, answer.body);
    return { path: answer.path, status: answer.status, headers: answer.headers, file };
  });
  const manifestFile = join(dir, 'ceiling-answers.json');
  writeFileSync(manifestFile, JSON.stringify(manifest));
  const base = `http://127.0.0.1:${port}`;
  const server = await start(process.execPath, [join(import.meta.dirname, 'bytes-server.mjs'), String(port), manifestFile], {}, `${base}${answers[0].path}`);
  // The bare server must answer exactly what Quire answered.
  for (const answer of answers) {
    const again = await captureAnswer(`${base}${answer.path}`, {});
    if (!again.body.equals(answer.body) || JSON.stringify(again.headers) !== JSON.stringify(answer.headers)) {
      throw new Error(`the bare server's answer on ${answer.path} differs from Quire's`);
    }
  }
  return { server, base };
}
