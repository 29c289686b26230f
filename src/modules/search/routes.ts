import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { encodeOnce } from '../../http/replies.ts';
import { errorResponses, ListOf } from '../../http/schemas.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { SpaceParams } from '../spaces/schemas.ts';
import { presentSearchPage, presentSearchSpace } from './presenter.ts';
import { SearchPageSchema, SearchRequest, SearchSpaceSchema } from './schemas.ts';
import { searchOrganization, searchSpace } from './service.ts';

/** Full-text search in a space and across the spaces of an organization that the caller can read. */
export const searchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/search',
    {
      config: { policy: 'space.view' },
      onSend: encodeOnce,
      schema: {
        tags: ['space-content'],
        operationId: 'searchSpaceContent',
        summary: 'Search the current content of a space: pages by relevance (title, then headings, then body), with their matching sections',
        params: SpaceParams,
        querystring: SearchRequest,
        response: { 200: ListOf(SearchPageSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await searchSpace(request.ctx, request.params.spaceId, request.query), (hit) => presentSearchPage(request.ctx, hit)),
  );

  app.get(
    '/orgs/:organizationId/search',
    {
      config: { policy: 'spaces.list' },
      onSend: encodeOnce,
      schema: {
        tags: ['organizations'],
        operationId: 'searchOrganizationContent',
        summary: 'Search the spaces of an organization that the caller can read: spaces ordered by their best page, each with its best pages',
        params: OrganizationParams,
        querystring: SearchRequest,
        response: { 200: ListOf(SearchSpaceSchema), ...errorResponses },
      },
    },
    async (request) => mapPage(await searchOrganization(request.ctx, request.params.organizationId, request.query), (hit) => presentSearchSpace(request.ctx, hit)),
  );
};
