import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses } from '../../http/schemas.ts';
import { ImportContentBody, ImportContentResult, PageParams, SpaceParams } from './schemas.ts';
import { importIntoSpace } from './service.ts';

const tags = ['space-content'];
const errors = { ...errorResponses, 423: errorResponses[409] };

/**
 * Content import into a space: the whole space, or one of its pages. Each import is one new revision
 * (201, `Location` names it). See src/imports/ for the sources, the limits and the address checks.
 */
export const importRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/spaces/:spaceId/content/import',
    {
      config: { policy: 'space.edit' },
      schema: {
        tags,
        operationId: 'importContent',
        summary: 'Import content (Markdown, a zip of Markdown, HTML, a website, a Word document) in a new revision',
        params: SpaceParams,
        body: ImportContentBody,
        response: { 201: ImportContentResult, ...errors },
      },
    },
    async (request, reply) => {
      const { spaceId } = request.params;
      const result = await importIntoSpace(request.ctx, spaceId, request.body);
      return reply
        .code(201)
        .header('location', `/v1/spaces/${spaceId}/revisions/${result.revisionId}`)
        .send({ revision: result.revisionId, importedResources: result.importedResources, totalResources: result.totalResources });
    },
  );

  app.post(
    '/spaces/:spaceId/content/page/:pageId/import',
    {
      config: { policy: 'space.edit' },
      schema: {
        tags,
        operationId: 'importContentInPageById',
        summary: 'Import content into a page: one imported page replaces its body, several go under it',
        params: PageParams,
        body: ImportContentBody,
        response: { 201: ImportContentResult, ...errors },
      },
    },
    async (request, reply) => {
      const { spaceId, pageId } = request.params;
      const result = await importIntoSpace(request.ctx, spaceId, request.body, pageId);
      return reply
        .code(201)
        .header('location', `/v1/spaces/${spaceId}/revisions/${result.revisionId}`)
        .send({ revision: result.revisionId, importedResources: result.importedResources, totalResources: result.totalResources });
    },
  );
};
