import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.ts';
import { PreviewAnswer, PreviewBody, PreviewParams } from './schemas.ts';
import { previewSiteCustomization } from './service.ts';

export const sitePreviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/sites/:siteId/customization/preview',
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: ['site-customization'],
        operationId: 'previewSiteCustomization',
        summary: 'The address of the site as the reader would show it with these customization settings, not saved (for a preview frame; valid ten minutes)',
        params: PreviewParams,
        body: PreviewBody,
        response: { 200: PreviewAnswer, ...errorResponses },
      },
    },
    async (request) => previewSiteCustomization(request.ctx, request.params.organizationId, request.params.siteId, request.body),
  );
};
