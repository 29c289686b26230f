import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { replyRemoval } from '../../http/replies.ts';
import { errorResponses, removalResponses } from '../../http/schemas.ts';
import { presentSession } from './presenter.ts';
import { EndedSessionsSchema, EndSessionsQuery, SessionParams, SessionSchema } from './schemas.ts';
import { endMySession, endMySessions, listMySessions } from './session-service.ts';

/** Quire's own operations on the caller's browser sessions (GitBook's API has none), under /v1. */
export const accountApiRoutes: FastifyPluginAsyncTypebox = async (app) => {
  const tags = ['sessions'];
  app.get(
    '/user/sessions',
    {
      config: { policy: 'authenticated' },
      schema: {
        tags,
        operationId: 'listMySessions',
        summary: 'Your active browser sessions, most recently used first',
        response: { 200: Type.Object({ count: Type.Integer(), items: Type.Array(SessionSchema) }), ...errorResponses },
      },
    },
    async (request) => {
      const rows = await listMySessions(request.ctx);
      return { count: rows.length, items: rows.map((row) => presentSession(row, request.ctx.actor?.sessionId)) };
    },
  );

  app.delete(
    '/user/sessions/:sessionId',
    {
      config: { policy: 'authenticated' },
      schema: { tags, operationId: 'endMySession', summary: 'Sign out one of your sessions (its browser is refused at once)', params: SessionParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => {
      await endMySession(request.ctx, request.params.sessionId);
      return replyRemoval(reply, true);
    },
  );

  app.delete(
    '/user/sessions',
    {
      config: { policy: 'authenticated' },
      schema: { tags, operationId: 'endMySessions', summary: 'Sign out everywhere: end all your sessions (or all but this one)', querystring: EndSessionsQuery, response: { 200: EndedSessionsSchema, ...errorResponses } },
    },
    async (request) => ({ ended: await endMySessions(request.ctx, request.query.keepCurrent === true) }),
  );
};
