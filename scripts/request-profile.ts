/**
 * What each benched request does, counted in process (issue 29's "profile first"): a Quire app on a fresh
 * SQLite file with the bench's data (a 1,000-page space, a 100-page public site), driven through
 * `app.inject`, N requests of each kind. Per request it prints:
 *
 *  - the database statements run, by kind (`select organizations`, `update api_tokens`, …), counted on
 *    better-sqlite3's statements themselves, so every query is seen whatever built it;
 *  - the hooks the route runs, by phase (read from the route's Fastify context: every one of them runs);
 *  - CPU microseconds per request (process.cpuUsage around the loop; the injecting client included);
 *  - the top functions by self time in a CPU profile of the loop (node:inspector), as shares of the samples.
 *
 * Proportions and counts are what this is for: on a loaded machine the microseconds move with the load, the
 * counts do not. A bare Fastify hello-world and the same page bytes served bare are profiled alike.
 *
 *   npx tsx scripts/request-profile.ts [requests per kind, default 2000] [kind …]
 *   (kinds: hello, static, org, page, pages, published, published-304, and org-bytes, page-bytes, pages-bytes:
 *   Quire's answer of org, page, pages served again, the same status, headers and bytes, by a bare Fastify)
 *
 * Each kind's CPU is also shared out by part (Node's HTTP and sockets, Fastify, pino, Quire's files, the
 * garbage collector, …) as its profile's busy samples are: set beside the same bytes from a bare Fastify,
 * what is left is Quire's.
 *
 * And each kind's main thread by step (the token, the memo lookups, the content views, the kept answer, routing,
 * validation, each hook, the socket write, …): wall µs per request from the samples, each step without the steps
 * it calls (issue 29, decision 0155).
 *
 * QUIRE_PROFILE_DIR=dir writes each kind's CPU profile there (`<kind>.cpuprofile`).
 *
 * With `--http`, every app listens on a loopback port and autocannon (a child process, 10 connections)
 * sends the requests over real sockets: the CPU printed is then this process's alone, i.e. the server's,
 * socket writes included, which `app.inject` does not have.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { Session } from 'node:inspector/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import SQLite from 'better-sqlite3';
import Fastify, { type FastifyInstance, type LightMyRequestResponse } from 'fastify';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createContext } from '../src/context.ts';
import { migrateToLatest, openDatabase } from '../src/db/database.ts';
import { createOrganization } from '../src/modules/orgs/service.ts';
import { issueApiToken } from '../src/modules/users/service.ts';
import { FolderBlobStore } from '../src/storage/blobs.ts';
import { fillSpace } from '../bench/seed.ts';
import { warmPageStats } from '../src/published/warm-pages.ts';
import { PER_CONNECTION } from '../bench/bytes.ts';

const overHttp = process.argv.includes('--http');
const positional = process.argv.slice(2).filter((a) => a !== '--http');
const requests = Number(positional[0] ?? 2000);
const wanted = new Set(positional.slice(1));

/** Statements run, by kind, counted on better-sqlite3's Statement prototype (every query goes through it). */
const statements = new Map<string, number>();
const kinds = new Map<string, string>();
function statementKind(source: string): string {
  let kind = kinds.get(source);
  if (kind !== undefined) return kind;
  const text = source.replace(/\s+/g, ' ').trim().toLowerCase();
  const verb = text.split(' ')[0];
  // Kysely quotes the tables it names; a raw subquery (e.g. in a select list) does not, so quoted names win.
  const table = /(?:\bfrom|\binto|^update) "([a-z_]+)"/.exec(text)?.[1] ?? /(?:\bfrom|\binto|^update) ([a-z_]+)/.exec(text)?.[1] ?? '';
  kind = `${verb} ${table}`.trim();
  kinds.set(source, kind);
  return kind;
}
{
  const probe = new SQLite(':memory:');
  const prototype = Object.getPrototypeOf(probe.prepare('select 1')) as Record<string, (...args: unknown[]) => unknown>;
  probe.close();
  for (const method of ['all', 'get', 'run', 'iterate'] as const) {
    const original = prototype[method];
    prototype[method] = function (this: { source: string }, ...args: unknown[]) {
      const kind = statementKind(this.source);
      statements.set(kind, (statements.get(kind) ?? 0) + 1);
      return original.apply(this, args);
    };
  }
}

/** Warm published pages answered before the kind's run (src/published/warm-pages.ts). */
let warm = 0;

const LIFECYCLE = ['onRequest', 'preParsing', 'preValidation', 'preHandler', 'preSerialization', 'onSend', 'onResponse'] as const;
type HookCounts = Record<(typeof LIFECYCLE)[number], number>;
const hooksSeen = new Map<string, HookCounts>();

/** Adds a root onResponse hook that records, once per route, how many hooks each phase of the route runs. */
function countHooks(app: FastifyInstance): void {
  app.addHook('onResponse', (request, _reply, done) => {
    const route = `${request.method} ${request.routeOptions.url ?? 'unmatched'}`;
    if (!hooksSeen.has(route)) {
      const symbol = Object.getOwnPropertySymbols(request).find((s) => s.description === 'fastify.context');
      const context = (symbol ? (request as unknown as Record<symbol, Record<string, unknown[] | null>>)[symbol] : {}) ?? {};
      const counts = {} as HookCounts;
      // This counting hook itself is one of the onResponse hooks.
      for (const phase of LIFECYCLE) counts[phase] = (context[phase]?.length ?? 0) - (phase === 'onResponse' ? 1 : 0);
      hooksSeen.set(route, counts);
    }
    done();
  });
}

interface ProfileNode {
  id: number;
  hitCount?: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^file:\/\//, '').replace(/^.*\/node_modules\//, '').replace(/^.*\/wt-[^/]+\//, '').replace(/^.*\/main\//, '');
  return `${functionName || '(anonymous)'} ${file ? `${file}:${lineNumber + 1}` : ''}`.trim();
}

/** Quire's own functions (src/) by inclusive time: what each hook and step costs with all it calls. */
function topInclusive(nodes: ProfileNode[], count: number): Array<{ name: string; share: number }> {
  const byId = new Map(nodes.map((node) => [node.id, node]));
  const all = nodes.reduce((sum, node) => sum + (node.hitCount ?? 0), 0);
  const totals = new Map<string, number>();
  const walk = (node: ProfileNode, open: Set<string>): number => {
    let hits = node.hitCount ?? 0;
    const name = frameName(node);
    const counted = name.includes('src/') && !open.has(name);
    if (counted) open.add(name);
    for (const child of node.children ?? []) hits += walk(byId.get(child)!, open);
    if (counted) {
      open.delete(name);
      totals.set(name, (totals.get(name) ?? 0) + hits);
    }
    return hits;
  };
  walk(nodes[0], new Set());
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => ({ name, share: hits / all }));
}

/**
 * What each sample was doing, by where its innermost JavaScript frame lives (a native frame such as `writev`
 * counts for the JavaScript that called it): Node's HTTP and sockets, Fastify, pino, prom-client, Quire's
 * own files by folder, the garbage collector, V8 itself ("(program)"). Idle samples are left out.
 */
function partOf(url: string, functionName: string): string | null {
  if (functionName === '(garbage collector)') return 'garbage collector';
  if (functionName === '(program)') return 'V8 and native, unattributed ((program))';
  if (functionName === '(idle)') return null;
  if (url.startsWith('node:')) {
    const module = url.slice(5);
    if (/^(?:_http|internal\/http|http|internal\/streams|stream|net|internal\/stream_base|internal\/net|internal\/timers|timers|internal\/async_hooks|internal\/process\/task_queues|events|internal\/url|internal\/validators|buffer|internal\/buffer|internal\/errors|internal\/util)/.test(module)) return 'Node: HTTP, sockets, streams, timers';
    if (module.startsWith('internal/crypto') || module === 'crypto') return 'Node: crypto';
    return `Node: ${module}`;
  }
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url)?.[1];
  if (pkg) return pkg === 'fastify' ? `fastify: ${url.replace(/^.*node_modules\/fastify\//, '')}` : pkg;
  const own = /\/(src|bench|scripts)\/(.*)$/.exec(url);
  if (own) return `Quire: ${own[1]}/${own[2]}`;
  return url ? url : null;
}

/** Shares of the busy samples by part (`partOf`), a native frame counted with the JavaScript that called it. */
function byPart(profile: { nodes: ProfileNode[] }): Array<{ name: string; share: number }> {
  const parent = new Map<number, ProfileNode>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node);
  const totals = new Map<string, number>();
  let busy = 0;
  for (const node of profile.nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    let at: ProfileNode | undefined = node;
    // A native or builtin frame (no URL, not one of V8's own) is charged to its JavaScript caller.
    while (at && at.callFrame.url === '' && !at.callFrame.functionName.startsWith('(') && parent.has(at.id)) at = parent.get(at.id);
    const part = partOf(at?.callFrame.url ?? '', at?.callFrame.functionName ?? node.callFrame.functionName);
    if (part === null) continue;
    busy += hits;
    totals.set(part, (totals.get(part) ?? 0) + hits);
  }
  return [...totals.entries()].sort((a, b) => b[1] - a[1]).map(([name, hits]) => ({ name, share: hits / busy }));
}

/**
 * The steps of a request, each a test of a stack frame (its URL, its function's name). A sample is charged to
 * the innermost frame that passes one of them (a native frame, such as `writev` or `oneShotDigest`, to its
 * JavaScript caller unless named here), so a step is its own time without the steps it calls.
 */
const STEPS: Array<[string, (frame: ProfileNode['callFrame']) => boolean]> = [
  ['socket write (writev; wall time, descheduling in it included)', (f) => f.functionName === 'writev' || f.functionName === 'writevGeneric' || f.functionName === 'createWriteWrap'],
  ['this profiler\'s statement counter and hooks', (f) => f.url.includes('scripts/request-profile')],
  ['token: SHA-256 of the Bearer token', (f) => f.functionName === 'hashToken'],
  ['token hook (remembered token)', (f) => f.url.includes('src/http/auth.ts')],
  ['SQLite file version (pragma data_version, once a turn)', (f) => f.url.includes('src/db/database.ts')],
  ['memo lookups (space, collection chain, grants, revision)', (f) => f.url.includes('src/db/memo.ts') || f.url.includes('src/db/prepared.ts')],
  ['the request\'s context (onRequest)', (f) => f.url.includes('src/app.ts') || f.url.includes('src/context.ts')],
  ['control characters (preValidation)', (f) => f.url.includes('src/http/text-rules.ts')],
  ['params and query validation (Ajv)', (f) => /^validate\d*$/.test(f.functionName) || f.url.includes('fastify/lib/validation') || f.url.includes('src/http/validation.ts')],
  ['policy guard (onSend)', (f) => f.url.includes('src/http/policy-guard.ts')],
  ['metrics (onResponse)', (f) => f.url.includes('src/operations/')],
  ['request logger (Fastify\'s child logger factory)', (f) => f.url.includes('logger-factory') || f.url.includes('src/http/logging.ts') || f.url.includes('/pino')],
  ['space access and policy', (f) => f.url.includes('src/access/') || f.url.includes('src/policy/')],
  ['revision record', (f) => f.url.includes('src/content/revisions.ts')],
  ['tree from memory, LRU', (f) => f.url.includes('src/content/tree.ts') || f.url.includes('src/lru.ts')],
  ['content views (src/modules/content/service.ts)', (f) => f.url.includes('src/modules/content/service.ts')],
  ['answer key (presenters)', (f) => f.url.includes('/presenter.ts')],
  ['kept answer, ETag, headers (src/http/immutable-json.ts)', (f) => f.url.includes('src/http/immutable-json.ts')],
  ['route handlers (src/modules/…/routes.ts)', (f) => /src\/modules\/[^/]+\/routes\.ts/.test(f.url)],
  ['other Quire code', (f) => /\/src\//.test(f.url)],
  ['routing (find-my-way, the query string)', (f) => f.url.includes('find-my-way') || f.url.includes('fast-querystring')],
  ['Fastify: reply', (f) => f.url.includes('fastify/lib/reply.js')],
  ['Fastify: hooks, request, route, the rest', (f) => f.url.includes('/fastify/')],
  ['Node: HTTP, streams, events, crypto, promises', (f) => f.url.startsWith('node:')],
  ['garbage collector (main thread)', (f) => f.functionName === '(garbage collector)'],
  ['V8 and native, unattributed ((program))', (f) => f.functionName === '(program)'],
  ['microtasks and other native frames', () => true],
];

/**
 * Wall µs per request on the main thread by step (STEPS): the busy samples of each step times the sampling
 * interval, over the requests profiled. Unlike the CPU shares above it needs no CPU figure, and unlike them it
 * counts a thread descheduled inside a call (mostly the socket write) as busy in it.
 */
function bySteps(profile: { nodes: ProfileNode[]; samples?: number[]; startTime?: number; endTime?: number }, count: number): Array<{ name: string; micros: number }> {
  if (!profile.samples?.length || profile.startTime === undefined || profile.endTime === undefined) return [];
  const interval = (profile.endTime - profile.startTime) / profile.samples.length;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const hits = new Map<number, number>();
  for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  const totals = new Map<string, number>();
  for (const [id, samples] of hits) {
    if (byId.get(id)!.callFrame.functionName === '(idle)') continue;
    let step: string | undefined;
    for (let at: number | undefined = id; at !== undefined && step === undefined; at = parent.get(at)) {
      const frame = byId.get(at)!.callFrame;
      const native = frame.url === '' && !frame.functionName.startsWith('(') && frame.functionName !== 'writev' && parent.has(at);
      if (!native) step = STEPS.find(([, test]) => test(frame))?.[0];
    }
    step ??= 'microtasks and other native frames';
    totals.set(step, (totals.get(step) ?? 0) + samples);
  }
  return STEPS.map(([name]) => ({ name, micros: ((totals.get(name) ?? 0) * interval) / count })).filter((step) => step.micros > 0);
}

function topSelf(nodes: ProfileNode[], count: number): Array<{ name: string; share: number }> {
  const totals = new Map<string, number>();
  let all = 0;
  for (const node of nodes) {
    const hits = node.hitCount ?? 0;
    if (hits === 0) continue;
    all += hits;
    const name = frameName(node);
    totals.set(name, (totals.get(name) ?? 0) + hits);
  }
  return [...totals.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, hits]) => ({ name, share: hits / all }));
}

interface Kind {
  name: string;
  app: FastifyInstance;
  url: string;
  headers?: Record<string, string>;
  expect: number;
}

/** Sends `count` requests over HTTP from a child process (autocannon, 10 connections); resolves when it is done. */
function cannon(url: string, headers: Record<string, string> | undefined, count: number): Promise<void> {
  const args = [join(import.meta.dirname, '..', 'node_modules', 'autocannon', 'autocannon.js'), '-a', String(count), '-c', '10', '-j'];
  for (const [name, value] of Object.entries(headers ?? {})) args.push('-H', `${name}=${value}`);
  args.push(url);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`autocannon exited with ${code}`));
      const result = JSON.parse(out) as { non2xx: number; errors: number; '2xx': number };
      const expected304 = headers?.['if-none-match'] !== undefined;
      if (result.errors > 0 || (!expected304 && result.non2xx > 0)) return reject(new Error(`autocannon: ${result.errors} errors, ${result.non2xx} non-2xx`));
      resolve();
    });
  });
}

async function profileKind(session: Session, kind: Kind): Promise<void> {
  if (overHttp) return profileKindOverHttp(session, kind);
  const send = () => kind.app.inject({ method: 'GET', url: kind.url, headers: kind.headers });
  // Warm: compiled schemas, caches, JIT.
  for (let i = 0; i < Math.min(200, requests); i++) {
    const response: LightMyRequestResponse = await send();
    if (response.statusCode !== kind.expect) throw new Error(`${kind.name}: ${response.statusCode} ${response.body.slice(0, 300)}`);
  }
  statements.clear();
  hooksSeen.clear();
  warm = warmPageStats.hits;
  await session.post('Profiler.start');
  const cpu = process.cpuUsage();
  const started = performance.now();
  for (let i = 0; i < requests; i++) await send();
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; startTime: number; endTime: number } };
  report(kind, used, wall, profile);
}

async function profileKindOverHttp(session: Session, kind: Kind): Promise<void> {
  const address = kind.app.server.listening ? `http://127.0.0.1:${(kind.app.server.address() as { port: number }).port}` : await kind.app.listen({ host: '127.0.0.1', port: 0 });
  const url = `${address}${kind.url}`;
  await cannon(url, kind.headers, Math.min(500, requests));
  statements.clear();
  hooksSeen.clear();
  warm = warmPageStats.hits;
  // The CPU without the profiler (whose sampling thread costs by the wall-clock time, not by the request),
  // then the same requests again under the profiler for the shares.
  const cpu = process.cpuUsage();
  const started = performance.now();
  await cannon(url, kind.headers, requests);
  const wall = performance.now() - started;
  const used = process.cpuUsage(cpu);
  await session.post('Profiler.start');
  await cannon(url, kind.headers, requests);
  for (const [name, count] of statements) statements.set(name, count / 2);
  const { profile } = (await session.post('Profiler.stop')) as unknown as { profile: { nodes: ProfileNode[]; samples: number[]; startTime: number; endTime: number } };
  report(kind, used, wall, profile);
}

function report(kind: Kind, used: NodeJS.CpuUsage, wall: number, profile: { nodes: ProfileNode[]; samples?: number[]; startTime?: number; endTime?: number }): void {
  // QUIRE_PROFILE_DIR: each kind's profile is written there too (open it in Chrome's DevTools, or compare two).
  if (process.env.QUIRE_PROFILE_DIR) writeFileSync(join(process.env.QUIRE_PROFILE_DIR, `${kind.name}.cpuprofile`), JSON.stringify(profile));
  const perRequest = [...statements.entries()].sort((a, b) => b[1] - a[1]).map(([k, n]) => `${k} ${(n / requests).toFixed(2)}`);
  const total = [...statements.values()].reduce((a, b) => a + b, 0) / requests;
  console.log(`\n## ${kind.name}: GET ${kind.url.replace(/[0-9A-Za-z_-]{20,}/g, '{id}')}${overHttp ? ' (over HTTP: the server\'s CPU only)' : ''}`);
  console.log(`CPU ${(((used.user + used.system) / requests)).toFixed(1)} µs/request, wall ${((wall * 1000) / requests).toFixed(1)} µs/request (loaded machine: compare proportions, not figures)`);
  console.log(`statements per request: ${total.toFixed(2)}${perRequest.length ? ` (${perRequest.join(', ')})` : ''}`);
  const warmed = (warmPageStats.hits - warm) / (overHttp ? 2 * requests : requests);
  if (warmed > 0) console.log(`warm answers per request: ${warmed.toFixed(2)} (answered by the route's first onRequest hook: its other hooks before the handler, and the handler, do not run)`);
  for (const [route, counts] of hooksSeen) console.log(`hooks run (${route}): ${LIFECYCLE.map((phase) => `${phase} ${counts[phase]}`).join(', ')}`);
  // µs by part: the CPU a request took (without the profiler) shared out as the profile's busy samples were.
  const micros = (used.user + used.system) / requests;
  console.log('CPU µs per request by part (the busy samples\' shares of the CPU above; idle left out):');
  for (const { name, share } of byPart(profile)) if (share >= 0.005) console.log(`  ${(share * micros).toFixed(1).padStart(7)} µs  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  const steps = bySteps(profile, requests);
  if (steps.length > 0) console.log('main thread wall µs per request by step (sampled; each step without the steps it calls):');
  for (const { name, micros } of steps) if (micros >= 0.05) console.log(`  ${micros.toFixed(2).padStart(7)} µs  ${name}`);
  if (steps.length > 0) console.log(`  ${steps.reduce((sum, step) => sum + step.micros, 0).toFixed(2).padStart(7)} µs  in all`);
  console.log('top self time (share of samples):');
  for (const { name, share } of topSelf(profile.nodes, 15)) console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
  const own = topInclusive(profile.nodes, 15);
  if (own.length > 0) console.log('Quire functions by inclusive time (share of samples):');
  for (const { name, share } of own) console.log(`  ${(share * 100).toFixed(1).padStart(5)}%  ${name}`);
}

async function main(): Promise<void> {
  const dataDir = mkdtempSync(join(tmpdir(), 'quire-request-profile-'));
  const config = loadConfig({ QUIRE_DATA_DIR: dataDir, QUIRE_LOG_LEVEL: 'warn', QUIRE_RATE_LIMIT: '0', QUIRE_PUBLIC_URL: 'http://127.0.0.1' });
  const database = openDatabase(`sqlite:${join(dataDir, 'quire.db')}`);
  await migrateToLatest(database);
  // The bench's server logs at warn to stdout; here the same logger writes to nowhere.
  const quiet = { write: () => undefined };
  const app = await buildApp({ config, database, masterKey: randomBytes(32), blobs: new FolderBlobStore(join(dataDir, 'blobs')), logStream: quiet });
  countHooks(app);
  await app.ready();
  const ctx = createContext(app.services, null);
  const { organization, owner } = await createOrganization(ctx, { title: 'Bench', ownerEmail: 'bench@example.com' });
  const token = await issueApiToken(ctx, owner.id);
  const auth = { authorization: `Bearer ${token}` };
  const api = async (method: 'GET' | 'POST', url: string, payload?: unknown) => {
    const response = await app.inject({ method, url, headers: auth, payload: payload as Record<string, unknown> | undefined });
    if (response.statusCode >= 300) throw new Error(`${method} ${url}: ${response.statusCode} ${response.body}`);
    return response.json();
  };
  const docs = (await api('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'docs' })).id as string;
  const siteSpace = (await api('POST', `/v1/orgs/${organization.id}/spaces`, { title: 'site' })).id as string;
  const pageId = await fillSpace(ctx, docs, 1000);
  await fillSpace(ctx, siteSpace, 100);
  const site = await api('POST', `/v1/orgs/${organization.id}/sites`, { title: 'Bench Docs', visibility: 'public', spaces: [siteSpace] });
  await api('POST', `/v1/orgs/${organization.id}/sites/${site.id}/publish`);
  const published = new URL((await api('GET', `/v1/orgs/${organization.id}/sites/${site.id}`)).urls.published as string);
  const pageUrl = `${published.pathname}/chapter-1/topic-60`;
  const pageBody = (await app.inject({ method: 'GET', url: pageUrl })).rawPayload;

  const hello = Fastify({ logger: false });
  hello.get('/', async () => ({ hello: 'world' }));
  const bare = Fastify({ logger: false });
  bare.get('/', async (_request, reply) => reply.type('text/html; charset=utf-8').send(pageBody));
  countHooks(hello);
  countHooks(bare);
  await Promise.all([hello.ready(), bare.ready()]);

  // Each read's ceiling: Quire's answer (status, headers, body) served again by a bare Fastify on the same path.
  const reads = { org: `/v1/orgs/${organization.id}`, page: `/v1/spaces/${docs}/content/page/${pageId}?format=markdown`, pages: `/v1/spaces/${docs}/content/pages` };
  const ceiling = Fastify({ logger: false });
  for (const url of Object.values(reads)) {
    const answer = await app.inject({ method: 'GET', url, headers: auth });
    const headers = Object.fromEntries(Object.entries(answer.headers).filter(([name]) => !PER_CONNECTION.has(name))) as Record<string, string>;
    const body = answer.rawPayload;
    ceiling.get(url.split('?')[0], async (_request, reply) => reply.code(answer.statusCode).headers(headers).send(body));
  }
  countHooks(ceiling);
  await ceiling.ready();

  const kinds: Kind[] = [
    { name: 'hello', app: hello, url: '/', expect: 200 },
    { name: 'org-bytes', app: ceiling, url: reads.org, headers: auth, expect: 200 },
    { name: 'page-bytes', app: ceiling, url: reads.page, headers: auth, expect: 200 },
    { name: 'pages-bytes', app: ceiling, url: reads.pages, headers: auth, expect: 200 },
    { name: 'static', app: bare, url: '/', expect: 200 },
    { name: 'org', app, url: `/v1/orgs/${organization.id}`, headers: auth, expect: 200 },
    { name: 'page', app, url: `/v1/spaces/${docs}/content/page/${pageId}?format=markdown`, headers: auth, expect: 200 },
    { name: 'pages', app, url: `/v1/spaces/${docs}/content/pages`, headers: auth, expect: 200 },
    { name: 'published', app, url: pageUrl, expect: 200 },
    { name: 'published-304', app, url: pageUrl, headers: { 'if-none-match': String((await app.inject({ method: 'GET', url: pageUrl })).headers.etag) }, expect: 304 },
  ];
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 100 });
  console.log(`# Requests through app.inject, ${requests} of each kind, SQLite file database (${new Date().toISOString()})`);
  for (const kind of kinds) if (wanted.size === 0 || wanted.has(kind.name)) await profileKind(session, kind);
  session.disconnect();
  await Promise.all([app.close(), hello.close(), bare.close(), ceiling.close()]);
  await database.close();
  rmSync(dataDir, { recursive: true, force: true });
}

await main();
