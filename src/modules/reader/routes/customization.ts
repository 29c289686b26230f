import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { replyRemoval } from '../../../http/replies.ts';
import { errorResponses, removalResponses } from '../../../http/schemas.ts';
import { deleteSiteSpaceCustomization, getSiteCustomization, getSiteSpaceCustomization, overrideSiteSpaceCustomization, updateSiteCustomization } from '../customization.ts';
import { CustomizationOverride, CustomizationResponse, CustomizationQuery, CustomizationSettings, SiteParams, SiteSpaceParams } from '../schemas.ts';

const tags = ['site-customization'];

export const customizationRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/customization',
    {
      config: { policy: 'site.view' },
      schema: { tags, operationId: 'getSiteCustomizationById', summary: 'The customization of a site: every setting, defaults filled in', params: SiteParams, querystring: CustomizationQuery, response: { 200: CustomizationResponse, ...errorResponses } },
    },
    async (request) => getSiteCustomization(request.ctx, request.params.organizationId, request.params.siteId),
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/customization',
    {
      config: { policy: 'site.manage' },
      schema: { tags, operationId: 'updateSiteCustomizationById', summary: 'Replace the customization of a site (the reader shows it at once)', params: SiteParams, body: CustomizationSettings, response: { 200: CustomizationResponse, ...errorResponses } },
    },
    async (request) => updateSiteCustomization(request.ctx, request.params.organizationId, request.params.siteId, request.body),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { policy: 'site.view' },
      schema: { tags, operationId: 'getSiteSpaceCustomizationById', summary: 'The customization of one site space: the site\'s, with its override', params: SiteSpaceParams, querystring: CustomizationQuery, response: { 200: CustomizationResponse, ...errorResponses } },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return getSiteSpaceCustomization(request.ctx, organizationId, siteId, siteSpaceId);
    },
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { policy: 'site.manage' },
      schema: { tags, operationId: 'overrideSiteSpaceCustomizationById', summary: 'Override parts of the customization for one site space (null resets a part)', params: SiteSpaceParams, body: CustomizationOverride, response: { 200: CustomizationResponse, ...errorResponses } },
    },
    async (request) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return overrideSiteSpaceCustomization(request.ctx, organizationId, siteId, siteSpaceId, request.body);
    },
  );

  app.delete(
    '/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId/customization',
    {
      config: { policy: 'site.manage' },
      schema: { tags, operationId: 'deleteSiteSpaceCustomizationById', summary: 'Remove a site space\'s override: 205 when removed, 204 when there was none', params: SiteSpaceParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => {
      const { organizationId, siteId, siteSpaceId } = request.params;
      return replyRemoval(reply, await deleteSiteSpaceCustomization(request.ctx, organizationId, siteId, siteSpaceId));
    },
  );
};
