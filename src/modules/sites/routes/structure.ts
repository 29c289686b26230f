import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../http/schemas.ts';
import { sortStructure } from '../moves.ts';
import { presentStructure } from '../structure-presenter.ts';
import { loadStructureView } from '../structure-view.ts';
import { getPublishedSite } from '../published.ts';
import { tryClaimsContent } from '../try-claims.ts';
import { Type } from 'typebox';
import { BadRequest } from '../../../errors.ts';
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

  app.get(
    '/orgs/:organizationId/sites/:siteId/try-claims',
    {
      config: { policy: 'site.view' },
      schema: {
        tags: ['sites'],
        operationId: 'tryVisitorClaims',
        summary: "The conditional content a visitor with these claims gets in each page of the site (Quire's own; members)",
        description:
          'For every page of the site spaces a visitor with `claims` gets (conditions of sections and site spaces applied) that holds adaptive `if` blocks: each block in document order, its condition, whether it is shown, and its first words. `claims` is a JSON object, as a signed visitor token carries it.',
        params: SiteParams,
        querystring: Type.Object({ claims: Type.Optional(Type.String({ maxLength: 8192, description: 'The claims as a JSON object; empty for none.' })) }, { additionalProperties: false }),
        response: {
          200: Type.Object({
            pages: Type.Array(
              Type.Object({
                siteSpace: Type.String(),
                space: Type.String(),
                page: Type.String(),
                title: Type.String(),
                path: Type.String(),
                blocks: Type.Array(Type.Object({ condition: Type.String(), shown: Type.Boolean(), text: Type.String() })),
              }),
            ),
          }),
          ...errorResponses,
        },
      },
    },
    async (request) => {
      let claims: unknown = {};
      if (request.query.claims) {
        try {
          claims = JSON.parse(request.query.claims);
        } catch {
          throw new BadRequest('The query parameter "claims" is not JSON; give the claims as a JSON object.');
        }
      }
      if (typeof claims !== 'object' || claims === null || Array.isArray(claims)) throw new BadRequest('The query parameter "claims" must be a JSON object.');
      return tryClaimsContent(request.ctx, request.params.organizationId, request.params.siteId, claims as Record<string, unknown>);
    },
  );
};
