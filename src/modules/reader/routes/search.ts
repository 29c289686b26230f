import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListOf } from '../../../http/schemas.ts';
import { SearchSpaceSchema } from '../../search/schemas.ts';
import { SiteParams, SiteSearchBody, SiteSearchQuery } from '../schemas.ts';
import { searchSiteContent } from '../site-search.ts';

export const siteSearchRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/search',
    {
      config: { policy: 'site.view' },
      schema: {
        tags: ['sites'],
        operationId: 'searchSiteContent',
        summary: 'Search a site as its readers do: the pages they may see, grouped by space',
        params: SiteParams,
        querystring: SiteSearchQuery,
        body: SiteSearchBody,
        response: { 200: ListOf(SearchSpaceSchema), ...errorResponses },
      },
    },
    async (request) => searchSiteContent(request.ctx, request.params.organizationId, request.params.siteId, request.body, request.query),
  );
};
