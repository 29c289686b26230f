import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { safeReturnTo, startSession } from '../../sessions/sign-in.ts';
import { findPasswordLink, type PasswordLinkPurpose } from '../../sessions/password-links.ts';
import { Forbidden, TooManyRequests, Unauthorized } from '../../errors.ts';
import { admitSignIn, recordSignInFailure } from '../../sessions/throttle.ts';
import { deadLinkPage, setPasswordPage } from './pages/set-password.ts';
import { secondFactorPage } from './pages/second-factor.ts';
import { usePasswordLink } from './set-password-service.ts';
import { useRecoveryCode } from './passkey-service.ts';
import { findAuthAsset } from './assets.ts';
import { formFields, fromOwnOrigin, refusalMessage, registerFormParsing } from './forms.ts';
import { sendPage } from './pages/html.ts';
import { signInPage } from './pages/sign-in.ts';
import { forgotPasswordPage, otherBrowserPage, resetOffPage, resetSentPage } from './pages/forgot-password.ts';
import { checkResetForm, opensInThisBrowser, OTHER_BROWSER, requestPasswordReset, resetBrowserId, resetFormProof } from './forgot-password-service.ts';
import { SELF_SERVICE_RESET_MINUTES } from '../../sessions/password-links.ts';
import { checkPassword } from './password-service.ts';
import { beginSecondFactor, endSecondFactor, pendingEmail, pendingSecondFactor } from './second-factor.ts';

/** The sign-in pages, server-rendered (no script needed for passwords) under a strict CSP. */
export const signInPageRoutes: FastifyPluginAsync = async (app) => {
  registerFormParsing(app);
  const open = { config: { policy: 'public' as const }, schema: { hide: true } };

  app.get('/auth/assets/:name', open, async (request, reply) => {
    const found = findAuthAsset((request.params as { name: string }).name);
    if (!found) return reply.callNotFound();
    if (request.headers['if-none-match'] === found.etag) return reply.code(304).send();
    return reply.header('content-type', found.type).header('cache-control', 'public, max-age=3600').header('etag', found.etag).header('x-content-type-options', 'nosniff').send(found.body);
  });

  app.get('/sign-in', open, async (request, reply) => {
    const query = request.query as Record<string, string | undefined>;
    return sendPage(reply, 200, signInPage({ returnTo: safeReturnTo(query.returnTo), info: query.signedOut ? 'You have signed out.' : undefined, mail: request.server.mailer.enabled }));
  });

  app.post('/sign-in', open, async (request: FastifyRequest, reply: FastifyReply) => {
    const fields = formFields(request);
    const returnTo = safeReturnTo(fields.returnTo);
    const email = (fields.email ?? '').trim();
    if (!fromOwnOrigin(request)) return sendPage(reply, 403, signInPage({ returnTo, error: 'This sign-in form was sent from another site: refused as a possible cross-site request forgery (CSRF). Sign in from this page.' }));
    if (email === '' || !fields.password) return sendPage(reply, 400, signInPage({ returnTo, email, error: 'Enter your e-mail address and your password.' }));
    try {
      const result = await checkPassword(request.ctx, email, fields.password, request.ip);
      if (result.needsSecondFactor) {
        await beginSecondFactor(request.ctx, reply, result.userId, returnTo);
        return reply.redirect('/sign-in/second-factor', 303);
      }
      await startSession(request.ctx, request, reply, result.userId, 'password');
      return reply.redirect(returnTo, 303);
    } catch (error) {
      const { status, message } = refusalMessage(error);
      return sendPage(reply, status, signInPage({ returnTo, email, error: message, mail: request.server.mailer.enabled }));
    }
  });

  // "Forgot password?": a reset link by mail, bound to this browser (forgot-password-service.ts).
  app.get('/reset-password', open, async (request, reply) => {
    if (!request.server.mailer.enabled) return sendPage(reply, 200, resetOffPage());
    const browser = resetBrowserId(request.ctx, request, reply);
    return sendPage(reply, 200, forgotPasswordPage({ proof: resetFormProof(request.ctx, browser) }));
  });

  app.post('/reset-password', open, async (request, reply) => {
    const ctx = request.ctx;
    const mailer = request.server.mailer;
    if (!mailer.enabled) return sendPage(reply, 200, resetOffPage());
    const fields = formFields(request);
    const email = (fields.email ?? '').slice(0, 300);
    let browser: string | undefined;
    try {
      if (!fromOwnOrigin(request)) throw new Forbidden('This form was sent from another site: refused as a possible cross-site request forgery (CSRF). Use the "Forgot password?" page of this site.');
      browser = checkResetForm(ctx, request, fields._form);
      await requestPasswordReset(ctx, mailer, request.log, request.ip, browser, email);
    } catch (error) {
      const { status, message } = refusalMessage(error);
      const proof = resetFormProof(ctx, browser ?? resetBrowserId(ctx, request, reply));
      return sendPage(reply, status, forgotPasswordPage({ proof, email: status === 400 ? email : undefined, error: message }));
    }
    return sendPage(reply, 200, resetSentPage(SELF_SERVICE_RESET_MINUTES));
  });

  // The second step of a password sign-in for people with passkeys (the passkey half is passkeys.js).
  app.get('/sign-in/second-factor', open, async (request, reply) => {
    if (!(await pendingSecondFactor(request.ctx, request))) return reply.redirect('/sign-in', 303);
    return sendPage(reply, 200, secondFactorPage());
  });

  app.post('/sign-in/second-factor', open, async (request, reply) => {
    const ctx = request.ctx;
    const pending = await pendingSecondFactor(ctx, request);
    if (!pending || !fromOwnOrigin(request)) return reply.redirect('/sign-in', 303);
    const user = { email: await pendingEmail(ctx, pending.userId) };
    try {
      // Recovery codes are throttled with the account's password failures.
      const verdict = await admitSignIn(ctx, user.email, request.ip);
      if (!verdict.allowed) throw new TooManyRequests(`Too many sign-in attempts: wait ${verdict.retryMinutes} minutes and try again.`);
      if (!(await useRecoveryCode(ctx, pending.userId, formFields(request).code ?? ''))) {
        await recordSignInFailure(ctx, user.email);
        throw new Unauthorized('That is not one of your unused recovery codes. Check it, or use your passkey.');
      }
    } catch (error) {
      const { status, message } = refusalMessage(error);
      return sendPage(reply, status, secondFactorPage(message));
    }
    await endSecondFactor(ctx, reply, pending.id);
    await startSession(ctx, request, reply, pending.userId, 'password');
    return reply.redirect(pending.returnTo, 303);
  });

  // One-time links that set a password: an invite's first password, and a reset.
  const linkPages = (prefix: string, purpose: PasswordLinkPurpose) => {
    app.get(`${prefix}/:secret`, open, async (request, reply) => {
      const { secret } = request.params as { secret: string };
      const link = await findPasswordLink(request.ctx, secret, purpose);
      if (!link) return sendPage(reply, 410, deadLinkPage());
      if (!opensInThisBrowser(request, link)) return sendPage(reply, 403, otherBrowserPage(OTHER_BROWSER));
      return sendPage(reply, 200, setPasswordPage({ purpose, email: link.email, displayName: link.displayName }));
    });
    app.post(`${prefix}/:secret`, open, async (request, reply) => {
      const { secret } = request.params as { secret: string };
      const fields = formFields(request);
      const link = await findPasswordLink(request.ctx, secret, purpose);
      if (!link) return sendPage(reply, 410, deadLinkPage());
      if (!opensInThisBrowser(request, link)) return sendPage(reply, 403, otherBrowserPage(OTHER_BROWSER));
      const view = { purpose, email: link.email, displayName: fields.displayName ?? link.displayName };
      if (!fromOwnOrigin(request)) return sendPage(reply, 403, setPasswordPage({ ...view, error: 'This form was sent from another site: refused as a possible cross-site request forgery (CSRF).' }));
      let outcome: 'signed-in' | 'second-factor';
      try {
        outcome = await usePasswordLink(request.ctx, request, reply, secret, purpose, { password: fields.password ?? '', confirm: fields.confirm ?? '', displayName: purpose === 'invite' ? fields.displayName : undefined });
      } catch (error) {
        const { status, message } = refusalMessage(error);
        if (status === 410) return sendPage(reply, 410, deadLinkPage());
        if (message === OTHER_BROWSER) return sendPage(reply, 403, otherBrowserPage(OTHER_BROWSER));
        return sendPage(reply, status, setPasswordPage({ ...view, error: message }));
      }
      return reply.redirect(outcome === 'second-factor' ? '/sign-in/second-factor' : '/', 303);
    });
  };
  linkPages('/invite', 'invite');
  linkPages('/reset-password', 'reset');
};
