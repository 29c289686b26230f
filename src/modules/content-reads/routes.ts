import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { errorResponses, ListOf } from '../../http/schemas.ts';
import { presentContributor, presentReusableContent } from './presenter.ts';
import {
  ApiInformationSchema,
  ChangeRequestParams,
  ChangeRequestReusableContentParams,
  ContentFlagsQuery,
  ContributorSchema,
  DocumentParams,
  DocumentQuery,
  EvaluatedQuery,
  JsonDocumentSchema,
  ReusableContentParams,
  ReusableContentSchema,
  RevisionPageParams,
  RevisionReusableContentParams,
} from './schemas.ts';
import { apiInformation, getDocument, getPageDocumentInRevision, getReusableContent, listContributors, spacePdfUrl, embedInSpace } from './service.ts';
import { PdfQuery, PdfUrlSchema } from '../pdf/schemas.ts';
import { EmbedQuery, EmbedSchema, SpaceParams } from './schemas.ts';

/** Reads of content the client lists: contributors, reusable contents, documents by id, and the API's own information. */
export const contentReadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/',
    // Declared as `/v1/`, the client's `/` under its base URL (ignoreTrailingSlash answers `/v1` too).
    { prefixTrailingSlash: 'slash', config: { policy: 'authenticated' }, schema: { tags: ['api'], operationId: 'getApiInformation', summary: 'The version of Quire answering', response: { 200: ApiInformationSchema } } },
    async () => apiInformation(),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/contributors',
    {
      config: { policy: 'space.view' },
      schema: { tags: ['change-requests'], operationId: 'getContributorsByChangeRequestId', summary: 'Who contributed to a change request, with how many of its revisions they wrote', params: ChangeRequestParams, response: { 200: ListOf(ContributorSchema), ...errorResponses } },
    },
    async (request) => {
      const items = (await listContributors(request.ctx, request.params.spaceId, request.params.changeRequestId)).map((view) => presentContributor(request.ctx, view));
      return { items, count: items.length };
    },
  );

  app.get(
    '/spaces/:spaceId/content/reusable-contents/:reusableContentId',
    {
      config: { policy: 'space.view' },
      schema: { tags: ['spaces'], operationId: 'getReusableContentById', summary: 'A reusable content of the space\'s current content', params: ReusableContentParams, querystring: ContentFlagsQuery, response: { 200: ReusableContentSchema, ...errorResponses } },
    },
    async (request) => presentReusableContent(await getReusableContent(request.ctx, { spaceId: request.params.spaceId }, request.params.reusableContentId), request.query.metadata !== false),
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/reusable-contents/:reusableContentId',
    {
      config: { policy: 'space.view' },
      schema: { tags: ['spaces'], operationId: 'getReusableContentInRevisionById', summary: 'A reusable content of a revision', params: RevisionReusableContentParams, querystring: ContentFlagsQuery, response: { 200: ReusableContentSchema, ...errorResponses } },
    },
    async (request) =>
      presentReusableContent(await getReusableContent(request.ctx, { spaceId: request.params.spaceId, revisionId: request.params.revisionId }, request.params.reusableContentId), request.query.metadata !== false),
  );

  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/reusable-contents/:reusableContentId',
    {
      config: { policy: 'space.view' },
      schema: { tags: ['change-requests'], operationId: 'getReusableContentInChangeRequestById', summary: 'A reusable content of a change request', params: ChangeRequestReusableContentParams, querystring: ContentFlagsQuery, response: { 200: ReusableContentSchema, ...errorResponses } },
    },
    async (request) =>
      presentReusableContent(await getReusableContent(request.ctx, { spaceId: request.params.spaceId, changeRequestId: request.params.changeRequestId }, request.params.reusableContentId), request.query.metadata !== false),
  );

  app.get(
    '/spaces/:spaceId/documents/:documentId',
    {
      config: { policy: 'space.view' },
      schema: { tags: ['spaces'], operationId: 'getDocumentById', summary: 'A document (page or reusable content body) of the space by id, as a JSON document', params: DocumentParams, querystring: DocumentQuery, response: { 200: JsonDocumentSchema, ...errorResponses } },
    },
    async (request) => getDocument(request.ctx, request.params.spaceId, request.params.documentId),
  );

  app.get(
    '/spaces/:spaceId/revisions/:revisionId/page/:pageId/document',
    {
      config: { policy: 'space.view' },
      schema: { tags: ['spaces'], operationId: 'getPageDocumentInRevisionById', summary: 'The body of a page of a revision as a JSON document', params: RevisionPageParams, querystring: EvaluatedQuery, response: { 200: JsonDocumentSchema, ...errorResponses } },
    },
    async (request) => getPageDocumentInRevision(request.ctx, request.params.spaceId, request.params.revisionId, request.params.pageId, request.query.evaluated === true),
  );

  app.get(
    '/spaces/:spaceId/pdf',
    {
      config: { policy: 'space.view' },
      schema: {
        tags: ['spaces'],
        operationId: 'getSpacePDF',
        summary: 'A URL of the space\'s current content as PDF',
        description: 'All pages in tree order with a table of contents; with `page`, that page and the pages under it; with `only=true&page=…`, that page alone. The URL is signed and works for one to two hours, without a token.',
        params: SpaceParams,
        querystring: PdfQuery,
        response: { 200: PdfUrlSchema, ...errorResponses },
      },
    },
    async (request) => spacePdfUrl(request.ctx, request.params.spaceId, request.query),
  );

  app.get(
    '/spaces/:spaceId/embed',
    {
      config: { policy: 'space.view' },
      schema: {
        tags: ['spaces'],
        operationId: 'getEmbedByUrlInSpace',
        summary: 'What an address looks like embedded in a page of the space: title, site, icon, and oEmbed HTML when offered',
        description: 'The address is fetched through the outbound address guard: private addresses are refused (400) unless the operator allowed them with QUIRE_IMPORT_ALLOW_PRIVATE.',
        params: SpaceParams,
        querystring: EmbedQuery,
        response: { 200: EmbedSchema, ...errorResponses },
      },
    },
    async (request) => embedInSpace(request.ctx, request.params.spaceId, request.query.url),
  );
};
