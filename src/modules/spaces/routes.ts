import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyRemoval } from '../../http/replies.ts';
import { ErrorBody, errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { listMemberSpaces } from './member-spaces.ts';
import { duplicateSpace, moveSpace, transferSpace } from './placement.ts';
import { presentMemberSpace, presentSpace, spaceLocation } from './presenter.ts';
import {
  CreateSpaceBody,
  GetSpaceQuery,
  ListMemberSpacesQuery,
  ListSpacesQuery,
  MemberSpaceSchema,
  MemberSpacesParams,
  MoveBody,
  SpaceParams,
  SpaceSchema,
  TransferBody,
  UpdateSpaceBody,
} from './schemas.ts';
import { createSpace, getSpace, listSpaces, updateSpace } from './service.ts';
import { deleteSpace, restoreSpace } from './trash.ts';

const tags = ['spaces'];
const spaceResponse = { 200: SpaceSchema, ...errorResponses };

export const spaceRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/spaces',
    {
      config: { policy: 'spaces.create' },
      schema: {
        tags,
        operationId: 'createSpace',
        summary: 'Create a space, at the root of the organization or in a collection (create role). A template is applied afterwards with POST /v1/spaces/{spaceId}/content/template.',
        params: OrganizationParams,
        body: CreateSpaceBody,
        response: { 201: SpaceSchema, ...errorResponses },
      },
    },
    async (request, reply) => {
      const view = await createSpace(request.ctx, request.params.organizationId, request.body);
      return reply.code(201).header('location', spaceLocation(request.ctx, view.space.id)).send(presentSpace(request.ctx, view));
    },
  );

  app.get(
    '/orgs/:organizationId/spaces',
    {
      config: { policy: 'spaces.list' },
      schema: { tags, operationId: 'listSpacesInOrganizationById', summary: 'The spaces of an organization that the caller can see, oldest first', params: OrganizationParams, querystring: ListSpacesQuery, response: { 200: ListOf(SpaceSchema), ...errorResponses } },
    },
    async (request) => mapPage(await listSpaces(request.ctx, request.params.organizationId, request.query), (view) => presentSpace(request.ctx, view)),
  );

  app.get(
    '/spaces/:spaceId',
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'getSpaceById', summary: 'A space', params: SpaceParams, querystring: GetSpaceQuery, response: spaceResponse },
    },
    async (request) => presentSpace(request.ctx, await getSpace(request.ctx, request.params.spaceId)),
  );

  app.patch(
    '/spaces/:spaceId',
    {
      config: { policy: 'space.admin' },
      schema: { tags, operationId: 'updateSpaceById', summary: 'Change the settings of a space (administrators)', params: SpaceParams, body: UpdateSpaceBody, response: spaceResponse },
    },
    async (request) => presentSpace(request.ctx, await updateSpace(request.ctx, request.params.spaceId, request.body)),
  );

  app.delete(
    '/spaces/:spaceId',
    {
      config: { policy: 'space.delete' },
      schema: {
        tags,
        operationId: 'deleteSpaceById',
        summary: 'Move a space to the trash, restorable for 7 days (administrators): 205 when deleted, 204 when there was none',
        params: SpaceParams,
        response: { ...removalResponses, ...errorResponses },
      },
    },
    async (request, reply) => replyRemoval(reply, await deleteSpace(request.ctx, request.params.spaceId)),
  );

  app.post(
    '/spaces/:spaceId/restore',
    {
      config: { policy: 'space.admin' },
      schema: { tags, operationId: 'restoreSpace', summary: 'Take a space out of the trash within 7 days (administrators); 410 once the 7 days have passed', params: SpaceParams, response: { ...spaceResponse, 410: ErrorBody } },
    },
    async (request) => presentSpace(request.ctx, await restoreSpace(request.ctx, request.params.spaceId)),
  );

  app.post(
    '/spaces/:spaceId/duplicate',
    {
      config: { policy: 'spaces.create' },
      schema: { tags, operationId: 'duplicateSpace', summary: 'A copy of a space with its settings and content, placed right after it (create role)', params: SpaceParams, response: { 201: SpaceSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const view = await duplicateSpace(request.ctx, request.params.spaceId);
      return reply.code(201).header('location', spaceLocation(request.ctx, view.space.id)).send(presentSpace(request.ctx, view));
    },
  );

  app.post(
    '/spaces/:spaceId/move',
    {
      config: { policy: 'space.admin' },
      schema: { tags, operationId: 'moveSpace', summary: 'Move a space into a collection, to the root, or among its siblings (administrators)', params: SpaceParams, body: MoveBody, response: spaceResponse },
    },
    async (request) => presentSpace(request.ctx, await moveSpace(request.ctx, request.params.spaceId, request.body)),
  );

  app.post(
    '/spaces/:spaceId/transfer',
    {
      config: { policy: 'space.admin' },
      schema: { tags, operationId: 'transferSpace', summary: 'Move a space to another organization (administrators of both)', params: SpaceParams, body: TransferBody, response: spaceResponse },
    },
    async (request) => presentSpace(request.ctx, await transferSpace(request.ctx, request.params.spaceId, request.body)),
  );

  app.get(
    '/orgs/:organizationId/members/:userId/spaces',
    {
      config: { policy: 'members.spaces' },
      schema: {
        tags: ['organization-members'],
        operationId: 'listSpacesForOrganizationMember',
        summary: 'The spaces a member can access, with their level (guests: their own only)',
        params: MemberSpacesParams,
        querystring: ListMemberSpacesQuery,
        response: { 200: ListOf(MemberSpaceSchema), ...errorResponses },
      },
    },
    async (request) =>
      mapPage(await listMemberSpaces(request.ctx, request.params.organizationId, request.params.userId, request.query), (view) => presentMemberSpace(request.ctx, view)),
  );
};
