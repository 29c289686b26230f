import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { errorResponses } from '../../http/schemas.ts';
import { ChangeRequestParams } from '../change-requests/schemas.ts';
import { presentFile } from '../content/presenter.ts';
import { RevisionFileSchema } from '../content/schemas.ts';
import { MAX_FILE_NAME, MAX_UPLOAD_BYTES } from './sniff.ts';
import { uploadFile } from './service.ts';

const UploadQuery = Type.Object(
  { name: Type.String({ minLength: 1, maxLength: 1000, description: `The file's name, such as "diagram.png" (its last ${MAX_FILE_NAME} characters of a path are kept).` }) },
  { additionalProperties: false },
);

/**
 * Quire's addition to the API: adding a file to a change request by sending its bytes. The client's
 * operations only read files (GitBook adds them through its editor); the workspace's paste and drop use
 * this, and so can a script.
 */
export const fileUploadRoutes: FastifyPluginAsyncTypebox = async (app) => {
  // Any body is the file's bytes, whatever its Content-Type (a JSON file stays bytes): this plugin's own parsers.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
  app.post(
    '/spaces/:spaceId/change-requests/:changeRequestId/content/files',
    {
      config: { policy: 'space.edit' },
      bodyLimit: MAX_UPLOAD_BYTES,
      schema: {
        tags: ['change-requests'],
        operationId: 'uploadFileInChangeRequest',
        summary: `Quire's addition: add a file to the change request (edit level). The body is the file's bytes (at most ${MAX_UPLOAD_BYTES} bytes, 413 above); its kind is read from the bytes, not from the Content-Type: pictures (PNG, JPEG, GIF, WebP, AVIF, BMP), PDF, text, CSV, JSON, YAML, zip, office documents, audio and video; HTML, SVG and XML are refused (400). The same bytes under the same name answer the file already there (200) instead of a copy; a name already used by other bytes gets "-1", "-2"… 201 with the file; 409 when the change request is merged or archived, 423 while the space is locked.`,
        params: ChangeRequestParams,
        querystring: UploadQuery,
        body: Type.Unsafe<Buffer>({ description: 'The bytes of the file, sent as they are (any Content-Type; the kind is read from the bytes).' }),
        response: { 200: RevisionFileSchema, 201: RevisionFileSchema, ...errorResponses, 423: errorResponses[409] },
      },
    },
    async (request, reply) => {
      const bytes = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      const { spaceId, changeRequestId } = request.params;
      const { view, created } = await uploadFile(request.ctx, { spaceId, changeRequestId }, request.query.name, bytes);
      return reply.code(created ? 201 : 200).send(presentFile(request.ctx, view, view.file, {}));
    },
  );
};
