import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListOf } from '../../http/schemas.ts';
import { pageKey, pagesKey, presentFile, presentFiles, presentPage, presentPages, presentRevision } from '../content/presenter.ts';
import { sendImmutableJson } from '../../http/immutable-json.ts';
import { FilesQuery, PageQuery, PagesSchema, RevisionFileSchema, RevisionPageSchema, RevisionQuery, RevisionSchema } from '../content/schemas.ts';
import { ImportContentBody, ImportContentResult } from '../imports/schemas.ts';
import { presentBacklinks, presentLinks } from '../links/presenter.ts';
import { BacklinksQuery, ChangeRequestLinksQuery, LinksListSchema, LinksQuery, PageLocationSchema } from '../links/schemas.ts';
import { linksListSerializerCompiler } from '../links/serializer.ts';
import {
  getChangeRequestContent,
  getChangeRequestFile,
  getChangeRequestPage,
  getChangeRequestPageByPath,
  listChangeRequestFileBacklinks,
  listChangeRequestPageBacklinks,
  listChangeRequestFiles,
  listChangeRequestLinks,
  listChangeRequestPageLinks,
} from './service.ts';
import { importIntoChangeRequest } from './import-service.ts';
import { ChangeRequestFileParams, ChangeRequestPageParams, ChangeRequestParams, ChangeRequestPathParams } from '../change-requests/schemas.ts';

const tags = ['change-requests'];
const errors = { ...errorResponses, 423: errorResponses[409] };
const base = '/spaces/:spaceId/change-requests/:changeRequestId';

/**
 * The content of a change request (its head revision), with the same shapes as the space's content reads,
 * and imports into it.
 */
export const changeRequestContentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${base}/content`,
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'getRevisionOfChangeRequestById', summary: 'The change request\'s current revision', params: ChangeRequestParams, querystring: RevisionQuery, response: { 200: RevisionSchema, ...errorResponses } },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return presentRevision(request.ctx, await getChangeRequestContent(request.ctx, spaceId, changeRequestId), request.query);
    },
  );

  app.get(
    `${base}/content/pages`,
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'listPagesInChangeRequest', summary: 'The tree of pages of the change request', params: ChangeRequestParams, querystring: RevisionQuery, response: { 200: PagesSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const view = await getChangeRequestContent(request.ctx, spaceId, changeRequestId);
      return sendImmutableJson(request, reply, pagesKey(request.ctx, view, request.query), () => ({ pages: presentPages(request.ctx, view, view.tree.pages, request.query) }));
    },
  );

  app.get(
    `${base}/content/files`,
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'listFilesInChangeRequestById', summary: 'The files of the change request, by name', params: ChangeRequestParams, querystring: FilesQuery, response: { 200: ListOf(RevisionFileSchema), ...errorResponses } },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      const { items, count, next, ...scope } = await listChangeRequestFiles(request.ctx, spaceId, changeRequestId, request.query);
      return { items: presentFiles(request.ctx, scope, items, request.query), count, ...(next ? { next } : {}) };
    },
  );

  app.get(
    `${base}/content/files/:fileId`,
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'getFileInChangeRequestById', summary: 'A file of the change request, with a signed download URL', params: ChangeRequestFileParams, querystring: RevisionQuery, response: { 200: RevisionFileSchema, ...errorResponses } },
    },
    async (request) => {
      const { spaceId, changeRequestId, fileId } = request.params;
      const view = await getChangeRequestFile(request.ctx, spaceId, changeRequestId, fileId);
      return presentFile(request.ctx, view, view.file, request.query);
    },
  );

  app.get(
    `${base}/content/page/:pageId/backlinks`,
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'listChangeRequestPageBacklinks', summary: 'The pages of the change request that link to a page', params: ChangeRequestPageParams, querystring: BacklinksQuery, response: { 200: ListOf(PageLocationSchema), ...errorResponses } },
    },
    async (request) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      const { items, count, next, ...scope } = await listChangeRequestPageBacklinks(request.ctx, spaceId, changeRequestId, pageId, request.query);
      return { items: presentBacklinks(request.ctx, scope, items), count, ...(next ? { next } : {}) };
    },
  );

  app.get(
    `${base}/content/files/:fileId/backlinks`,
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'listChangeRequestFileBacklinks', summary: 'The pages of the change request that use a file', params: ChangeRequestFileParams, querystring: BacklinksQuery, response: { 200: ListOf(PageLocationSchema), ...errorResponses } },
    },
    async (request) => {
      const { spaceId, changeRequestId, fileId } = request.params;
      const { items, count, next, ...scope } = await listChangeRequestFileBacklinks(request.ctx, spaceId, changeRequestId, fileId, request.query);
      return { items: presentBacklinks(request.ctx, scope, items), count, ...(next ? { next } : {}) };
    },
  );

  app.get(
    `${base}/content/page/:pageId`,
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'getPageInChangeRequestById', summary: 'A page of the change request, with its body as a document or as Markdown', params: ChangeRequestPageParams, querystring: PageQuery, response: { 200: RevisionPageSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      const view = await getChangeRequestPage(request.ctx, spaceId, changeRequestId, pageId, request.query);
      return sendImmutableJson(request, reply, pageKey(request.ctx, view, view.page, request.query), async () => presentPage(request.ctx, view, view.page, request.query, await view.body()));
    },
  );

  app.get(
    `${base}/content/path/*`,
    {
      config: { policy: 'space.view' },
      schema: { tags, operationId: 'getPageInChangeRequestByPath', summary: 'A page of the change request by its path, such as "guides/install"', params: ChangeRequestPathParams, querystring: PageQuery, response: { 200: RevisionPageSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { spaceId, changeRequestId } = request.params;
      const view = await getChangeRequestPageByPath(request.ctx, spaceId, changeRequestId, request.params['*'], request.query);
      return sendImmutableJson(request, reply, pageKey(request.ctx, view, view.page, request.query), async () => presentPage(request.ctx, view, view.page, request.query, await view.body()));
    },
  );

  app.get(
    `${base}/content/page/:pageId/links`,
    {
      config: { policy: 'space.view' },
      serializerCompiler: linksListSerializerCompiler,
      schema: { tags, operationId: 'listPageLinksInChangeRequest', summary: 'The links of one page of the change request, with their status', params: ChangeRequestPageParams, querystring: LinksQuery, response: { 200: LinksListSchema, ...errorResponses } },
    },
    async (request) => {
      const { spaceId, changeRequestId, pageId } = request.params;
      return presentLinks(request.ctx, await listChangeRequestPageLinks(request.ctx, spaceId, changeRequestId, pageId, request.query));
    },
  );

  app.get(
    `${base}/links`,
    {
      config: { policy: 'space.view' },
      serializerCompiler: linksListSerializerCompiler,
      schema: {
        tags,
        operationId: 'listChangeRequestLinks',
        summary: 'Every link in the change request with its status; stats.broken.changeRequest counts the links the change request broke',
        params: ChangeRequestParams,
        querystring: ChangeRequestLinksQuery,
        response: { 200: LinksListSchema, ...errorResponses },
      },
    },
    async (request) => {
      const { spaceId, changeRequestId } = request.params;
      return presentLinks(request.ctx, await listChangeRequestLinks(request.ctx, spaceId, changeRequestId, request.query));
    },
  );

  for (const scope of ['whole', 'page'] as const) {
    const page = scope === 'page';
    app.post(
      page ? `${base}/content/page/:pageId/import` : `${base}/content/import`,
      {
        config: { policy: 'space.edit' },
        schema: {
          tags,
          operationId: page ? 'importContentInChangeRequestPageById' : 'importContentInChangeRequest',
          summary: page
            ? 'Import content into a page of the change request: one imported page replaces its body, several go under it. The space\'s content does not move.'
            : 'Import content into the change request in a new revision (edit level). The space\'s content does not move; 409 when the change request is merged or archived, 423 while the space is locked.',
          params: page ? ChangeRequestPageParams : ChangeRequestParams,
          body: ImportContentBody,
          response: { 201: ImportContentResult, ...errors },
        },
      },
      async (request, reply) => {
        const { spaceId, changeRequestId, pageId } = request.params as { spaceId: string; changeRequestId: string; pageId?: string };
        const result = await importIntoChangeRequest(request.ctx, spaceId, changeRequestId, request.body, pageId);
        return reply
          .code(201)
          .header('location', `/v1/spaces/${spaceId}/revisions/${result.revisionId}`)
          .send({ revision: result.revisionId, importedResources: result.importedResources, totalResources: result.totalResources });
      },
    );
  }
};
