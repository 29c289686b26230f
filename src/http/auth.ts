import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Actor, Context } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import { Forbidden, Unauthorized } from '../errors.ts';
import { hashToken } from '../secrets.ts';
import { readCookie, sessionCookieName } from '../sessions/cookie.ts';
import { resolveSession } from '../sessions/store.ts';

const tokenOwner = preparedQuery((db, tokenHash: string) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['users.id', 'users.email', 'api_tokens.id as token_id', 'api_tokens.expires_at', 'api_tokens.revoked_at', 'api_tokens.last_used_at'])
    .where('api_tokens.token_hash', '=', tokenHash),
);

/**
 * The PostgreSQL channel on which a revocation is announced (payload: the token's hash), in the revoking
 * transaction, so every serving process forgets the token at once instead of at the end of its cache time.
 */
export const TOKEN_REVOKED_CHANNEL = 'quire_token_revoked';

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const CACHE_ENTRIES = 10_000;
/** A token's last use is written at most this often (per token), not once per request. */
export const LAST_USED_RESOLUTION_MS = 60_000;

interface CachedToken {
  actor: Actor;
  /** When this process looks the token up again (its own clock). */
  until: number;
  /** The token's expiry (ISO text, for the message), checked against the request's clock on every hit. */
  expiresAt: string | null;
  /** The same, in milliseconds (read once: the text is not parsed on every request). */
  expiresMs: number | null;
  /** The last use this process knows is recorded, in milliseconds; null when none is. */
  lastUsedMs: number | null;
}


/**
 * Resolves `Authorization: Bearer <token>` into the acting user; a missing, unknown, revoked or expired token
 * is a 401, and the message says which.
 *
 * Every /v1 request needs this lookup, so a token that was found is remembered for `cacheSeconds`
 * (QUIRE_TOKEN_CACHE_SECONDS; 0 turns it off), keyed by the token's hash. Unknown tokens are never
 * remembered. A token revoked or removed in the database is therefore refused by every process at the latest
 * `cacheSeconds` later, and at once by the process that revoked it (`forget`) — and, on PostgreSQL, by every
 * serving process as soon as the revocation's notification arrives (TOKEN_REVOKED_CHANNEL, src/server.ts). Expiry is checked on every
 * request, cached or not. The time of last use is written when the recorded one is a minute old or more, so
 * a busy token costs one small write a minute, not one per request.
 */
export class TokenAuthenticator {
  private readonly cache = new Map<string, CachedToken>();

  constructor(
    private readonly cacheSeconds: number,
    private readonly now: () => number = Date.now,
  ) {}

  /**
   * The onRequest hook of /v1: a Bearer token when the request has an Authorization header (it wins over a
   * cookie), else the browser session its cookie names.
   */
  readonly hook = async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (!header) {
      const secret = readCookie(request.headers.cookie, sessionCookieName(request.ctx.config));
      if (secret === undefined) throw new Unauthorized();
      request.ctx.actor = await sessionActor(request, secret);
      return;
    }
    const tokenHash = this.hashOf(header);
    if (tokenHash === undefined) throw new Unauthorized('The Authorization header must be "Bearer <token>".');
    request.ctx.actor = await this.resolve(request.ctx, tokenHash);
  };

  /**
   * The hash of the Bearer token in `header`; undefined when it is not "Bearer <token>". Computed per request
   * (SHA-256, ~1.3 µs): remembering it by connection would keep the raw token in memory for as long as the
   * connection stays open, which Quire does not do for ~1 µs (decision in docs/performance.md, issue 29).
   */
  private hashOf(header: string): string | undefined {
    const match = BEARER.exec(header);
    return match ? hashToken(match[1]) : undefined;
  }

  /**
   * The same hook for Fastify, with a callback: a token this process remembers, unexpired and whose last use
   * is recorded within the minute, is answered in the same turn, without a promise (the usual case: every
   * request of a busy client). Anything else goes through `hook`, which decides and refuses as always.
   */
  readonly onRequest = (request: FastifyRequest, _reply: FastifyReply, done: (error?: Error) => void): void => {
    const actor = this.rememberedActor(request);
    if (actor) {
      request.ctx.actor = actor;
      return done();
    }
    this.hook(request).then(() => done(), done);
  };

  /** The actor of a remembered token with nothing to check or write but what `resolve` would find fine; else undefined. */
  private rememberedActor(request: FastifyRequest): Actor | undefined {
    const header = request.headers.authorization;
    if (!header) return undefined;
    const tokenHash = this.hashOf(header);
    if (tokenHash === undefined) return undefined;
    const entry = this.cache.get(tokenHash);
    if (!entry || entry.until <= this.now()) return undefined;
    const now = request.ctx.clock.now().getTime();
    if (entry.expiresMs !== null && entry.expiresMs <= now) return undefined;
    if (entry.lastUsedMs === null || entry.lastUsedMs <= now - LAST_USED_RESOLUTION_MS) return undefined;
    return entry.actor;
  }

  private async resolve(ctx: Context, tokenHash: string): Promise<Actor> {
    let entry = this.cache.get(tokenHash);
    if (!entry || entry.until <= this.now()) entry = await this.lookUp(ctx, tokenHash);
    const now = ctx.clock.now();
    if (entry.expiresMs !== null && entry.expiresMs <= now.getTime()) {
      this.cache.delete(tokenHash);
      throw new Unauthorized(`The API token expired at ${entry.expiresAt}: create a new one.`);
    }
    if (entry.lastUsedMs === null || entry.lastUsedMs <= now.getTime() - LAST_USED_RESOLUTION_MS) {
      const stamp = now.toISOString();
      const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
      // Conditional, so several processes that see the same stale time write it once between them.
      await ctx.db
        .updateTable('api_tokens')
        .set({ last_used_at: stamp })
        .where('id', '=', entry.actor.tokenId!)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', stale)]))
        .execute();
      entry.lastUsedMs = now.getTime();
    }
    return entry.actor;
  }

  private async lookUp(ctx: Context, tokenHash: string): Promise<CachedToken> {
    const [row] = await tokenOwner(ctx, tokenHash);
    if (!row || row.revoked_at !== null) {
      this.cache.delete(tokenHash);
      throw new Unauthorized('The API token is not valid: it is unknown or has been revoked.');
    }
    const entry: CachedToken = {
      actor: { userId: row.id, email: row.email, tokenId: row.token_id },
      until: this.now() + this.cacheSeconds * 1000,
      expiresAt: row.expires_at,
      expiresMs: row.expires_at === null ? null : Date.parse(row.expires_at),
      lastUsedMs: row.last_used_at === null ? null : Date.parse(row.last_used_at),
    };
    if (this.cacheSeconds > 0) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(tokenHash, entry);
    }
    return entry;
  }

  /** Forgets a token at once in this process (for revocation). */
  forget(tokenHash: string): void {
    this.cache.delete(tokenHash);
  }

  /** Forgets every token (revocations may have been missed, e.g. while the notification listener was away). */
  clear(): void {
    this.cache.clear();
  }
}

/** Methods that change nothing: a cookie-authenticated request with any other method must prove it comes from Quire's own pages. */
export const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/** Compares two strings in constant time (for their length). */
export function sameSecret(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

/**
 * Whether an unsafe request authenticated by the session cookie is Quire's own: it must carry the
 * session's CSRF token (header X-CSRF-Token, or `given` from a form's `_csrf` field), and an Origin header,
 * when the browser sends one, must be Quire's. A cross-site page can make a browser send the cookie
 * (SameSite=Lax still allows some top-level requests) but can read neither the token nor forge the Origin.
 */
export function checkCsrf(request: FastifyRequest, csrfToken: string, given?: string): void {
  const origin = request.headers.origin;
  if (typeof origin === 'string' && origin !== 'null' && origin !== new URL(request.ctx.config.publicUrl).origin) {
    throw new Forbidden(`This request came from another site (Origin ${origin}) with your session cookie: refused as a possible cross-site request forgery (CSRF). Quire's own pages send it from ${new URL(request.ctx.config.publicUrl).origin}.`);
  }
  const header = request.headers['x-csrf-token'];
  const token = typeof header === 'string' ? header : given;
  if (token === undefined || token === '') {
    throw new Forbidden('A request authenticated by the session cookie that changes something must carry the session\'s CSRF token in the header X-CSRF-Token (read it from GET /auth/session), or use an API token instead.');
  }
  if (!sameSecret(token, csrfToken)) {
    throw new Forbidden('The CSRF token does not belong to this session: read the current one from GET /auth/session (it changes at every sign-in).');
  }
}

/** The user a session cookie signs in; a write must pass the CSRF check. */
async function sessionActor(request: FastifyRequest, secret: string): Promise<Actor> {
  const resolved = await resolveSession(request.ctx, secret, request.ip ?? null);
  if (!resolved) throw new Unauthorized('Your session has ended (signed out, expired or revoked): sign in again at /sign-in, or send "Authorization: Bearer <token>".');
  if (!SAFE_METHODS.has(request.method)) checkCsrf(request, resolved.session.csrf_token);
  return { userId: resolved.user.id, email: resolved.user.email, sessionId: resolved.session.id };
}
