import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import { Type } from 'typebox';
import { contentDisposition } from '../../http/replies.ts';
import { ErrorBody } from '../../http/schemas.ts';
import { openDownload } from './download-service.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });

/** Types a browser may show in place; everything else is offered as a download. */
const INLINE = /^(image\/(png|jpeg|gif|webp|avif|bmp)|video\/|audio\/|application\/pdf$|text\/plain$)/;

/** File downloads by signed URL, outside /v1 (a browser following a downloadURL sends no token). */
export const contentFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/files/:spaceId/:fileId',
    {
      // The signature in the URL is the authorization: it is only minted for callers who may read the space.
      config: { policy: 'public' },
      schema: {
        tags: ['space-content'],
        operationId: 'downloadFile',
        summary: 'The bytes of a file, through the signed "downloadURL" of a RevisionFile',
        params: Type.Object({ spaceId: Id, fileId: Id }),
        querystring: Type.Object({
          revision: Id,
          expires: Type.Integer({ minimum: 0, description: 'When the link expires, in seconds since 1970.' }),
          signature: Type.String({ minLength: 1, maxLength: 200 }),
        }),
        response: { 200: Type.Unsafe<Readable>({ type: 'string', format: 'binary', description: 'The bytes of the file, with its Content-Type.' }), 400: ErrorBody, 403: ErrorBody, 404: ErrorBody, 410: ErrorBody, 500: ErrorBody },
      },
    },
    async (request, reply) => {
      const { file, stream, expires } = await openDownload(request.ctx, { ...request.params, ...request.query });
      const maxAge = Math.max(0, expires - Math.floor(request.ctx.clock.now().getTime() / 1000));
      return reply
        .header('content-type', file.contentType || 'application/octet-stream')
        .header('content-length', String(file.size))
        .header('content-disposition', contentDisposition(INLINE.test(file.contentType), file.name))
        .header('cache-control', `private, max-age=${maxAge}, immutable`)
        .header('etag', `"${file.blob}"`)
        .header('x-content-type-options', 'nosniff')
        .header('content-security-policy', "default-src 'none'; sandbox")
        .send(stream);
    },
  );
};
