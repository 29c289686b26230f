import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.ts';
import { presentChanges } from './presenter.ts';
import { ChangeRequestChangesParams, ChangesQuery, RevisionChangesParams, SemanticChangesSchema } from './schemas.ts';
import { changeRequestChanges, revisionChanges } from './service.ts';

/** What a change request or a revision changes: pages, files, reusable contents, variables, with Markdown diffs. */
export const changeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/changes',
    {
      config: { policy: 'space.view' },
      schema: {
        tags: ['change-requests'],
        operationId: 'getChangeRequestChanges',
        summary: 'What a change request changes from the space content it started from: pages added, removed, moved, edited (with a Markdown diff), files, reusable contents, variables',
        params: ChangeRequestChangesParams,
        querystring: ChangesQuery,
        response: { 200: SemanticChangesSchema, ...errorResponses },
      },
    },
    async (request) => presentChanges(request.ctx, await changeRequestChanges(request.ctx, request.params.spaceId, request.params.changeRequestId, request.query.limit)),
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/changes',
    {
      config: { policy: 'space.view' },
      schema: {
        tags: ['spaces'],
        operationId: 'getRevisionSemanticChanges',
        summary: 'What a revision changed from its first parent; a merge revision names the change request it merged',
        params: RevisionChangesParams,
        querystring: ChangesQuery,
        response: { 200: SemanticChangesSchema, ...errorResponses },
      },
    },
    async (request) => presentChanges(request.ctx, await revisionChanges(request.ctx, request.params.spaceId, request.params.revisionId, request.query.limit)),
  );
};
