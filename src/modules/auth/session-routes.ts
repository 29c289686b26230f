import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyNoContent } from '../../http/replies.ts';
import { errorResponses } from '../../http/schemas.ts';
import { clearSessionCookie, endRequestSession, requestSessionSecret } from '../../sessions/sign-in.ts';
import { formFields, pageSession, registerFormParsing } from './forms.ts';
import { presentCurrentSession } from './presenter.ts';
import { CurrentSessionSchema } from './schemas.ts';
import { currentSession } from './session-service.ts';

/** The browser session itself, outside /v1 (the workspace reads it at start; it has no token to send). */
export const sessionRoutes: FastifyPluginAsyncTypebox = async (app) => {
  registerFormParsing(app);

  app.get(
    '/auth/session',
    {
      config: { policy: 'public' },
      schema: {
        tags: ['sessions'],
        operationId: 'getCurrentSession',
        summary: 'The signed-in person of this browser session, and the CSRF token its writes must carry (Quire\'s own; cookie only)',
        security: [],
        response: { 200: CurrentSessionSchema, 401: errorResponses[401] },
      },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      try {
        return presentCurrentSession(await currentSession(request.ctx, request));
      } catch (error) {
        // A cookie that names no live session is dropped, so the browser stops sending it.
        if (requestSessionSecret(request) !== undefined) clearSessionCookie(request.ctx, reply);
        throw error;
      }
    },
  );

  // Sign out: a form post from Quire's pages (field _csrf) or a script of the workspace (header X-CSRF-Token).
  // A form is sent on to the sign-in page; a script gets 204.
  app.post(
    '/sign-out',
    { config: { policy: 'public' }, schema: { hide: true } },
    async (request, reply) => {
      await pageSession(request);
      await endRequestSession(request.ctx, request, reply);
      reply.header('cache-control', 'no-store');
      if (formFields(request)._csrf !== undefined) return reply.redirect('/sign-in?signedOut=1', 303);
      return replyNoContent(reply);
    },
  );
};
