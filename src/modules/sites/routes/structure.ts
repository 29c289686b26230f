import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../http/schemas.ts';
import { sortStructure } from '../moves.ts';
import { presentStructure } from '../structure-presenter.ts';
import { loadStructureView } from '../structure-view.ts';
import { getPublishedSite } from '../published.ts';
import { PublishedContentSiteSchema, PublishedQuery, ShareKeyQuery, SiteParams, SiteStructureItemSchema, SiteStructureSchema, SortStructureBody } from '../structure-schemas.ts';
import { structureAccess } from '../placement.ts';

const structureTags = ['site-structure'];
const base = '/orgs/:organizationId/sites/:siteId';

export const structureRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${base}/structure`,
    {
      config: { policy: 'site.view' },
      schema: { tags: structureTags, operationId: 'getSiteStructure', summary: 'The complete structure of a site', params: SiteParams, querystring: ShareKeyQuery, response: { 200: SiteStructureSchema, ...errorResponses } },
    },
    async (request) => {
      const site = await structureAccess(request.ctx, request.params.organizationId, request.params.siteId, 'site.view');
      return presentStructure(request.ctx, await loadStructureView(request.ctx, site, request.query.shareKey));
    },
  );

  app.patch(
    `${base}/structure/sort`,
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: structureTags,
        operationId: 'sortSiteStructure',
        summary: 'Move a site space, section or section group',
        params: SiteParams,
        body: SortStructureBody,
        response: { 200: SiteStructureItemSchema, ...errorResponses },
      },
    },
    async (request) => sortStructure(request.ctx, request.params.organizationId, request.params.siteId, request.body),
  );

  // The published profile

  app.get(
    `${base}/published`,
    {
      config: { policy: 'site.readPublished' },
      schema: {
        tags: ['sites'],
        operationId: 'getPublishedContentSite',
        summary: 'The complete profile of a published site, for its audience',
        description:
          'Open to members of the organization (even unpublished), to anyone for public and unlisted published sites, to holders of an active share key (`shareKey`) for share-link sites, and, a Quire extension, to visitors carrying a visitor JWT signed with the site\'s key (`jwt_token`) for visitor-auth sites. The structure leaves out sections and site spaces whose condition does not hold for the visitor\'s claims. Anyone else gets 404.',
        params: SiteParams,
        querystring: PublishedQuery,
        response: { 200: PublishedContentSiteSchema, ...errorResponses },
      },
    },
    async (request) => getPublishedSite(request.ctx, request.params.organizationId, request.params.siteId, request.query),
  );
};
