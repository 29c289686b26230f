import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../../http/schemas.ts';
import { presentPublishingAuth } from '../presenter.ts';
import { getPublishingAuth, regeneratePublishingAuth, updatePublishingAuth } from '../publishing-auth.ts';
import { PublishingAuthSchema, SiteParams, UpdatePublishingAuthBody } from '../schemas.ts';

const authTags = ['site-publishing-auth'];

export const publishingAuthRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: authTags,
        operationId: 'getSitePublishingAuthById',
        summary: 'The visitor-auth settings of a site, with the private key that signs visitor JWTs (administrators)',
        params: SiteParams,
        response: { 200: PublishingAuthSchema, ...errorResponses },
      },
    },
    async (request) => presentPublishingAuth(await getPublishingAuth(request.ctx, request.params.organizationId, request.params.siteId)),
  );

  app.patch(
    '/orgs/:organizationId/sites/:siteId/publishing/auth',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: authTags,
        operationId: 'updateSitePublishingAuthById',
        summary: 'Change the visitor-auth settings: backend "custom" only, and the fallback URL (administrators)',
        params: SiteParams,
        body: UpdatePublishingAuthBody,
        response: { 200: PublishingAuthSchema, ...errorResponses },
      },
    },
    async (request) => presentPublishingAuth(await updatePublishingAuth(request.ctx, request.params.organizationId, request.params.siteId, request.body)),
  );

  app.post(
    '/orgs/:organizationId/sites/:siteId/publishing/auth/regenerate',
    {
      config: { policy: 'site.admin' },
      schema: {
        tags: authTags,
        operationId: 'regenerateSitePublishingAuthById',
        summary: 'Replace the private key of a site: JWTs signed with the old one stop working (administrators)',
        params: SiteParams,
        response: { 200: PublishingAuthSchema, ...errorResponses },
      },
    },
    async (request) => presentPublishingAuth(await regeneratePublishingAuth(request.ctx, request.params.organizationId, request.params.siteId)),
  );
};
