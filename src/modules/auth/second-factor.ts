import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { nowIso } from '../../context.ts';
import { hashToken } from '../../secrets.ts';
import { appendSetCookie, readCookie, serializeCookie } from '../../sessions/cookie.ts';

/**
 * The step between a right password and a session, for people who have passkeys: the password opened a
 * pending sign-in (a row of webauthn_challenges, purpose 'second-factor', named by a short-lived cookie),
 * which a passkey of that person, or one of their recovery codes, completes. No session exists before.
 */
export const SECOND_FACTOR_COOKIE = 'quire_second_factor';
const PENDING_MS = 5 * 60_000;

export async function beginSecondFactor(ctx: Context, reply: FastifyReply, userId: string, returnTo: string): Promise<void> {
  const secret = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('webauthn_challenges').where('expires_at', '<=', now.toISOString()).execute();
  await ctx.db
    .insertInto('webauthn_challenges')
    .values({
      id: ctx.ids.next(),
      token_hash: hashToken(secret),
      challenge: '',
      purpose: 'second-factor',
      user_id: userId,
      return_to: returnTo,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + PENDING_MS).toISOString(),
    })
    .execute();
  appendSetCookie(reply, serializeCookie(ctx.config, SECOND_FACTOR_COOKIE, secret, { maxAge: PENDING_MS / 1000 }));
}

export interface PendingSignIn {
  id: string;
  userId: string;
  returnTo: string;
  challenge: string;
}

/** The pending sign-in the request's cookie names, if it is still live. */
export async function pendingSecondFactor(ctx: Context, request: FastifyRequest): Promise<PendingSignIn | undefined> {
  const secret = readCookie(request.headers.cookie, SECOND_FACTOR_COOKIE);
  if (!secret) return undefined;
  const row = await ctx.db
    .selectFrom('webauthn_challenges')
    .select(['id', 'user_id', 'return_to', 'challenge'])
    .where('token_hash', '=', hashToken(secret))
    .where('purpose', '=', 'second-factor')
    .where('expires_at', '>', nowIso(ctx))
    .executeTakeFirst();
  if (!row || row.user_id === null) return undefined;
  return { id: row.id, userId: row.user_id, returnTo: row.return_to ?? '/', challenge: row.challenge };
}

/** Ends a pending sign-in (completed, or abandoned) and drops its cookie. */
export async function endSecondFactor(ctx: Context, reply: FastifyReply, pendingId: string): Promise<void> {
  await ctx.db.deleteFrom('webauthn_challenges').where('id', '=', pendingId).execute();
  appendSetCookie(reply, serializeCookie(ctx.config, SECOND_FACTOR_COOKIE, '', { maxAge: 0 }));
}

/** The e-mail of the person a second factor is pending for: the sign-in throttle counts by it. */
export async function pendingEmail(ctx: Pick<Context, 'db'>, userId: string): Promise<string> {
  const user = await ctx.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirstOrThrow();
  return user.email;
}
