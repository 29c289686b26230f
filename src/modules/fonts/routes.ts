import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Readable } from 'node:stream';
import { ErrorBody, errorResponses } from '../../http/schemas.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { FONT_MAX_BYTES } from './font-file.ts';
import { FontFileParams, StorageUploadBody, StorageUploadUrlSchema, UploadedSchema, UploadParams, UploadQuery } from './schemas.ts';
import { createUploadUrl, fontFaceCss, openFontFile, receiveUpload } from './uploads.ts';

/** Under /v1: the client's generateStorageUploadURL. */
export const storageUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/storage/upload',
    {
      config: { policy: 'site.manage' },
      schema: {
        tags: ['storage'],
        operationId: 'generateStorageUploadURL',
        summary: `A signed address to PUT a file to (kind customization_font: a .woff2 or .woff font of at most ${FONT_MAX_BYTES} bytes), and the key createCustomFont takes`,
        params: OrganizationParams,
        body: StorageUploadBody,
        response: { 201: StorageUploadUrlSchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(await createUploadUrl(request.ctx, request.params.organizationId, request.body)),
  );
};

/** Outside /v1: the signed upload address (the signature is the authorization) and the font files readers load. */
export const fontFileRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: FONT_MAX_BYTES + 1024 }, (_request, body, done) => done(null, body));
  app.put(
    '/storage/uploads/:key',
    {
      config: { policy: 'public' },
      bodyLimit: FONT_MAX_BYTES + 1024,
      schema: {
        tags: ['storage'],
        operationId: 'uploadStorageFile',
        summary: 'The bytes of a file, PUT to the signed address generateStorageUploadURL gave (a font: parsed and checked before it is kept)',
        params: UploadParams,
        querystring: UploadQuery,
        response: { 200: UploadedSchema, 400: ErrorBody, 404: ErrorBody, 409: ErrorBody, 410: ErrorBody, 413: ErrorBody, 500: ErrorBody },
      },
    },
    async (request) => {
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      return receiveUpload(request.ctx, request.params.key, request.query, body);
    },
  );

  app.get(
    '/~fonts/:file',
    { config: { policy: 'public' }, schema: { hide: true, params: FontFileParams } },
    async (request, reply) => {
      const file = await openFontFile(request.ctx, request.params.file);
      return reply
        .header('content-type', file.contentType)
        .header('content-length', String(file.size))
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('etag', `"${file.blob}"`)
        .header('access-control-allow-origin', '*')
        .header('x-content-type-options', 'nosniff')
        .send(file.stream as Readable);
    },
  );

  app.get(
    '/~fonts/css/:file',
    { config: { policy: 'public' }, schema: { hide: true, params: FontFileParams } },
    async (request, reply) => {
      const css = await fontFaceCss(request.ctx, request.params.file);
      if (css === null) return reply.code(404).header('cache-control', 'no-store').type('text/css; charset=utf-8').send('/* no such font */');
      return reply.header('cache-control', 'public, no-cache').header('x-content-type-options', 'nosniff').type('text/css; charset=utf-8').send(css);
    },
  );
};
