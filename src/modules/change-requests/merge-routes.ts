import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.ts';
import { mergeChangeRequest, updateChangeRequestFromSpace } from './merge-service.ts';
import { ChangeRequestParams, MergeChangeRequestResult, UpdateChangeRequestResult } from './schemas.ts';

const tags = ['change-requests'];
const errors = { ...errorResponses, 423: errorResponses[409] };

/** Merging a change request into its space, and pulling the space's content into a change request. */
export const changeRequestMergeRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/merge',
    {
      config: { policy: 'space.merge' },
      schema: {
        tags,
        operationId: 'mergeChangeRequest',
        summary: 'Merge the change request into the space (review level; 423 while the space is locked; 409 when it is merged or archived)',
        description:
          'A three-way merge of the change request into the space\'s current revision, from the last revision of the space it includes. Pages are matched by id; edits of different lines of one page both apply. ' +
          'Without conflicts: `result` is "merge", `revision` the new revision (type "merge", parents [space head, change request head]) that is now the space\'s content, and the change request is merged. ' +
          'With conflicts: `result` is "conflicts", nothing changes, `revision` is the change request\'s head, and `conflicts` lists each conflicting page (id, title, path), file or variable with what both sides did. ' +
          'Two merges into one space at the same moment both land, or the second reports its conflicts with the first. ' +
          'Edits typed live into its pages that the server has stored but not yet written to the change request are written to it first, and merged with it.',
        params: ChangeRequestParams,
        response: { 200: MergeChangeRequestResult, ...errors },
      },
    },
    async (request) => mergeChangeRequest(request.ctx, request.params.spaceId, request.params.changeRequestId, request.log),
  );

  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/update',
    {
      config: { policy: 'space.edit' },
      schema: {
        tags,
        operationId: 'updateChangeRequest',
        summary: 'Pull the space\'s current content into the change request (edit level; 423 while the space is locked; 409 when it is merged or archived)',
        description:
          'The same three-way merge as merging, the other way: the space\'s changes since the change request last included them are merged into it. ' +
          'Without conflicts: `result` is "update" and `revision` the change request\'s new head (type "update", parents [change request head, space head]); the change request is no longer `outdated`. ' +
          'An up-to-date change request is left as it is. With conflicts: `result` is "conflicts", nothing changes, and `conflicts` lists them.',
        params: ChangeRequestParams,
        response: { 200: UpdateChangeRequestResult, ...errors },
      },
    },
    async (request) => updateChangeRequestFromSpace(request.ctx, request.params.spaceId, request.params.changeRequestId),
  );
};
