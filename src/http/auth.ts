import type { FastifyRequest } from 'fastify';
import type { Actor, Context } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import { Unauthorized } from '../errors.ts';
import { hashToken } from '../secrets.ts';

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
  /** The token's expiry (ISO text), checked against the request's clock on every hit. */
  expiresAt: string | null;
  /** The last use this process knows is recorded (ISO text). */
  lastUsedAt: string | null;
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

  /** The onRequest hook of /v1. */
  readonly hook = async (request: FastifyRequest): Promise<void> => {
    const header = request.headers.authorization;
    if (!header) throw new Unauthorized();
    const match = BEARER.exec(header);
    if (!match) throw new Unauthorized('The Authorization header must be "Bearer <token>".');
    request.ctx.actor = await this.resolve(request.ctx, hashToken(match[1]));
  };

  private async resolve(ctx: Context, tokenHash: string): Promise<Actor> {
    let entry = this.cache.get(tokenHash);
    if (!entry || entry.until <= this.now()) entry = await this.lookUp(ctx, tokenHash);
    const now = ctx.clock.now();
    if (entry.expiresAt !== null && entry.expiresAt <= now.toISOString()) {
      this.cache.delete(tokenHash);
      throw new Unauthorized(`The API token expired at ${entry.expiresAt}: create a new one.`);
    }
    if (entry.lastUsedAt === null || Date.parse(entry.lastUsedAt) <= now.getTime() - LAST_USED_RESOLUTION_MS) {
      const stamp = now.toISOString();
      const stale = new Date(now.getTime() - LAST_USED_RESOLUTION_MS).toISOString();
      // Conditional, so several processes that see the same stale time write it once between them.
      await ctx.db
        .updateTable('api_tokens')
        .set({ last_used_at: stamp })
        .where('id', '=', entry.actor.tokenId!)
        .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<=', stale)]))
        .execute();
      entry.lastUsedAt = stamp;
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
      lastUsedAt: row.last_used_at,
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
