import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf } from '../../http/schemas.ts';
import { changeRequestMergeRoutes } from './merge-routes.ts';
import { changeRequestLocation, presentChangeRequest } from './presenter.ts';
import { ChangeRequestParams, ChangeRequestSchema, CreateChangeRequestBody, ListChangeRequestsQuery, SpaceParams, UpdateChangeRequestBody } from './schemas.ts';
import { createChangeRequest, getChangeRequest, listChangeRequests, updateChangeRequest } from './service.ts';

const tags = ['change-requests'];
const errors = { ...errorResponses, 423: errorResponses[409] };

/**
 * Change requests: branches of a space's content that are edited (by import), kept up to date with the
 * space, and merged. `changeRequestId` is the change request's id or its number in the space.
 */
export const changeRequestRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/change-requests',
    {
      config: { policy: 'space.edit' },
      schema: {
        tags,
        operationId: 'createChangeRequest',
        summary: 'Start a change request from the space\'s current content (edit level; 423 while the space is locked). It starts as a draft; nothing is copied.',
        params: SpaceParams,
        body: CreateChangeRequestBody,
        response: { 201: ChangeRequestSchema, ...errors },
      },
    },
    async (request, reply) => {
      const view = await createChangeRequest(request.ctx, request.params.spaceId, request.body);
      return reply
        .code(201)
        .header('location', changeRequestLocation(request.ctx, view.space.id, view.changeRequest.id))
        .send(presentChangeRequest(request.ctx, view));
    },
  );

  app.get(
    '/spaces/:spaceId/change-requests',
    {
      config: { policy: 'space.view' },
      schema: {
        tags,
        operationId: 'listChangeRequestsForSpace',
        summary: 'The change requests of a space with one status (open by default), newest first; `contributor` keeps those a user created or wrote content to',
        params: SpaceParams,
        querystring: ListChangeRequestsQuery,
        response: { 200: ListOf(ChangeRequestSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await listChangeRequests(request.ctx, request.params.spaceId, request.query), (view) => presentChangeRequest(request.ctx, view)),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'getChangeRequestById', summary: 'A change request, by id or by number', params: ChangeRequestParams, response: { 200: ChangeRequestSchema, ...errorResponses } },
    },
    async (request) => presentChangeRequest(request.ctx, await getChangeRequest(request.ctx, request.params.spaceId, request.params.changeRequestId)),
  );

  app.patch(
    '/spaces/:spaceId/change-requests/:changeRequestId',
    {
      config: { policy: 'space.edit' },
      schema: {
        tags,
        operationId: 'updateChangeRequestById',
        summary: 'Change the subject or the status (edit level): draft ⇄ open, draft or open → archived, archived → draft or open; a merged change request answers 409',
        params: ChangeRequestParams,
        body: UpdateChangeRequestBody,
        response: { 200: ChangeRequestSchema, ...errorResponses },
      },
    },
    async (request) =>
      presentChangeRequest(request.ctx, await updateChangeRequest(request.ctx, request.params.spaceId, request.params.changeRequestId, request.body)),
  );

  await app.register(changeRequestMergeRoutes);
};
