import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { QuireError } from '../../errors.ts';
import { safeReturnTo, startSession } from '../../sessions/sign-in.ts';
import { findAuthAsset } from './assets.ts';
import { formFields, registerFormParsing } from './forms.ts';
import { sendPage } from './pages/html.ts';
import { signInPage } from './pages/sign-in.ts';
import { checkPassword } from './password-service.ts';
import { beginSecondFactor } from './second-factor.ts';

/** Whether a form post without a session comes from Quire's own pages (a browser sends Origin with every POST it makes). */
export function fromOwnOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return typeof origin !== 'string' || origin === new URL(request.ctx.config.publicUrl).origin;
}

/** The message of a refusal to show on a page; anything unexpected propagates to the error handler. */
export function refusalMessage(error: unknown): { status: number; message: string } {
  if (error instanceof QuireError) return { status: error.status, message: error.message };
  throw error;
}

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
    return sendPage(reply, 200, signInPage({ returnTo: safeReturnTo(query.returnTo), info: query.signedOut ? 'You have signed out.' : undefined }));
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
      return sendPage(reply, status, signInPage({ returnTo, email, error: message }));
    }
  });
};
