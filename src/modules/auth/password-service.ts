import type { Context } from '../../context.ts';
import { TooManyRequests, Unauthorized } from '../../errors.ts';
import { storedPassword, verifyPassword } from '../../sessions/passwords.ts';
import { admitSignIn, clearSignInFailures, recordSignInFailure } from '../../sessions/throttle.ts';
import { normalizeEmail } from '../users/service.ts';

/** The one answer to a wrong address or a wrong password: it never says which. */
export const NEUTRAL_REFUSAL = 'That e-mail address and password do not match an account that can sign in with a password. Check them and try again.';

export interface PasswordSignIn {
  userId: string;
  /** The person has passkeys: a password alone is not enough, a passkey (or a recovery code) must follow. */
  needsSecondFactor: boolean;
}

/**
 * Checks an address and a password. Throttled per address typed and per client address (429 with the
 * minutes to wait); an unknown address, a user without a password and a wrong password get the same 401,
 * after the same work (a decoy hash is verified when there is no hash to check).
 */
export async function checkPassword(ctx: Context, rawEmail: string, password: string, ip: string): Promise<PasswordSignIn> {
  const email = normalizeEmail(rawEmail);
  const verdict = await admitSignIn(ctx, email, ip);
  if (!verdict.allowed) {
    throw new TooManyRequests(`Too many sign-in attempts: wait ${verdict.retryMinutes} minute${verdict.retryMinutes === 1 ? '' : 's'} and try again, or ask an administrator to reset your password.`);
  }
  const user = await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  const stored = user ? await storedPassword(ctx, user.id) : undefined;
  const matches = await verifyPassword(stored, password);
  if (!user || !matches) {
    await recordSignInFailure(ctx, email);
    throw new Unauthorized(NEUTRAL_REFUSAL);
  }
  await clearSignInFailures(ctx, email);
  const passkey = await ctx.db.selectFrom('passkeys').select('id').where('user_id', '=', user.id).limit(1).executeTakeFirst();
  return { userId: user.id, needsSecondFactor: passkey !== undefined };
}
