import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import rateLimit from '@fastify/rate-limit';
import type { Kysely } from 'kysely';
import { countInWindow, sweepCounts } from '../db/counters.ts';
import type { Config } from '../config.ts';
import type { DialectName } from '../db/database.ts';
import type { DB } from '../db/types.ts';
import { HOST_COOKIE, PLAIN_COOKIE, readCookie } from '../sessions/cookie.ts';

type IncrCallback = (error: Error | null, result?: { current: number; ttl: number }) => void;

/** Paths that are never limited: probes and scrapes come often, from the operator's own machines. */
const UNLIMITED = new Set(['/healthz', '/readyz', '/metrics']);

/**
 * The counter store shared by every process on one PostgreSQL database: one row per key, counted up by a
 * single upsert that also starts a new window once the old one has ended (fixed windows, as the in-memory
 * store counts). Rows of ended windows are removed now and then by the request that finds one.
 */
function postgresStore(db: Kysely<DB>, windowMs: number) {
  let nextSweep = 0;
  return class PostgresRateLimitStore {
    // The plugin passes the window as a third argument, which its type declaration leaves out.
    incr(key: string, callback: IncrCallback, timeWindow: number = windowMs): void {
      const now = Date.now();
      countInWindow(db, key, timeWindow, now)
        .then(async ({ count, windowEnds }) => {
          callback(null, { current: count, ttl: Math.max(0, windowEnds - now) });
          if (now >= nextSweep) {
            nextSweep = now + 60_000;
            await sweepCounts(db, now - 60_000);
          }
        })
        .catch((error: Error) => callback(error));
    }

    child(): PostgresRateLimitStore {
      return this;
    }
  };
}

/**
 * The key a request is counted under: its token (by hash, never the token itself), else its browser
 * session (by hash), else its address.
 */
function keyOf(request: FastifyRequest): string {
  const authorization = request.headers.authorization;
  if (authorization) return `token:${createHash('sha256').update(authorization).digest('base64url').slice(0, 32)}`;
  const session = readCookie(request.headers.cookie, HOST_COOKIE) ?? readCookie(request.headers.cookie, PLAIN_COOKIE);
  if (session) return `session:${createHash('sha256').update(session).digest('base64url').slice(0, 32)}`;
  return `address:${request.ip}`;
}

/**
 * Per-token and per-address request limits (QUIRE_RATE_LIMIT requests per QUIRE_RATE_LIMIT_WINDOW_SECONDS),
 * with X-RateLimit-Limit, -Remaining, -Reset and Retry-After, and a 429 in the error shape. On PostgreSQL
 * the counts are shared by every process; on SQLite (one process) they are kept in memory.
 */
export async function registerRateLimit(app: FastifyInstance, config: Config, db: Kysely<DB>, dialect: DialectName): Promise<void> {
  if (config.rateLimit === 0) return;
  await app.register(rateLimit, {
    // Not per route: one hook on the root app, so the count comes before authentication and guessed
    // tokens are limited too.
    global: false,
    max: config.rateLimit,
    timeWindow: config.rateLimitWindowSeconds * 1000,
    keyGenerator: keyOf,
    allowList: (request) => UNLIMITED.has(request.url.split('?')[0]),
    ...(dialect === 'postgres' ? { store: postgresStore(db, config.rateLimitWindowSeconds * 1000) } : {}),
    errorResponseBuilder: (_request, context) =>
      Object.assign(
        new Error(`Too many requests: this token or address may send ${context.max} requests per ${config.rateLimitWindowSeconds} seconds. Try again in ${context.after}.`),
        { statusCode: 429 },
      ),
  });
  const limit = app.rateLimit();
  app.addHook('onRequest', async (request, reply) => {
    await limit.call(app, request, reply);
  });
}
