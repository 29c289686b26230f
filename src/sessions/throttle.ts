import { createHash } from 'node:crypto';
import type { Context } from '../context.ts';
import { countInWindow, currentCount, resetCount } from '../db/counters.ts';

/**
 * The sign-in throttle, in the counters every process shares (the `rate_limits` table): per account, the
 * failed attempts on one address (keyed by the hash of the address typed, known to Quire or not, so the
 * throttle says nothing about who has an account); per client address, every attempt (three times the
 * account limit, for offices behind one address). QUIRE_SIGN_IN_ATTEMPTS per 15 minutes.
 */
export const THROTTLE_WINDOW_MS = 15 * 60_000;
const ADDRESS_FACTOR = 3;

function accountKey(email: string): string {
  return `sign-in:account:${createHash('sha256').update(email).digest('base64url').slice(0, 32)}`;
}

function addressKey(ip: string): string {
  return `sign-in:address:${ip}`;
}

export interface ThrottleVerdict {
  allowed: boolean;
  /** Minutes until another attempt is allowed (when refused). */
  retryMinutes: number;
}

/**
 * Counts an attempt from `ip` for `email` and says whether it may go ahead: refused when the address has
 * made too many attempts, or the account has had too many failures, in the current window.
 */
export async function admitSignIn(ctx: Context, email: string, ip: string): Promise<ThrottleVerdict> {
  const now = ctx.clock.now().getTime();
  const limit = ctx.config.signInAttempts;
  const address = await countInWindow(ctx.db, addressKey(ip), THROTTLE_WINDOW_MS, now);
  const retryMinutes = Math.max(1, Math.ceil((address.windowEnds - now) / 60_000));
  if (address.count > limit * ADDRESS_FACTOR) return { allowed: false, retryMinutes };
  if ((await currentCount(ctx.db, accountKey(email), now)) >= limit) return { allowed: false, retryMinutes: Math.ceil(THROTTLE_WINDOW_MS / 60_000) };
  return { allowed: true, retryMinutes: 0 };
}

/** Records a failed attempt on an account. */
export async function recordSignInFailure(ctx: Context, email: string): Promise<void> {
  await countInWindow(ctx.db, accountKey(email), THROTTLE_WINDOW_MS, ctx.clock.now().getTime());
}

/** A successful sign-in clears its account's failures. */
export async function clearSignInFailures(ctx: Context, email: string): Promise<void> {
  await resetCount(ctx.db, accountKey(email));
}
