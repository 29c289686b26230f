import { randomBytes } from 'node:crypto';
import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import { hashToken } from '../secrets.ts';
import type { SessionsTable } from '../db/tables/sign-in.ts';

/**
 * Browser sessions, stored in the database: every process reads the same rows, so a session removed there
 * (sign-out, "sign out everywhere", `quire session revoke`, a password change) is refused by every process
 * on its next request. Nothing is cached in a process (see docs/decisions/0090-sessions-and-csrf.md).
 * The cookie carries a 256-bit random id; only its SHA-256 hash is stored.
 */

export const SIGN_IN_METHODS = ['password', 'passkey', 'oidc', 'saml', 'magic-link', 'invite'] as const;
export type SignInMethod = (typeof SIGN_IN_METHODS)[number];

/** A session's last use is written at most this often, with its idle expiry moved on. */
export const SESSION_USE_RESOLUTION_MS = 60_000;

/** A session as read: every column but the hash of its cookie's id. */
export type SessionRow = Omit<SessionsTable, 'token_hash'>;

const SESSION_COLUMNS = ['id', 'user_id', 'method', 'csrf_token', 'created_at', 'last_used_at', 'idle_expires_at', 'expires_at', 'device', 'ip'] as const;

export interface ResolvedSession {
  session: SessionRow;
  user: { id: string; email: string; display_name: string; photo_url: string | null };
}

const sessionByHash = preparedQuery((db, tokenHash: string) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select([
      'sessions.id',
      'sessions.user_id',
      'sessions.method',
      'sessions.csrf_token',
      'sessions.created_at',
      'sessions.last_used_at',
      'sessions.idle_expires_at',
      'sessions.expires_at',
      'sessions.device',
      'sessions.ip',
      'users.email',
      'users.display_name',
      'users.photo_url',
    ])
    .where('sessions.token_hash', '=', tokenHash),
);

/** When a session ends if it is not used again: the earlier of its idle and its absolute expiry. */
export function sessionEnds(session: Pick<SessionRow, 'idle_expires_at' | 'expires_at'>): string {
  return session.idle_expires_at < session.expires_at ? session.idle_expires_at : session.expires_at;
}

export interface NewSession {
  userId: string;
  method: SignInMethod;
  device: string | null;
  ip: string | null;
}

/** Creates a session; answers the cookie's secret (to set once, never kept) and the row. */
export async function createSession(ctx: Context, input: NewSession): Promise<{ secret: string; session: SessionRow }> {
  const secret = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const session: SessionRow = {
    id: ctx.ids.next(),
    user_id: input.userId,
    method: input.method,
    csrf_token: randomBytes(32).toString('base64url'),
    created_at: now.toISOString(),
    last_used_at: now.toISOString(),
    idle_expires_at: new Date(now.getTime() + ctx.config.sessionIdleHours * 3_600_000).toISOString(),
    expires_at: new Date(now.getTime() + ctx.config.sessionMaxDays * 86_400_000).toISOString(),
    device: input.device,
    ip: input.ip,
  };
  // The person's ended sessions go now (a session is otherwise removed when its cookie is next presented).
  await ctx.db
    .deleteFrom('sessions')
    .where('user_id', '=', input.userId)
    .where((eb) => eb.or([eb('expires_at', '<=', session.created_at), eb('idle_expires_at', '<=', session.created_at)]))
    .execute();
  await ctx.db.insertInto('sessions').values({ ...session, token_hash: hashToken(secret) }).execute();
  return { secret, session };
}

/**
 * The live session a cookie's secret names, with its user; undefined when it is unknown, ended, or past
 * its idle or absolute expiry (an expired row is removed on the way). Records the use (at most once a
 * minute), which moves the idle expiry on.
 */
export async function resolveSession(ctx: Context, secret: string, ip: string | null): Promise<ResolvedSession | undefined> {
  const tokenHash = hashToken(secret);
  const [row] = await sessionByHash(ctx, tokenHash);
  if (!row) return undefined;
  const now = ctx.clock.now();
  const stamp = now.toISOString();
  if (sessionEnds(row) <= stamp) {
    await ctx.db.deleteFrom('sessions').where('id', '=', row.id).execute();
    return undefined;
  }
  const { email, display_name, photo_url, ...session } = row;
  if (Date.parse(session.last_used_at) <= now.getTime() - SESSION_USE_RESOLUTION_MS || (ip !== null && ip !== session.ip)) {
    const stale = new Date(now.getTime() - SESSION_USE_RESOLUTION_MS).toISOString();
    const idle = new Date(now.getTime() + ctx.config.sessionIdleHours * 3_600_000).toISOString();
    // Conditional, so processes that see the same stale time write it once between them.
    await ctx.db
      .updateTable('sessions')
      .set({ last_used_at: stamp, idle_expires_at: idle, ip })
      .where('id', '=', session.id)
      .where((eb) => eb.or([eb('last_used_at', '<=', stale), ...(ip === null ? [] : [eb('ip', 'is', null), eb('ip', '!=', ip)])]))
      .execute();
    session.last_used_at = stamp;
    session.idle_expires_at = idle;
    session.ip = ip;
  }
  return { session, user: { id: session.user_id, email, display_name, photo_url } };
}

/** Ends the session a cookie's secret names, if any; answers whether one ended. */
export async function endSessionBySecret(ctx: Context, secret: string): Promise<boolean> {
  const result = await ctx.db.deleteFrom('sessions').where('token_hash', '=', hashToken(secret)).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends one session of a user (their "sign out" of one device); answers whether it existed. */
export async function endSession(ctx: Context, userId: string, sessionId: string): Promise<boolean> {
  const result = await ctx.db.deleteFrom('sessions').where('id', '=', sessionId).where('user_id', '=', userId).executeTakeFirst();
  return Number(result.numDeletedRows) > 0;
}

/** Ends every session of a user, but the one named in `except`; answers how many ended. */
export async function endUserSessions(ctx: Context, userId: string, except?: string): Promise<number> {
  const result = await ctx.db
    .deleteFrom('sessions')
    .where('user_id', '=', userId)
    .$if(except !== undefined, (q) => q.where('id', '!=', except!))
    .executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** A user's live sessions, most recently used first. */
export async function listUserSessions(ctx: Context, userId: string): Promise<SessionRow[]> {
  const now = nowIso(ctx);
  return ctx.db
    .selectFrom('sessions')
    .select(SESSION_COLUMNS)
    .where('user_id', '=', userId)
    .where('expires_at', '>', now)
    .where('idle_expires_at', '>', now)
    .orderBy('last_used_at', 'desc')
    .orderBy('id', 'desc')
    .execute();
}
