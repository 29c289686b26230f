import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { BadRequest } from '../../errors.ts';
import { passwordProblem, storePassword, storedPassword } from '../../sessions/passwords.ts';
import { clearSessionCookie, rotateSession, type SignInMethod } from '../../sessions/sign-in.ts';
import { endSession, endUserSessions, type ResolvedSession } from '../../sessions/store.ts';
import { removeMember } from '../members/service.ts';
import { acceptInvitation, declineInvitation } from '../invites/pending.ts';
import { updateUser } from '../users/service.ts';
import { createMyToken, revokeMyToken } from '../users/tokens.ts';
import { loadAccount, photoAddress } from './account-service.ts';
import { formFields, pageSession, refusalMessage, registerFormParsing } from './forms.ts';
import { sendPage } from './pages/html.ts';
import { accountPage, type AccountPageOptions } from './pages/account.ts';
import { checkPassword } from './password-service.ts';
import { removePasskey, replaceRecoveryCodes } from './passkey-service.ts';

/** What a change answers when it signed this browser out. */
const SIGNED_OUT = Symbol('signed out');

/** Confirmations after a change (the page is shown again with one of these, never with text from the request). */
const DONE: Record<string, string> = {
  profile: 'Your profile is saved.',
  password: 'Your password is changed. Every other session of yours has been signed out.',
  session: 'That session is signed out.',
  sessions: 'Every other session of yours is signed out.',
  'token-revoked': 'The token is revoked: it no longer works.',
  left: 'You have left the organization.',
  joined: 'You have joined the organization.',
  declined: 'The invitation is declined.',
  'no-invitation': 'That invitation is no longer open: it was answered already, withdrawn or has expired.',
  'passkey-added': 'Your passkey is added. Create recovery codes below, in case you lose it.',
  'passkey-removed': 'The passkey is removed.',
};

/** The account page and its forms; every form carries the session's CSRF token (`_csrf`). */
export const accountRoutes: FastifyPluginAsync = async (app) => {
  registerFormParsing(app);
  const open = { config: { policy: 'public' as const }, schema: { hide: true } };

  /** The session of the request, or a redirect to the sign-in page (then undefined). */
  const signedIn = async (request: FastifyRequest, reply: FastifyReply): Promise<ResolvedSession | undefined> => {
    const session = await pageSession(request);
    if (!session) void reply.redirect('/sign-in?returnTo=%2Faccount', 303);
    return session;
  };

  const show = async (request: FastifyRequest, reply: FastifyReply, session: ResolvedSession, status: number, options: Omit<AccountPageOptions, 'csrf' | 'currentSessionId'>) =>
    sendPage(reply, status, accountPage(await loadAccount(request.ctx), { csrf: session.session.csrf_token, currentSessionId: session.session.id, ...options }));

  /**
   * Runs a form's change; a refusal shows the page again with its message, success sends to /account?done=…,
   * or to the sign-in page when the change signed this browser out (`SIGNED_OUT`). The destination is decided
   * here once: `reply.sent` is not yet true after a redirect while asynchronous send hooks run.
   */
  const change = (work: (request: FastifyRequest, reply: FastifyReply, session: ResolvedSession) => Promise<string | typeof SIGNED_OUT | void>) => async (request: FastifyRequest, reply: FastifyReply) => {
    const session = await signedIn(request, reply);
    if (!session) return reply;
    try {
      const done = await work(request, reply, session);
      if (done === SIGNED_OUT) return reply.redirect('/sign-in?signedOut=1', 303);
      return reply.redirect(done ? `/account?done=${done}` : '/account', 303);
    } catch (error) {
      const { status, message } = refusalMessage(error);
      return show(request, reply, session, status, { error: message });
    }
  };

  app.get('/account', open, async (request, reply) => {
    const session = await signedIn(request, reply);
    if (!session) return reply;
    const done = (request.query as Record<string, string | undefined>).done;
    return show(request, reply, session, 200, { info: done ? DONE[done] : undefined });
  });

  app.post('/account/profile', open, change(async (request, _reply, session) => {
    const fields = formFields(request);
    const photoURL = photoAddress(fields.photoURL);
    await updateUser(request.ctx, session.user.id, { displayName: fields.displayName ?? '', ...(photoURL ? { photoURL } : {}) });
    return 'profile';
  }));

  app.post('/account/password', open, change(async (request, reply, session) => {
    const fields = formFields(request);
    const ctx = request.ctx;
    if ((await storedPassword(ctx, session.user.id)) !== undefined) {
      // The current password, throttled like a sign-in: a session left open must not let anyone take the account.
      await checkPassword(ctx, session.user.email, fields.current ?? '', request.ip);
    }
    if ((fields.password ?? '') !== (fields.confirm ?? '')) throw new BadRequest('The two new passwords are not the same: type the new password twice.');
    const problem = passwordProblem(fields.password ?? '', session.user.email);
    if (problem) throw new BadRequest(problem);
    await storePassword(ctx, session.user.id, fields.password!);
    await endUserSessions(ctx, session.user.id, session.session.id);
    await rotateSession(ctx, request, reply, session.user.id, session.session.method as SignInMethod);
    return 'password';
  }));

  app.post('/account/sessions/:sessionId/end', open, change(async (request, reply, session) => {
    const { sessionId } = request.params as { sessionId: string };
    await endSession(request.ctx, session.user.id, sessionId);
    if (sessionId === session.session.id) {
      clearSessionCookie(request.ctx, reply);
      return SIGNED_OUT;
    }
    return 'session';
  }));

  app.post('/account/sessions/end-others', open, change(async (request, _reply, session) => {
    await endUserSessions(request.ctx, session.user.id, session.session.id);
    return 'sessions';
  }));

  app.post('/account/sessions/end-all', open, change(async (request, reply, session) => {
    await endUserSessions(request.ctx, session.user.id);
    clearSessionCookie(request.ctx, reply);
    return SIGNED_OUT;
  }));

  app.post('/account/tokens', open, async (request, reply) => {
    const session = await signedIn(request, reply);
    if (!session) return reply;
    const fields = formFields(request);
    try {
      const expiresIn = fields.expiresIn?.trim() ? fields.expiresIn.trim() : undefined;
      const { token } = await createMyToken(request.ctx, { name: fields.name?.trim() || null, ...(expiresIn ? { expiresIn } : {}) });
      // The secret is in this page only: it is never stored, so it cannot be shown again.
      return show(request, reply, session, 200, { newToken: token });
    } catch (error) {
      const { status, message } = refusalMessage(error);
      return show(request, reply, session, status, { error: message });
    }
  });

  app.post('/account/tokens/:tokenId/revoke', open, change(async (request) => {
    const { tokenHash } = await revokeMyToken(request.ctx, (request.params as { tokenId: string }).tokenId);
    request.server.tokens.forget(tokenHash);
    return 'token-revoked';
  }));

  app.post('/account/organizations/:organizationId/leave', open, change(async (request, reply, session) => {
    await removeMember(request.ctx, (request.params as { organizationId: string }).organizationId, session.user.id);
    // Fewer rights: a new session id, as for every change of privilege.
    await rotateSession(request.ctx, request, reply, session.user.id, session.session.method as SignInMethod);
    return 'left';
  }));

  app.post('/account/invitations/:organizationId/:invitationId/accept', open, change(async (request, reply, session) => {
    const { organizationId, invitationId } = request.params as { organizationId: string; invitationId: string };
    if (!(await acceptInvitation(request.ctx, organizationId, invitationId))) return 'no-invitation';
    // More rights: a new session id, as for every change of privilege.
    await rotateSession(request.ctx, request, reply, session.user.id, session.session.method as SignInMethod);
    return 'joined';
  }));

  app.post('/account/invitations/:organizationId/:invitationId/decline', open, change(async (request) => {
    const { organizationId, invitationId } = request.params as { organizationId: string; invitationId: string };
    return (await declineInvitation(request.ctx, organizationId, invitationId)) ? 'declined' : 'no-invitation';
  }));

  app.post('/account/passkeys/:passkeyId/remove', open, change(async (request, reply, session) => {
    await removePasskey(request.ctx, session.user.id, (request.params as { passkeyId: string }).passkeyId);
    await rotateSession(request.ctx, request, reply, session.user.id, session.session.method as SignInMethod);
    return 'passkey-removed';
  }));

  app.post('/account/recovery-codes', open, async (request, reply) => {
    const session = await signedIn(request, reply);
    if (!session) return reply;
    try {
      const codes = await replaceRecoveryCodes(request.ctx, session.user.id);
      return show(request, reply, session, 200, { recoveryCodes: codes });
    } catch (error) {
      const { status, message } = refusalMessage(error);
      return show(request, reply, session, status, { error: message });
    }
  });
};
