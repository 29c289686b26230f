import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { TOKEN_REVOKED_CHANNEL } from '../../http/auth.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { pageInCreationOrder, type Page, type PageRequest } from '../../db/keyset.ts';
import { parseDuration } from '../../duration.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { hashToken, newApiToken } from '../../secrets.ts';

/**
 * API tokens: issued to a user (by the CLI, or by the user through the API), with an optional expiry,
 * listed with their last use, and revoked. The secret is shown once, at creation; only its SHA-256 hash is
 * kept, and no listing ever shows it. Checking a token on each request is src/http/auth.ts.
 */

/** The longest expiry a token may be given: ten years. */
const MAX_LIFETIME_MS = 10 * 365 * 86_400_000;

export interface TokenRow {
  id: string;
  user_id: string;
  name: string | null;
  created_at: string;
  expires_at: string | null;
  last_used_at: string | null;
  revoked_at: string | null;
}

const TOKEN_COLUMNS = ['id', 'user_id', 'name', 'created_at', 'expires_at', 'last_used_at', 'revoked_at'] as const;

export interface NewToken {
  name?: string | null;
  /** A duration such as `30d` (see parseDuration). */
  expiresIn?: string;
  /** A moment (ISO 8601). */
  expiresAt?: string;
}

/** When a token asked for with `input` expires (ISO), or null; a bad or past expiry is a BadRequest. */
export function tokenExpiry(ctx: Pick<Context, 'clock'>, input: NewToken): string | null {
  const now = ctx.clock.now().getTime();
  if (input.expiresIn !== undefined && input.expiresAt !== undefined) throw new BadRequest('Give "expiresIn" or "expiresAt", not both.');
  let at: number | undefined;
  if (input.expiresIn !== undefined) {
    const ms = parseDuration(input.expiresIn);
    if (ms === undefined || ms <= 0) throw new BadRequest(`"expiresIn" must be a duration such as 90m, 12h, 30d or 2w; it is "${input.expiresIn}".`);
    at = now + ms;
  } else if (input.expiresAt !== undefined) {
    at = Date.parse(input.expiresAt);
    if (Number.isNaN(at)) throw new BadRequest(`"expiresAt" must be a date and time (ISO 8601); it is "${input.expiresAt}".`);
    if (at <= now) throw new BadRequest('"expiresAt" must be in the future.');
  }
  if (at === undefined) return null;
  if (at - now > MAX_LIFETIME_MS) throw new BadRequest('A token may live at most ten years.');
  return new Date(at).toISOString();
}

/** Creates a new API token for a user; the secret is returned once and only its hash is kept. */
export async function createApiToken(ctx: Context, userId: string, name: string | null = null, input: NewToken = {}): Promise<{ token: string; row: TokenRow }> {
  const token = newApiToken();
  const row: TokenRow = {
    id: ctx.ids.next(),
    user_id: userId,
    name: name?.trim() || null,
    created_at: nowIso(ctx),
    expires_at: tokenExpiry(ctx, input),
    last_used_at: null,
    revoked_at: null,
  };
  await ctx.db
    .insertInto('api_tokens')
    .values({ id: row.id, user_id: row.user_id, token_hash: hashToken(token), name: row.name, created_at: row.created_at, expires_at: row.expires_at })
    .execute();
  return { token, row };
}

/** Issues a token that never expires; answers the secret alone. */
export async function issueApiToken(ctx: Context, userId: string, name: string | null = null): Promise<string> {
  return (await createApiToken(ctx, userId, name)).token;
}

/** A user's tokens, newest first, revoked ones included (marked so). */
export async function listUserTokens(ctx: Context, userId: string, request: PageRequest): Promise<Page<TokenRow>> {
  const query = ctx.db.selectFrom('api_tokens').select(TOKEN_COLUMNS).where('user_id', '=', userId);
  return pageInCreationOrder(ctx.cursors, query, `api-tokens:${userId}`, request, { direction: 'desc' });
}

/** Every token of a user, newest first (the CLI's list). */
export async function allUserTokens(ctx: Context, userId: string): Promise<TokenRow[]> {
  return ctx.db.selectFrom('api_tokens').select(TOKEN_COLUMNS).where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
}

/**
 * Revokes a token: from then on it is refused (by this process at once, by others within the token cache
 * time). `ownerId` limits it to that user's tokens: another user's token is not found. Revoking a revoked
 * token changes nothing. Answers the token's hash, for the caller to forget it from the cache.
 */
export async function revokeApiToken(ctx: Context, tokenId: string, ownerId?: string): Promise<{ row: TokenRow; tokenHash: string; revoked: boolean }> {
  return inTransaction(ctx, async (tx) => {
    const found = await tx.db
      .selectFrom('api_tokens')
      .select([...TOKEN_COLUMNS, 'token_hash'])
      .where('id', '=', tokenId)
      .$if(ownerId !== undefined, (q) => q.where('user_id', '=', ownerId!))
      .executeTakeFirst();
    if (!found) throw new NotFound(`No API token "${tokenId}" is yours.`);
    const { token_hash: tokenHash, ...row } = found;
    if (row.revoked_at !== null) return { row, tokenHash, revoked: false };
    row.revoked_at = nowIso(tx);
    await tx.db.updateTable('api_tokens').set({ revoked_at: row.revoked_at }).where('id', '=', row.id).execute();
    // Delivered when (and only when) the revocation commits: every listening process forgets the token.
    if (tx.dialect === 'postgres') await sql`select pg_notify(${TOKEN_REVOKED_CHANNEL}, ${tokenHash})`.execute(tx.db);
    return { row, tokenHash, revoked: true };
  });
}

/** The caller's own tokens (the API). */
export function listMyTokens(ctx: Context, request: PageRequest): Promise<Page<TokenRow>> {
  return listUserTokens(ctx, requireActor(ctx).userId, request);
}

/** A new token for the caller (the API). */
export function createMyToken(ctx: Context, input: NewToken): Promise<{ token: string; row: TokenRow }> {
  return inTransaction(ctx, (tx) => createApiToken(tx, requireActor(tx).userId, input.name ?? null, input));
}

/** Revokes one of the caller's own tokens; anyone else's is not found. */
export function revokeMyToken(ctx: Context, tokenId: string): Promise<{ row: TokenRow; tokenHash: string; revoked: boolean }> {
  return revokeApiToken(ctx, tokenId, requireActor(ctx).userId);
}

/** 'active', 'expired' or 'revoked', as of the context's clock. */
export function tokenStatus(ctx: Pick<Context, 'clock'>, row: TokenRow): 'active' | 'expired' | 'revoked' {
  if (row.revoked_at !== null) return 'revoked';
  if (row.expires_at !== null && row.expires_at <= nowIso(ctx)) return 'expired';
  return 'active';
}
