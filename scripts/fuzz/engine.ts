/**
 * The fuzzer's engine: for every operation of Quire's OpenAPI document it sends valid, boundary and hostile
 * requests through `app.inject`, aimed at real objects, and fails on any 5xx, any error body outside
 * `{ "error": { "code", "message" } }`, and any error message that leaks SQL, a stack, a file path or a token.
 *
 * Request i of a run is generated from `requestSeed(seed, i)` alone, and the pools of real ids grow in the
 * order answers arrive, so `--seed S --requests N` sends the same requests again on a fresh database (the ids
 * are new ones; where a list orders ties by id, a pick may land on another object of the same kind).
 */
import fc from 'fast-check';
import type { TestApp } from '../../test/helpers/app.ts';
import { readOperations, segmentPools, type OpenApiDocument, type Operation, type Parameter } from './operations.ts';
import { CONTROL_STRINGS, deepJson, hugeString, isPlainObject, isPoolRef, SchemaArbitraries, UNICODE_EDGES, type JsonSchema } from './schemas.ts';
import { populate, type FuzzWorld } from './world.ts';

/** A request as sent: enough to replay it with curl or app.inject. */
export interface SentRequest {
  method: string;
  url: string;
  headers: Record<string, string>;
  payload?: string;
  /** Who sent it (a role of the world, or a forged credential). */
  actor: string;
}

export interface FuzzFailure {
  /** The request's place in the run, from 1, warm-up included: `--seed S --requests <ordinal>` replays up to it. */
  ordinal: number;
  /** Whether it was sent by the warm-up (valid lists and creates as the admin) rather than generated. */
  warmUp: boolean;
  seed: number;
  operation: string;
  reason: string;
  request: SentRequest;
  status: number;
  body: string;
}

export interface FuzzResult {
  seed: number;
  sent: number;
  operations: number;
  /** Operations that answered at least one 2xx. */
  succeeded: number;
  byStatus: Record<string, number>;
  /** Operations that never answered 2xx in the run. */
  neverSucceeded: string[];
  failures: FuzzFailure[];
  /** Failures by `operation: reason`, with how many requests hit each (the first is in `failures`). */
  failureCounts: Record<string, number>;
}

export interface FuzzOptions {
  requests: number;
  seed: number;
  /** Requests between two refreshes of the world (a new organization with its objects). */
  refreshEvery?: number;
  /** A line of progress every so many requests, and each failure as it happens. */
  log?: (line: string) => void;
  progressEvery?: number;
}

/** Path segments no id looks like. Already percent-encoded (or deliberately not). */
const ODD_SEGMENTS = [
  '..', '.', '%2e%2e', '%2E', '%2F', '..%2F..%2Fetc%2Fpasswd', '%00', '%', '%zz', '%ED%A0%80', '%C0%AF', '%FF',
  '%20', '+', '%2B', '~', '-', '0', '-1', '1e999', '9007199254740993', 'NaN', 'null', 'undefined', 'true',
  '__proto__', 'constructor', 'prototype', '*', '%2A', '%22%3E%3Cscript%3E', "'%20or%201=1--", 'select%20*%20from%20spaces',
  '%F0%9F%92%A5', '%E2%80%AE', '%EF%BB%BF', 'a;b', 'a,b', '%3Fq=1', '%23frag', '%5B%5D', '%7B%7D', 'x'.repeat(101),
  'x'.repeat(5000), '%0A', '%0D%0A', '%09', 'CON', 'AUX',
];

const CONTENT_TYPES = [
  'text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=xyz', 'application/xml',
  'application/json; charset=utf-16', 'application/json; charset=latin1', 'application/merge-patch+json',
  'APPLICATION/JSON', 'application/json;', 'application', '*/*', 'a/b/c', 'application/json, text/plain',
];

const ODD_HEADERS: Array<[string, string]> = [
  ['accept', 'text/html'], ['accept', 'application/xml'], ['accept', '*/*;q=0'], ['accept-encoding', 'gzip, br, zstd'],
  ['range', 'bytes=99999999-'], ['range', 'bytes=5-2'], ['range', 'bytes=-0'], ['range', 'lines=1-2'], ['if-none-match', '*'],
  ['if-modified-since', 'not a date'], ['x-forwarded-for', '::ffff:300.1.1.1, garbage'], ['x-forwarded-host', 'evil.test'],
  ['host', 'evil.test:99999'], ['origin', 'null'], ['cookie', 'a=%00; b'], ['accept-language', '*;q=x,zz-ZZ'],
  ['user-agent', 'x'.repeat(5000)], ['content-encoding', 'gzip'], ['transfer-encoding', 'chunked'], ['expect', '100-continue'],
];

const BROKEN_JSON = ['{', '{"a":', 'nul', '[1,]', '{"a":1,}', "{'a':1}", '\u0000', 'tru', '"unterminated', '{"a":1}{"b":2}', '\ufeff{}', '[]]', '1e99999', '{"__proto__":{"x":1}}', '{"constructor":{"prototype":{"x":1}}}'];

const LIMITS = ['0', '-1', '1', '1000', '1001', '1e3', '1.5', 'abc', '', '99999999999999999999', '0x10', ' 5', '5 ', '%00'];

/** What one request is made of, before the pools turn its choices into ids. */
interface Plan {
  op: number;
  actor: number;
  path: PathChoice[];
  query: Array<[string, QueryChoice]>;
  extraQuery?: [string, string];
  body: BodyChoice;
  contentType: string | null;
  /** Another method than the operation's (a route that does not take it answers 404 in the error shape). */
  method?: string;
  /** A header a client might send oddly. */
  header?: [string, string];
}
type PathChoice = { real: number } | { other: number; pick: number } | { raw: string } | { text: string };
type QueryChoice = { value: unknown } | { raw: string } | { cursor: number; tamper: number };
type BodyChoice = { json: unknown } | { raw: string } | { none: true };

function requestSeed(seed: number, index: number): number {
  let h = Math.imul(seed ^ 0x9e3779b9, 0x85ebca6b) ^ Math.imul(index + 1, 0xc2b2ae35);
  h ^= h >>> 16;
  h = Math.imul(h, 0x7feb352d);
  h ^= h >>> 15;
  return h | 0;
}

export class Fuzzer {
  readonly operations: Operation[];
  private readonly segmentPool: Map<string, string>;
  private readonly schemas: SchemaArbitraries;
  private readonly plans: Array<fc.Arbitrary<Plan>>;
  private world!: FuzzWorld;
  private readonly poolNames: string[];

  constructor(private readonly t: TestApp, document: OpenApiDocument) {
    this.operations = readOperations(document);
    this.segmentPool = segmentPools(this.operations);
    const names = new Set<string>();
    for (const op of this.operations) for (const p of op.pathParams) names.add(p.name);
    this.poolNames = [...names].sort();
    this.schemas = new SchemaArbitraries(document.components?.schemas ?? {}, names);
    this.plans = this.operations.map((_, i) => this.planFor(i));
  }

  /** Loads the document the app serves and builds a fuzzer over it. */
  static async create(t: TestApp): Promise<Fuzzer> {
    const reply = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    if (reply.statusCode !== 200) throw new Error(`GET /openapi.json answered ${reply.statusCode}`);
    return new Fuzzer(t, JSON.parse(reply.body) as OpenApiDocument);
  }

  private planFor(op: number): fc.Arbitrary<Plan> {
    const operation = this.operations[op]!;
    const path = fc.tuple(...operation.pathParams.map((p) => this.pathChoice(p)));
    const query = fc.tuple(...operation.query.map((q) => this.queryChoice(q).map((c) => [q.name, c] as [string, QueryChoice | undefined])));
    const extraQuery = fc.oneof(
      { weight: 14, arbitrary: fc.constant(undefined) },
      { weight: 1, arbitrary: fc.tuple(fc.constantFrom('extra', 'page', 'limit', '__proto__', 'a[b]', 'format', ''), fc.constantFrom('1', 'x', '', '%00', 'true')) },
    );
    return fc.record({
      op: fc.constant(op),
      actor: fc.oneof({ weight: 10, arbitrary: fc.constant(0) }, { weight: 6, arbitrary: fc.nat({ max: 7 }) }, { weight: 2, arbitrary: fc.nat({ max: 63 }) }),
      path: path.map((choices) => [...choices]),
      query: query.map((pairs) => pairs.filter((pair): pair is [string, QueryChoice] => pair[1] !== undefined)),
      extraQuery,
      body: this.bodyChoice(operation),
      method: fc.oneof({ weight: 40, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS') }),
      header: fc.oneof({ weight: 12, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: fc.constantFrom(...ODD_HEADERS) }),
      contentType: fc.oneof(
        { weight: 20, arbitrary: fc.constant('application/json') },
        { weight: 2, arbitrary: fc.constant(null) },
        { weight: 2, arbitrary: fc.constantFrom(...CONTENT_TYPES) },
      ),
    });
  }

  private pathChoice(param: Parameter): fc.Arbitrary<PathChoice> {
    return fc.oneof(
      { weight: 40, arbitrary: fc.nat({ max: 1_000_000 }).map((real) => ({ real })) },
      { weight: 2, arbitrary: fc.tuple(fc.nat({ max: 64 }), fc.nat({ max: 1_000_000 })).map(([other, pick]) => ({ other, pick })) },
      { weight: 2, arbitrary: fc.constantFrom(...ODD_SEGMENTS).map((raw) => ({ raw })) },
      { weight: 2, arbitrary: fc.oneof(fc.string({ minLength: 1, maxLength: 40, unit: 'grapheme' }), fc.constantFrom(...UNICODE_EDGES.filter(Boolean)), fc.stringMatching(/^[0-9A-Za-z]{20,26}$/)).map((text) => ({ text })) },
      { weight: 1, arbitrary: this.schemas.valid(param.schema).map((v) => ({ text: String(v) })) },
    );
  }

  private queryChoice(param: Parameter): fc.Arbitrary<QueryChoice | undefined> {
    const hostile = fc.oneof(
      this.schemas.wrongType(param.schema).map((v) => ({ value: v })),
      fc.constantFrom(...UNICODE_EDGES, ...CONTROL_STRINGS).map((v) => ({ value: v })),
      fc.integer({ min: 1000, max: 20_000 }).map((n) => ({ value: hugeString(n) })),
      fc.constantFrom('%', '%zz', '%00', '%ED%A0%80', 'a&b=c', '%26', '[]', 'a,b').map((raw) => ({ raw })),
    );
    const choices: Array<fc.WeightedArbitrary<QueryChoice | undefined>> = [
      { weight: param.required ? 1 : 8, arbitrary: fc.constant(undefined) },
      { weight: 8, arbitrary: this.schemas.valid(param.schema, param.name).map((value) => ({ value })) },
      { weight: 3, arbitrary: hostile },
    ];
    if (param.name === 'page') {
      choices.push({ weight: 8, arbitrary: fc.tuple(fc.nat({ max: 1000 }), fc.nat({ max: 20 })).map(([cursor, tamper]) => ({ cursor, tamper })) });
      choices.push({ weight: 2, arbitrary: fc.base64String({ minLength: 4, maxLength: 80 }).map((value) => ({ value })) });
    }
    if (param.name === 'limit') choices.push({ weight: 4, arbitrary: fc.constantFrom(...LIMITS).map((raw) => ({ raw })) });
    return fc.oneof(...choices);
  }

  private bodyChoice(operation: Operation): fc.Arbitrary<BodyChoice> {
    const broken = fc.oneof(
      fc.constantFrom(...BROKEN_JSON),
      fc.integer({ min: 1000, max: 200_000 }).map((n) => '['.repeat(n) + ']'.repeat(n)),
      fc.integer({ min: 1000, max: 100_000 }).map((n) => '{"a":'.repeat(n) + '1' + '}'.repeat(n)),
    ).map((raw) => ({ raw }));
    if (!operation.body) {
      return fc.oneof(
        { weight: 12, arbitrary: fc.constant({ none: true as const }) },
        { weight: 2, arbitrary: fc.jsonValue({ maxDepth: 3 }).map((json) => ({ json })) },
        { weight: 1, arbitrary: broken },
      );
    }
    return fc.oneof(
      { weight: 8, arbitrary: this.schemas.valid(operation.body).map((json) => ({ json })) },
      { weight: 6, arbitrary: this.schemas.valid(operation.body, undefined, 0, true).map((json) => ({ json })) },
      { weight: 8, arbitrary: this.schemas.hostileObject(operation.body).map((json) => ({ json })) },
      { weight: 1, arbitrary: fc.constant({ none: true as const }) },
      { weight: 1, arbitrary: broken },
    );
  }

  /** The concrete request of a plan, with the pools' ids in place of its choices. */
  private materialize(plan: Plan): SentRequest {
    const operation = this.operations[plan.op]!;
    const pools = this.world.pools;
    let url = operation.path;
    operation.pathParams.forEach((param, i) => {
      const choice = plan.path[i]!;
      let segment: string;
      // The wildcard of `…/path/{*}` takes a page path, slashes and all.
      if ('real' in choice) segment = (pools.pick(param.name, choice.real) ?? 'no-such-id').split('/').map(encode).join('/');
      else if ('other' in choice) segment = encode(pools.pick(this.poolNames[choice.other % this.poolNames.length]!, choice.pick) ?? 'other');
      else if ('raw' in choice) segment = choice.raw;
      else segment = encode(choice.text);
      url = url.replace(`{${param.name}}`, segment);
    });
    const parts: string[] = [];
    for (const [name, choice] of plan.query) {
      if ('raw' in choice) parts.push(`${encodeURIComponent(name)}=${choice.raw}`);
      else if ('cursor' in choice) parts.push(`${encodeURIComponent(name)}=${encode(this.cursor(choice.cursor, choice.tamper))}`);
      else if (Array.isArray(choice.value)) for (const item of choice.value) parts.push(`${encodeURIComponent(name)}=${encode(queryText(item))}`);
      else parts.push(`${encodeURIComponent(name)}=${encode(queryText(choice.value))}`);
    }
    if (plan.extraQuery) parts.push(`${encode(plan.extraQuery[0])}=${plan.extraQuery[1]}`);
    if (parts.length > 0) url += `?${parts.join('&')}`;

    const actor = this.world.actors[plan.actor % this.world.actors.length]!;
    const headers: Record<string, string> = {};
    if (actor.authorization !== undefined) headers.authorization = actor.authorization;
    let payload: string | undefined;
    if ('json' in plan.body) payload = stringify(this.resolveRefs(plan.body.json));
    else if ('raw' in plan.body) payload = plan.body.raw;
    if (payload !== undefined && plan.contentType !== null) headers['content-type'] = plan.contentType;
    if (plan.header) headers[plan.header[0]] = plan.header[1];
    return { method: plan.method ?? operation.method, url, headers, payload, actor: actor.name };
  }

  /** A list cursor the API gave out (`next.page`), or one tampered with. */
  private cursor(pick: number, tamper: number): string {
    const real = this.world.pools.pick('cursor', pick);
    if (!real) return 'eyJvIjoxfQ';
    if (tamper === 0 || tamper > 12) return real;
    const i = (pick + tamper) % real.length;
    const c = real[i] === 'A' ? 'B' : 'A';
    switch (tamper % 4) {
      case 0: return real.slice(0, i) + c + real.slice(i + 1);
      case 1: return real.slice(0, i);
      case 2: return real + real;
      default: return Buffer.from(Buffer.from(real, 'base64url').toString('latin1').replace(/\d/, '9'), 'latin1').toString('base64url');
    }
  }

  private resolveRefs(value: unknown, depth = 0): unknown {
    // Placeholders sit where the schema has members; deep nesting is hostile input, left as generated.
    if (depth > 12) return value;
    if (isPoolRef(value)) return this.world.pools.pick(value.$pool, value.pick) ?? 'no-such-id';
    if (Array.isArray(value)) return value.map((v) => this.resolveRefs(v, depth + 1));
    if (isPlainObject(value)) {
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(value)) Object.defineProperty(out, k, { value: this.resolveRefs(v, depth + 1), enumerable: true, writable: true, configurable: true });
      return out;
    }
    return value;
  }

  /** Sends one request and checks its answer; files what it returns in the pools. */
  private async send(request: SentRequest, operation: Operation): Promise<{ status: number; body: string; failure?: string }> {
    const response = await this.t.app.inject({ method: request.method as 'GET', url: request.url, headers: request.headers, payload: request.payload });
    const body = response.body;
    const failure = checkAnswer(request, response.statusCode, String(response.headers['content-type'] ?? ''), body, this.world.secrets);
    if (response.statusCode >= 200 && response.statusCode < 300 && request.method === 'DELETE' && request.method === operation.method) this.forget(operation, request);
    if (response.statusCode >= 200 && response.statusCode < 300 && String(response.headers['content-type'] ?? '').includes('json')) {
      try {
        this.harvest(operation, request, JSON.parse(body));
      } catch {
        // Not JSON after all: checkAnswer has said so when it matters.
      }
    }
    return { status: response.statusCode, body, failure };
  }

  /** After a DELETE that succeeded, its object's id leaves the pool, so later requests aim at live objects. */
  private forget(operation: Operation, request: SentRequest): void {
    const last = operation.path.split('/').pop()!;
    const param = /^\{(\w+)\}$/.exec(last)?.[1];
    if (!param) return;
    const segment = request.url.split('?')[0]!.split('/').pop()!;
    try {
      this.world.pools.remove(param, decodeURIComponent(segment));
    } catch {
      // Not decodable: not an id of the pool.
    }
  }

  private harvest(operation: Operation, request: SentRequest, body: unknown): void {
    const pools = this.world.pools;
    const last = operation.path.split('/').pop()!;
    const rootPool = last.startsWith('{') ? undefined : this.segmentPool.get(last);
    if (rootPool && isPlainObject(body) && request.method === 'POST') pools.add(rootPool, body.id);
    if (isPlainObject(body) && isPlainObject(body.next)) pools.add('cursor', body.next.page);
    const visit = (value: unknown, key: string | undefined, depth: number) => {
      if (depth > 8) return;
      if (Array.isArray(value)) {
        for (const item of value.slice(0, 50)) visit(item, key, depth + 1);
        return;
      }
      if (!isPlainObject(value)) return;
      const keyPool = key === 'items' ? rootPool : key ? this.segmentPool.get(key) ?? this.segmentPool.get(key.replace(/s$/, '')) : undefined;
      if (keyPool && 'id' in value) pools.add(keyPool, value.id);
      // Pages also have a path, which the `…/content/path/{*}` routes take.
      if (keyPool === 'pageId' && typeof value.path === 'string') pools.add('*', value.path);
      if (typeof value.object === 'string' && 'id' in value) {
        const pool = kindPool(value.object);
        if (this.poolNames.includes(pool)) pools.add(pool, value.id);
        if (value.object === 'openapi-spec') pools.add('specSlug', value.slug);
        if (value.object === 'change-request') pools.add('changeRequestId', value.number);
      }
      for (const [k, v] of Object.entries(value)) if (typeof v === 'object' && v !== null) visit(v, k, depth + 1);
    };
    visit(body, undefined, 0);
  }

  /**
   * As the admin, every list and every create with valid requests (a create tried with up to eight bodies
   * until one is taken), twice over, so that the pools hold real objects of every kind the API makes.
   */
  private async warmUp(record: (operation: Operation, request: SentRequest, answer: { status: number; body: string; failure?: string }) => void): Promise<void> {
    const byDepth = [...this.operations.keys()]
      .filter((i) => this.operations[i]!.method === 'GET' || this.operations[i]!.method === 'POST')
      .sort((a, b) => this.operations[a]!.path.split('/').length - this.operations[b]!.path.split('/').length || a - b);
    const admin = this.world.actors[0]!;
    for (let round = 0; round < 2; round++) {
      for (const i of byDepth) {
        const operation = this.operations[i]!;
        const tries = operation.method === 'POST' ? 8 : 1;
        const bodies = operation.body
          ? fc.sample(fc.oneof(this.schemas.valid(operation.body, undefined, 0, true), this.schemas.valid(operation.body)), { seed: i * 7 + round, numRuns: tries })
          : [undefined];
        for (const [attempt, body] of bodies.entries()) {
          const headers: Record<string, string> = { authorization: admin.authorization! };
          if (body !== undefined) headers['content-type'] = 'application/json';
          let url = operation.path;
          for (const param of operation.pathParams) url = url.replace(`{${param.name}}`, encode(this.world.pools.pick(param.name, attempt + round) ?? 'none'));
          const request: SentRequest = { method: operation.method, url, headers, payload: body === undefined ? undefined : stringify(this.resolveRefs(body)), actor: admin.name };
          const answer = await this.send(request, operation);
          record(operation, request, answer);
          if (answer.status < 300) break;
        }
      }
    }
  }

  /** Runs `requests` requests from `seed`; collects every failure rather than stopping at the first. */
  async run(options: FuzzOptions): Promise<FuzzResult> {
    const { requests, seed, log } = options;
    const refreshEvery = options.refreshEvery ?? 2500;
    const progressEvery = options.progressEvery ?? 0;
    const result: FuzzResult = { seed, sent: 0, operations: this.operations.length, succeeded: 0, byStatus: {}, neverSucceeded: [], failures: [], failureCounts: {} };
    const succeeded = new Set<string>();
    let index = -1;
    const record = (operation: Operation, request: SentRequest, answer: { status: number; body: string; failure?: string }) => {
      result.sent++;
      const bucket = String(answer.status);
      result.byStatus[bucket] = (result.byStatus[bucket] ?? 0) + 1;
      if (answer.status >= 200 && answer.status < 300) succeeded.add(operation.key);
      if (answer.failure) {
        const key = `${operation.key}: ${answer.failure.replace(/\d+/g, 'N')}`;
        result.failureCounts[key] = (result.failureCounts[key] ?? 0) + 1;
        if (result.failureCounts[key] === 1) {
          const failure: FuzzFailure = { ordinal: result.sent, warmUp: index < 0, seed, operation: operation.key, reason: answer.failure, request, status: answer.status, body: answer.body.slice(0, 600) };
          result.failures.push(failure);
          log?.(describeFailure(failure));
        }
      }
    };
    this.world = await populate(this.t);
    await this.warmUp(record);
    log?.(`  warm-up: ${result.sent} requests; pools ${JSON.stringify(this.world.pools.sizes())}`);
    for (index = 0; result.sent < requests; index++) {
      // A fresh organization now and then, and at once when the fuzzer has deleted the last one.
      if ((index > 0 && index % refreshEvery === 0) || this.world.pools.size('organizationId') === 0) this.world = await populate(this.t, this.world);
      const plan = fc.sample(fc.nat({ max: this.plans.length - 1 }).chain((op) => this.plans[op]!), { seed: requestSeed(seed, index), numRuns: 1 })[0]!;
      const operation = this.operations[plan.op]!;
      const request = this.materialize(plan);
      const started = Date.now();
      const answer = await this.send(request, operation);
      record(operation, request, answer);
      // FUZZ_TRACE=1 prints every request and the start of its answer.
      if (process.env.FUZZ_TRACE) log?.(`${Date.now() - started}ms ${answer.status} ${request.method} ${request.url.slice(0, 150)} ${request.actor} ${String(request.payload).slice(0, 150)} → ${answer.body.slice(0, 200)}`);
      if (progressEvery && result.sent % progressEvery === 0) log?.(`  … ${result.sent} requests, ${succeeded.size}/${this.operations.length} operations answered 2xx, ${result.failures.length} distinct failures`);
    }
    result.succeeded = succeeded.size;
    result.neverSucceeded = this.operations.map((o) => o.key).filter((key) => !succeeded.has(key));
    return result;
  }
}

/** JSON text of a body, with each deep-nesting placeholder written out in full. */
function stringify(value: unknown): string {
  const deep: number[] = [];
  const text = JSON.stringify(value, (_key, v: unknown) => {
    if (isPlainObject(v) && typeof v.$deep === 'number' && Object.keys(v).length === 1) {
      deep.push(v.$deep);
      return `\u0001deep${deep.length - 1}\u0001`;
    }
    return v;
  }) ?? 'null';
  return text.replace(/"\\u0001deep(\d+)\\u0001"/g, (_, i: string) => deepJson(deep[Number(i)]!));
}

function kindPool(kind: string): string {
  if (kind === 'openapi-spec-version') return 'versionId';
  return kind.replace(/-(\w)/g, (_, c: string) => c.toUpperCase()) + 'Id';
}

function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    // A lone surrogate cannot be encoded as UTF-8: send the bytes a careless client would.
    return '%ED%A0%80';
  }
}

function queryText(value: unknown): string {
  if (isPoolRef(value)) return String(value.pick);
  if (typeof value === 'string') return value;
  return typeof value === 'object' ? JSON.stringify(value) ?? '' : String(value);
}

const SQL = /\bselect\b[\s\S]*\bfrom\b|\binsert into\b|\bupdate\b[\s\S]*\bset\b|\bdelete from\b|sqlite|postgres|syntax error|violates|invalid byte sequence|invalid input syntax|constraint failed|\brelation "|\bcolumn "|SQLSTATE/i;
const STACK = /\bat [^\n]*\(?[^\n]*:\d+:\d+\)?|\n\s+at /;
const FILE_PATH = /\/work\/|\/home\/|\/tmp\/|\/usr\/|node_modules|\.[jt]s:\d|file:\/\//;
const TOKEN = /qrt_[A-Za-z0-9_-]{16,}|Bearer [A-Za-z0-9._-]{16,}/;

/**
 * Why an answer is wrong, or undefined: a 5xx, an error body outside the one shape, or a message that
 * leaks. A match that only repeats what the request itself sent (a URL echoed in a 404) is not a leak.
 */
export function checkAnswer(request: SentRequest, status: number, contentType: string, body: string, secrets: Set<string>): string | undefined {
  if (status >= 500) return `answered ${status}`;
  if (status < 400 || request.method === 'HEAD') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return `error body is not JSON (${contentType || 'no content type'})`;
  }
  if (!contentType.includes('application/json')) return `error body has content type "${contentType}"`;
  if (!isPlainObject(parsed) || Object.keys(parsed).join() !== 'error' || !isPlainObject(parsed.error)) return 'error body is not { error: { code, message } }';
  const error = parsed.error;
  if (Object.keys(error).sort().join() !== 'code,message') return `error object has members ${Object.keys(error).join(', ')}`;
  if (error.code !== status) return `error code ${String(error.code)} differs from status ${status}`;
  if (typeof error.message !== 'string' || error.message.trim() === '') return 'error message is empty or not a string';
  const message = error.message;
  let sent = `${request.method} ${request.url} ${Object.values(request.headers).join(' ')} ${request.payload ?? ''}`;
  try {
    sent += ` ${decodeURIComponent(request.url)}`;
  } catch {
    // Not decodable: the raw URL above is what the server saw.
  }
  sent = sent.toLowerCase();
  const echoed = (text: string) => sent.includes(text.toLowerCase());
  for (const [name, pattern] of [['SQL', SQL], ['a stack', STACK], ['a file path', FILE_PATH], ['a token', TOKEN]] as const) {
    const match = pattern.exec(message);
    if (match && !echoed(match[0])) return `error message leaks ${name}: ${JSON.stringify(match[0].slice(0, 80))}`;
  }
  for (const secret of secrets) if (message.includes(secret) && !echoed(secret)) return 'error message leaks a token';
  return undefined;
}

export function describeFailure(failure: FuzzFailure): string {
  const headers = Object.entries(failure.request.headers).map(([k, v]) => ` -H ${JSON.stringify(`${k}: ${v}`)}`).join('');
  const payload = failure.request.payload === undefined ? '' : failure.request.payload.length > 400 ? ` --data <${failure.request.payload.length} bytes: ${JSON.stringify(failure.request.payload.slice(0, 200))}…>` : ` --data ${JSON.stringify(failure.request.payload)}`;
  return [
    `FAIL ${failure.operation}: ${failure.reason}`,
    `  request ${failure.ordinal}${failure.warmUp ? ' (warm-up)' : ''} of seed ${failure.seed}, as ${failure.request.actor}; replay: npm run fuzz -- --seed ${failure.seed} --requests ${failure.ordinal}`,
    `  curl -X ${failure.request.method} ${JSON.stringify(failure.request.url.slice(0, 600))}${headers}${payload}`,
    `  → ${failure.status} ${failure.body.slice(0, 300)}`,
  ].join('\n');
}

export { type JsonSchema };
