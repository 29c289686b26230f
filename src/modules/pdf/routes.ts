import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { contentDisposition } from '../../http/replies.ts';
import { ErrorBody, errorResponses } from '../../http/schemas.ts';
import { ChangeRequestPdfParams, PdfFileParams, PdfFileQuery, PdfQuery, PdfUrlSchema } from './schemas.ts';
import { changeRequestPdfUrl, openPdf } from './service.ts';

/** `GET …/change-requests/{id}/pdf`: the signed URL of a PDF of a change request's content. */
export const pdfRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    {
      config: { policy: 'space.view' },
      schema: {
        tags: ['change-requests'],
        operationId: 'getChangeRequestPDF',
        summary: 'A URL of the content of a change request as PDF',
        description:
          'All pages in tree order with a table of contents; with `page`, that page and the pages under it; with `only=true&page=…`, that page alone. The URL is signed and works for one to two hours, without a token.',
        params: ChangeRequestPdfParams,
        querystring: PdfQuery,
        response: { 200: PdfUrlSchema, ...errorResponses },
      },
    },
    async (request) => changeRequestPdfUrl(request.ctx, request.params.spaceId, request.params.changeRequestId, request.query),
  );
};

/** The PDFs themselves, by signed URL, outside /v1 (a browser following the URL sends no token). */
export const pdfFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/pdf/:spaceId/:revisionId',
    {
      // The signature in the URL is the authorization: it is only minted for callers who may read the space.
      config: { policy: 'public' },
      schema: {
        tags: ['change-requests'],
        operationId: 'downloadPdf',
        summary: 'A PDF of content, through the signed URL the API gives',
        params: PdfFileParams,
        querystring: PdfFileQuery,
        response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'The PDF.' }), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody, 500: ErrorBody },
      },
    },
    async (request, reply) => {
      const pdf = await openPdf(request.ctx, { ...request.params, ...request.query });
      const maxAge = Math.max(0, pdf.expires - Math.floor(request.ctx.clock.now().getTime() / 1000));
      return reply
        .header('content-type', 'application/pdf')
        .header('content-length', String(pdf.size))
        .header('content-disposition', contentDisposition(true, pdf.name))
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('etag', `"${pdf.blob}"`)
        .header('x-content-type-options', 'nosniff')
        .send(pdf.stream);
    },
  );
};
