import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListOf } from '../../http/schemas.ts';
import { presentBacklinks, presentLinks } from './presenter.ts';
import { BacklinksQuery, FileParams, LinksListSchema, LinksQuery, PageLocationSchema, PageParams, SpaceParams } from './schemas.ts';
import { linksListSerializerCompiler } from './serializer.ts';
import { listFileBacklinks, listPageBacklinks, listPageLinks, listSpaceLinks } from './service.ts';

const tags = ['links'];

/**
 * Link analysis of a space's current content: every link with its status (`ok`, `broken`, `in-app`), the
 * links of one page, and the pages that use a file.
 */
export const linkRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/links',
    {
      config: { policy: 'space.view' },
      serializerCompiler: linksListSerializerCompiler,
      schema: {
        tags,
        operationId: 'listSpaceLinks',
        summary: 'Every link in the space, with its status and the pages where it appears',
        params: SpaceParams,
        querystring: LinksQuery,
        response: { 200: LinksListSchema, ...errorResponses },
      },
    },
    async (request) => presentLinks(request.ctx, await listSpaceLinks(request.ctx, request.params.spaceId, request.query)),
  );

  app.get(
    '/spaces/:spaceId/content/page/:pageId/links',
    {
      config: { policy: 'space.view' },
      serializerCompiler: linksListSerializerCompiler,
      schema: {
        tags,
        operationId: 'listPageLinksInSpace',
        summary: 'The links of one page, with their status',
        params: PageParams,
        querystring: LinksQuery,
        response: { 200: LinksListSchema, ...errorResponses },
      },
    },
    async (request) => presentLinks(request.ctx, await listPageLinks(request.ctx, request.params.spaceId, request.params.pageId, request.query)),
  );

  app.get(
    '/spaces/:spaceId/content/page/:pageId/backlinks',
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'listSpacePageBacklinks', summary: 'The pages of the space that link to a page', params: PageParams, querystring: BacklinksQuery, response: { 200: ListOf(PageLocationSchema), ...errorResponses } },
    },
    async (request) => {
      const { items, count, next, ...scope } = await listPageBacklinks(request.ctx, request.params.spaceId, request.params.pageId, request.query);
      return { items: presentBacklinks(request.ctx, scope, items), count, ...(next ? { next } : {}) };
    },
  );

  app.get(
    '/spaces/:spaceId/content/files/:fileId/backlinks',
    {
      config: { policy: 'space.view' },
      schema: {
        tags,
        operationId: 'listSpaceFileBacklinks',
        summary: 'The pages that use a file (links, images, file blocks, covers)',
        params: FileParams,
        querystring: BacklinksQuery,
        response: { 200: ListOf(PageLocationSchema), ...errorResponses },
      },
    },
    async (request) => {
      const { items, count, next, ...scope } = await listFileBacklinks(request.ctx, request.params.spaceId, request.params.fileId, request.query);
      return { items: presentBacklinks(request.ctx, scope, items), count, ...(next ? { next } : {}) };
    },
  );
};
