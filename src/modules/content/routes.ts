import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListOf } from '../../http/schemas.ts';
import { NoContent } from '../../http/schemas.ts';
import { pagesBase, presentFile, presentFiles, presentPage, presentPages, presentRevision } from './presenter.ts';
import { serializedPages } from './serialized-pages.ts';
import {
  ApplyTemplateBody,
  FileParams,
  FilesQuery,
  PageParams,
  PageQuery,
  PagesSchema,
  PathParams,
  RevisionFileParams,
  RevisionFileSchema,
  RevisionPageParams,
  RevisionPageSchema,
  RevisionParams,
  RevisionPathParams,
  RevisionQuery,
  RevisionSchema,
  SpaceParams,
} from './schemas.ts';
import { getFile, getPage, getPageByPath, getRevisionContent, listFiles } from './service.ts';
import { applySpaceTemplate } from './template-service.ts';

const tags = ['space-content'];
const errors = { ...errorResponses, 423: errorResponses[409] };

/**
 * The content of a space: its current revision (`content/…`) and any revision of its history
 * (`revisions/{revisionId}/…`), read with the same shapes.
 */
export const contentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // The current revision and any revision of the history: the same reads, with and without a revision id.
  for (const scope of ['current', 'history'] as const) {
    const current = scope === 'current';
    const base = current ? '/spaces/:spaceId/content' : '/spaces/:spaceId/revisions/:revisionId';
    const id = (params: { revisionId?: string }) => (current ? undefined : params.revisionId);
    const name = (currentName: string, historyName: string) => (current ? currentName : historyName);

    app.get(
      base,
      {
        config: { policy: 'space.view' },
        schema: { tags, operationId: name('getCurrentRevision', 'getRevisionById'), summary: name('The current revision of a space', 'A revision of a space'), params: current ? SpaceParams : RevisionParams, querystring: RevisionQuery, response: { 200: RevisionSchema, ...errors } },
      },
      async (request) => {
        const params = request.params as { spaceId: string; revisionId?: string };
        return presentRevision(request.ctx, await getRevisionContent(request.ctx, params.spaceId, id(params)), request.query);
      },
    );

    app.get(
      `${base}/pages`,
      {
        config: { policy: 'space.view' },
        schema: { tags, operationId: name('listPages', 'listPagesInRevisionById'), summary: 'The tree of pages', params: current ? SpaceParams : RevisionParams, querystring: RevisionQuery, response: { 200: PagesSchema, ...errors } },
      },
      async (request, reply) => {
        const params = request.params as { spaceId: string; revisionId?: string };
        const view = await getRevisionContent(request.ctx, params.spaceId, id(params));
        // The same bytes the response schema makes, made once per tree, place and option.
        const key = `${pagesBase(request.ctx, view)}|${view.tree.rootHash}|${request.query.metadata !== false}`;
        const body = serializedPages(key, () => reply.serialize({ pages: presentPages(request.ctx, view, view.tree.pages, request.query) }) as string);
        // A string with a JSON type is sent as it is (already serialized), which the typed reply cannot express.
        return reply.type('application/json; charset=utf-8').send(body as never);
      },
    );

    app.get(
      `${base}/files`,
      {
        config: { policy: 'space.view' },
        schema: { tags, operationId: name('listFiles', 'listFilesInRevisionById'), summary: 'The files, by name', params: current ? SpaceParams : RevisionParams, querystring: FilesQuery, response: { 200: ListOf(RevisionFileSchema), ...errors } },
      },
      async (request) => {
        const params = request.params as { spaceId: string; revisionId?: string };
        const { items, count, next, ...scope } = await listFiles(request.ctx, params.spaceId, request.query, id(params));
        return { items: presentFiles(request.ctx, scope, items, request.query), count, ...(next ? { next } : {}) };
      },
    );

    app.get(
      `${base}/files/:fileId`,
      {
        config: { policy: 'space.view' },
        schema: { tags, operationId: name('getFileById', 'getFileInRevisionById'), summary: 'A file, with a signed download URL', params: current ? FileParams : RevisionFileParams, querystring: RevisionQuery, response: { 200: RevisionFileSchema, ...errors } },
      },
      async (request) => {
        const params = request.params as { spaceId: string; fileId: string; revisionId?: string };
        const view = await getFile(request.ctx, params.spaceId, params.fileId, id(params));
        return presentFile(request.ctx, view, view.file, request.query);
      },
    );

    app.get(
      `${base}/page/:pageId`,
      {
        config: { policy: 'space.view' },
        schema: { tags, operationId: name('getPageById', 'getPageInRevisionById'), summary: 'A page, with its body as a document or as Markdown', params: current ? PageParams : RevisionPageParams, querystring: PageQuery, response: { 200: RevisionPageSchema, ...errors } },
      },
      async (request) => {
        const params = request.params as { spaceId: string; pageId: string; revisionId?: string };
        const view = await getPage(request.ctx, params.spaceId, params.pageId, request.query, id(params));
        return presentPage(request.ctx, view, view.page, request.query, view.body);
      },
    );

    app.get(
      `${base}/path/*`,
      {
        config: { policy: 'space.view' },
        schema: { tags, operationId: name('getPageByPath', 'getPageInRevisionByPath'), summary: 'A page by its path, such as "guides/install"', params: current ? PathParams : RevisionPathParams, querystring: PageQuery, response: { 200: RevisionPageSchema, ...errors } },
      },
      async (request) => {
        const params = request.params as { spaceId: string; '*': string; revisionId?: string };
        const view = await getPageByPath(request.ctx, params.spaceId, params['*'], request.query, id(params));
        return presentPage(request.ctx, view, view.page, request.query, view.body);
      },
    );
  }

  app.post(
    '/spaces/:spaceId/content/template',
    {
      config: { policy: 'space.edit' },
      schema: {
        tags,
        operationId: 'applyTemplateToSpace',
        summary: 'Add the pages of a built-in template (product-docs, api-reference, knowledge-base) in a new revision',
        params: SpaceParams,
        body: ApplyTemplateBody,
        response: { 201: NoContent, ...errors },
      },
    },
    async (request, reply) => {
      const { revisionId } = await applySpaceTemplate(request.ctx, request.params.spaceId, request.body);
      return reply.code(201).header('location', `/v1/spaces/${request.params.spaceId}/revisions/${revisionId}`).send(undefined);
    },
  );
};
