import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { inTransaction } from '../../context.ts';
import { BadRequest, Gone } from '../../errors.ts';
import { consumePasswordLink, findPasswordLink, type LiveLink, type PasswordLinkPurpose } from '../../sessions/password-links.ts';
import { passwordProblem, storePassword } from '../../sessions/passwords.ts';
import { startSession } from '../../sessions/sign-in.ts';
import { endUserSessions } from '../../sessions/store.ts';

export const DEAD_LINK = 'This link has been used already or has expired: ask an administrator for a new one.';

/** The live link a secret names, or 410. */
export async function liveLink(ctx: Context, secret: string, purpose: PasswordLinkPurpose): Promise<LiveLink> {
  const link = await findPasswordLink(ctx, secret, purpose);
  if (!link) throw new Gone(DEAD_LINK);
  return link;
}

export interface SetPasswordInput {
  password: string;
  confirm: string;
  displayName?: string;
}

/**
 * Uses a one-time link: checks the new password, stores it (with the name an invitee chose), marks the
 * link used, ends every other session of the person (a reset locks out whoever knew the old password) and
 * signs them in. A link used by two requests at once works for one.
 */
export async function usePasswordLink(ctx: Context, request: FastifyRequest, reply: FastifyReply, secret: string, purpose: PasswordLinkPurpose, input: SetPasswordInput): Promise<void> {
  const userId = await inTransaction(ctx, async (tx) => {
    const link = await liveLink(tx, secret, purpose);
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
    return link.userId;
  });
  await startSession(ctx, request, reply, userId, purpose === 'invite' ? 'invite' : 'password');
}
