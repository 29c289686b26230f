import type { FastifyBaseLogger } from 'fastify';
import type { Mailer } from '../../mail/mailer.ts';
import { invitationMail, inviteMail } from '../../mail/messages.ts';
import { INVITATION_DAYS } from './pending.ts';
import type { InviteUsersResult } from './service.ts';

const INVITE_DAYS = 7;

/**
 * Where mail is configured, each newcomer's one-time link goes to them by mail and is left out of the
 * answer; a link whose mail could not be sent stays in the answer, for the administrator to pass on.
 * Sent after the invitation committed (a mail cannot be taken back).
 */
export async function mailSignInLinks(mailer: Mailer, log: FastifyBaseLogger, organizationTitle: string, accountUrl: string, result: InviteUsersResult): Promise<Omit<InviteUsersResult, 'organizationTitle'>> {
  const { organizationTitle: _title, ...answer } = result;
  if (!mailer.enabled) return answer;
  // People Quire knew already are told where to accept; the invitation waits on their account page either way.
  for (const pending of answer.pendingInvitations ?? []) {
    try {
      await mailer.send(invitationMail(pending.email, organizationTitle, accountUrl, INVITATION_DAYS));
    } catch (error) {
      log.warn({ err: { message: (error as Error).message } }, 'an invitation mail could not be sent; the invitation waits on the person\'s account page');
    }
  }
  if (!answer.signInLinks) return answer;
  const unsent: NonNullable<InviteUsersResult['signInLinks']> = [];
  for (const link of answer.signInLinks) {
    try {
      await mailer.send(inviteMail(link.email, organizationTitle, link.url, INVITE_DAYS));
    } catch (error) {
      // Never the link itself: it signs the person in.
      log.warn({ err: { message: (error as Error).message }, userId: link.userId }, 'an invite mail could not be sent; its link is in the answer instead');
      unsent.push(link);
    }
  }
  const { signInLinks: _sent, ...rest } = answer;
  return unsent.length > 0 ? { ...rest, signInLinks: unsent } : rest;
}
