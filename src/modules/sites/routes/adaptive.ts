import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../http/schemas.ts';
import { getAdaptiveSchema, listTemplateConditions, presentAdaptiveSchema, putAdaptiveSchema } from '../adaptive.ts';
import { AdaptiveSchemaSchema, SiteParams, TemplateConditionsSchema, UpdateAdaptiveSchemaBody } from '../schemas.ts';

const adaptiveTags = ['site-adaptive-content'];

export const adaptiveRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      config: { policy: 'site.view' },
      schema: {
        tags: adaptiveTags,
        operationId: 'getSiteAdaptiveSchema',
        summary: 'The visitor schema of a site (the default, with no claims, until one is set)',
        params: SiteParams,
        response: { 200: AdaptiveSchemaSchema, ...errorResponses },
      },
    },
    async (request) => presentAdaptiveSchema(await getAdaptiveSchema(request.ctx, request.params.organizationId, request.params.siteId)),
  );

  app.put(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema',
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: adaptiveTags,
        operationId: 'updateSiteAdaptiveSchema',
        summary: 'Replace the visitor schema of a site (create role)',
        params: SiteParams,
        body: UpdateAdaptiveSchemaBody,
        response: { 200: AdaptiveSchemaSchema, ...errorResponses },
      },
    },
    async (request) => presentAdaptiveSchema(await putAdaptiveSchema(request.ctx, request.params.organizationId, request.params.siteId, request.body.jsonSchema)),
  );

  app.get(
    '/orgs/:organizationId/sites/:siteId/adaptive-schema/template-conditions',
    {
      config: { policy: 'site.view' },
      schema: {
        tags: adaptiveTags,
        operationId: 'listSiteAdaptiveTemplateConditions',
        summary: 'Condition templates made from the visitor schema of a site',
        params: SiteParams,
        response: { 200: TemplateConditionsSchema, ...errorResponses },
      },
    },
    async (request) => ({ items: await listTemplateConditions(request.ctx, request.params.organizationId, request.params.siteId) }),
  );
};
