import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { inTransaction } from '../../context.ts';
import { BadRequest, Forbidden, Gone } from '../../errors.ts';
import { consumePasswordLink, findPasswordLink, type LiveLink, type PasswordLinkPurpose } from '../../sessions/password-links.ts';
import { passwordProblem, storePassword } from '../../sessions/passwords.ts';
import { auditEntry, startSession } from '../../sessions/sign-in.ts';
import { opensInThisBrowser, OTHER_BROWSER } from './forgot-password-service.ts';
import { beginSecondFactor } from './second-factor.ts';
import { endUserSessions } from '../../sessions/store.ts';

export const DEAD_LINK = 'This link has been used already or has expired: ask for a new one.';

/** The live link a secret names, or 410; 403 when it works only in another browser (a reset the person asked for). */
export async function liveLink(ctx: Context, request: FastifyRequest, secret: string, purpose: PasswordLinkPurpose): Promise<LiveLink> {
  const link = await findPasswordLink(ctx, secret, purpose);
  if (!link) throw new Gone(DEAD_LINK);
  if (!opensInThisBrowser(request, link)) throw new Forbidden(OTHER_BROWSER);
  return link;
}

export interface SetPasswordInput {
  password: string;
  confirm: string;
  displayName?: string;
}

/**
 * Uses a one-time link: checks the new password, stores it (with the name an invitee chose), marks the
 * link used, ends every other session of the person (a reset locks out whoever knew the old password),
 * records a reset in the audit log (the user's id and whether they asked for it: no link, no password) and
 * signs them in. A link used by two requests at once works for one.
 */
export async function usePasswordLink(ctx: Context, request: FastifyRequest, reply: FastifyReply, secret: string, purpose: PasswordLinkPurpose, input: SetPasswordInput): Promise<'signed-in' | 'second-factor'> {
  const userId = await inTransaction(ctx, async (tx) => {
    const link = await liveLink(tx, request, secret, purpose);
    if (input.password !== input.confirm) throw new BadRequest('The two passwords are not the same: type the new password twice.');
    const problem = passwordProblem(input.password, link.email);
    if (problem) throw new BadRequest(problem);
    if (!(await consumePasswordLink(tx, link.id))) throw new Gone(DEAD_LINK);
    if (purpose === 'invite' && input.displayName !== undefined) {
      const name = input.displayName.trim();
      if (name === '' || name.length > 64) throw new BadRequest('Give your name (1 to 64 characters).');
      await tx.db.updateTable('users').set({ display_name: name }).where('id', '=', link.userId).execute();
    }
    await storePassword(tx, link.userId, input.password);
    await endUserSessions(tx, link.userId);
    if (purpose === 'reset') {
      await auditEntry(request, link.userId, 'resetPassword', { userId: link.userId, resetBy: link.browserHash === null ? 'link' : 'self-service' }).finish(tx, 200, null);
    }
    return link.userId;
  });
  // A reset proves the mailbox, not the passkey: someone with passkeys still gives one (or a recovery code).
  const passkey = await ctx.db.selectFrom('passkeys').select('id').where('user_id', '=', userId).limit(1).executeTakeFirst();
  if (passkey) {
    await beginSecondFactor(ctx, reply, userId, '/');
    return 'second-factor';
  }
  await startSession(ctx, request, reply, userId, purpose === 'invite' ? 'invite' : 'password');
  return 'signed-in';
}
