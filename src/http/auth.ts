import type { FastifyRequest } from 'fastify';
import type { Actor } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import { Unauthorized } from '../errors.ts';
import { hashToken } from '../secrets.ts';

const tokenOwner = preparedQuery((db, tokenHash: string) =>
  db
    .selectFrom('api_tokens')
    .innerJoin('users', 'users.id', 'api_tokens.user_id')
    .select(['users.id', 'users.email', 'api_tokens.id as token_id'])
    .where('api_tokens.token_hash', '=', tokenHash),
);

const BEARER = /^Bearer\s+(\S+)\s*$/i;
const CACHE_ENTRIES = 10_000;

/**
 * Resolves `Authorization: Bearer <token>` into the acting user; a missing or unknown token is a 401.
 *
 * Every /v1 request needs this lookup, so a token that was found is remembered for `cacheSeconds`
 * (QUIRE_TOKEN_CACHE_SECONDS; 0 turns it off), keyed by the token's hash. Unknown tokens are never
 * remembered. A token removed from the database is therefore refused at the latest `cacheSeconds` later.
 */
export class TokenAuthenticator {
  private readonly cache = new Map<string, { actor: Actor; until: number }>();

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
    request.ctx.actor = await this.resolve(request, hashToken(match[1]));
  };

  private async resolve(request: FastifyRequest, tokenHash: string): Promise<Actor> {
    const cached = this.cache.get(tokenHash);
    if (cached && cached.until > this.now()) return cached.actor;
    const [row] = await tokenOwner(request.ctx, tokenHash);
    if (!row) {
      this.cache.delete(tokenHash);
      throw new Unauthorized('The API token is not valid: it is unknown or has been revoked.');
    }
    const actor = { userId: row.id, email: row.email, tokenId: row.token_id };
    if (this.cacheSeconds > 0) {
      if (this.cache.size >= CACHE_ENTRIES) this.cache.delete(this.cache.keys().next().value!);
      this.cache.set(tokenHash, { actor, until: this.now() + this.cacheSeconds * 1000 });
    }
    return actor;
  }

  /** Forgets a token at once in this process (for revocation). */
  forget(tokenHash: string): void {
    this.cache.delete(tokenHash);
  }
}
