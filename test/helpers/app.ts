import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FolderBlobStore } from '../../src/storage/blobs.ts';
import type { FastifyInstance } from 'fastify';
import pg from 'pg';
import type { DestinationStream } from 'pino';
import { buildApp } from '../../src/app.ts';
import { ManualClock } from '../../src/clock.ts';
import { loadConfig, type Config } from '../../src/config.ts';
import { createContext, type Context } from '../../src/context.ts';
import { migrateToLatest, openDatabase, type Database, type DialectName } from '../../src/db/database.ts';
import { checkResponse } from './contract.ts';
import { hashToken } from '../../src/secrets.ts';
import { sessionCookieName } from '../../src/sessions/cookie.ts';
import { createSession } from '../../src/sessions/store.ts';

/**
 * QUIRE_TEST_AUTH=session runs a test file with browser sessions instead of API tokens: every `client`
 * made with a token signs that token's user in (a session row, its cookie and its CSRF token) and sends
 * the cookie, and X-CSRF-Token on writes, in place of the Authorization header. The role-matrix tests run
 * this way once more (test/sessions/role-matrix.test.ts) and must give the same answers.
 */
export const SESSION_AUTH = process.env.QUIRE_TEST_AUTH === 'session';

/** SQLite always; PostgreSQL too when TEST_DATABASE_URL names a server. */
export const dialects: DialectName[] = process.env.TEST_DATABASE_URL ? ['sqlite', 'postgres'] : ['sqlite'];

export interface TestApp {
  app: FastifyInstance;
  database: Database;
  config: Config;
  clock: ManualClock;
  /** An operator Context (no acting user) for factories. */
  ctx: Context;
  /** Responses that broke the client's document, collected by the contract hook. */
  violations: string[];
  /**
   * A second app (another "process") on the same database: on PostgreSQL its own connection pool to the
   * same schema; on SQLite the same in-memory database (one process can only share it).
   */
  peer(): Promise<{ app: FastifyInstance; close(): Promise<void> }>;
  close(): Promise<void>;
}

async function postgresSchema(): Promise<{ schema: string; drop: () => Promise<void> }> {
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
  await admin.connect();
  await admin.query(`create schema ${schema}`);
  await admin.end();
  return {
    schema,
    drop: async () => {
      const client = new pg.Client({ connectionString: process.env.TEST_DATABASE_URL });
      await client.connect();
      await client.query(`drop schema ${schema} cascade`);
      await client.end();
    },
  };
}

/**
 * A Quire app on a fresh database of the given dialect (in-memory SQLite, or a new PostgreSQL schema),
 * migrated, with a manual clock. Every response is checked against the client's document.
 */
export async function createTestApp(dialect: DialectName, env: Record<string, string> = {}, options: { logStream?: DestinationStream } = {}): Promise<TestApp> {
  // No rate limit unless a test asks for one (tests send many requests with one token).
  // With sessions standing in for tokens, they must outlive the clock moves of tests written for tokens.
  const sessionLifetimes = SESSION_AUTH ? { QUIRE_SESSION_IDLE_HOURS: '8760', QUIRE_SESSION_MAX_DAYS: '365' } : {};
  const config = loadConfig({ QUIRE_LOG_LEVEL: 'error', QUIRE_PUBLIC_URL: 'http://quire.test', QUIRE_DATA_DIR: '/tmp/quire-test-unused', QUIRE_RATE_LIMIT: '0', ...sessionLifetimes, ...env });
  let database: Database;
  let drop = async () => {};
  let schema: string | undefined;
  if (dialect === 'sqlite') {
    database = openDatabase('sqlite::memory:');
  } else {
    const created = await postgresSchema();
    drop = created.drop;
    schema = created.schema;
    database = openDatabase(process.env.TEST_DATABASE_URL!, { schema: created.schema });
  }
  await migrateToLatest(database);
  const masterKey = randomBytes(32);
  const blobDir = mkdtempSync(join(tmpdir(), 'quire-blobs-'));
  // QUIRE_BLOB_URL in env selects the configured store (an S3 bucket in test/scale); else a fresh folder.
  const blobs = env.QUIRE_BLOB_URL ? undefined : new FolderBlobStore(blobDir);
  const clock = new ManualClock(new Date('2026-03-01T09:00:00.000Z'));
  // QUIRE_TEST_LOG=1 shows the server's error log while debugging a test.
  // options.logStream: a test that reads what was logged (at the level QUIRE_LOG_LEVEL in env says).
  const app = await buildApp({ config, database, masterKey, clock, blobs, logger: Boolean(process.env.QUIRE_TEST_LOG || options.logStream), logStream: options.logStream });
  watchRequests(app);
  const violations: string[] = [];
  app.addHook('onSend', async (request, reply, payload) => {
    const route = request.routeOptions.url;
    if (!route || typeof payload !== 'string' || !String(reply.getHeader('content-type') ?? '').includes('json')) return payload;
    violations.push(...checkResponse(request.method, route, reply.statusCode, JSON.parse(payload)));
    return payload;
  });
  await app.ready();
  const ctx = createContext(app.services, null);
  return {
    app,
    database,
    config,
    clock,
    ctx,
    violations,
    peer: async () => {
      const peerDatabase = schema ? openDatabase(process.env.TEST_DATABASE_URL!, { schema }) : database;
      const peerApp = await buildApp({ config, database: peerDatabase, masterKey, clock, blobs, logger: false });
      await peerApp.ready();
      return {
        app: peerApp,
        close: async () => {
          await peerApp.close();
          if (schema) await peerDatabase.close();
        },
      };
    },
    close: async () => {
      await app.close();
      await database.close();
      await drop();
      rmSync(blobDir, { recursive: true, force: true });
      assert.deepEqual(violations, [], 'responses must validate against the client\'s OpenAPI document');
    },
  };
}

export interface Reply<T = any> {
  status: number;
  body: T;
  headers: Record<string, unknown>;
}

/** The cookie and CSRF token of a new session for the user of an API token (QUIRE_TEST_AUTH=session); undefined for an unknown token. */
async function sessionForToken(app: FastifyInstance, token: string): Promise<{ cookie: string; csrf: string } | undefined> {
  const ctx = createContext(app.services, null);
  const row = await ctx.db.selectFrom('api_tokens').select('user_id').where('token_hash', '=', hashToken(token)).where('revoked_at', 'is', null).executeTakeFirst();
  if (!row) return undefined;
  const { secret, session } = await createSession(ctx, { userId: row.user_id, method: 'password', device: null, ip: null });
  return { cookie: `${sessionCookieName(ctx.config)}=${secret}`, csrf: session.csrf_token };
}

/** A small client over app.inject, acting with one token (or none); with QUIRE_TEST_AUTH=session, with that token's user's session. */
export function client(app: FastifyInstance, token?: string) {
  let session: Promise<{ cookie: string; csrf: string } | undefined> | undefined;
  const credentials = async (method: string): Promise<Record<string, string>> => {
    if (!token) return {};
    if (!SESSION_AUTH) return { authorization: `Bearer ${token}` };
    session ??= sessionForToken(app, token);
    const found = await session;
    if (!found) return { authorization: `Bearer ${token}` };
    return { cookie: found.cookie, ...(['GET', 'HEAD', 'OPTIONS'].includes(method) ? {} : { 'x-csrf-token': found.csrf }) };
  };
  const call = async (method: string, url: string, body?: unknown, headers: Record<string, string> = {}): Promise<Reply> => {
    const response = await app.inject({
      method: method as 'GET',
      url,
      headers: { ...(await credentials(method)), ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...headers },
      payload: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body),
    });
    const text = response.body;
    return { status: response.statusCode, body: text ? JSON.parse(text) : undefined, headers: response.headers };
  };
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, body?: unknown) => call('POST', url, body ?? {}),
    put: (url: string, body?: unknown) => call('PUT', url, body ?? {}),
    patch: (url: string, body?: unknown) => call('PATCH', url, body ?? {}),
    delete: (url: string) => call('DELETE', url),
    raw: call,
  };
}
export type Client = ReturnType<typeof client>;

/** Asserts a refusal: the status, the error shape, and (optionally) words the message must contain. */
export function assertError(reply: Reply, status: number, contains?: string | RegExp): void {
  assert.equal(reply.status, status, `expected ${status}, got ${reply.status}: ${JSON.stringify(reply.body)}`);
  assert.equal(reply.body?.error?.code, status);
  assert.equal(typeof reply.body.error.message, 'string');
  if (contains) assert.match(reply.body.error.message, typeof contains === 'string' ? new RegExp(contains.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i') : contains);
}

/**
 * The requests an app has not answered yet, in a map on globalThis that scripts/test-times.mjs prints when a
 * test file's process runs past its limit (a request the server never answers leaves no timer to name it).
 */
function watchRequests(app: FastifyInstance): void {
  const key = Symbol.for('quire.test.requestsInFlight');
  const global = globalThis as unknown as Record<symbol, Map<object, { what: string; since: number }>>;
  const inFlight = (global[key] ??= new Map());
  app.addHook('onRequest', async (request) => {
    inFlight.set(request, { what: `${request.method} ${request.url}`, since: Date.now() });
  });
  app.addHook('onResponse', async (request) => {
    inFlight.delete(request);
  });
  app.addHook('onRequestAbort', async (request) => {
    inFlight.delete(request);
  });
}
