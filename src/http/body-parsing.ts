/**
 * What a request body may be. The API takes JSON: another media type answers 415 (rather than being read
 * as text and refused for its shape), and `Content-Type: application/json` with an empty body, which many
 * clients send on a bodiless POST, is read as no body at all.
 */
import type { FastifyInstance } from 'fastify';

export function registerBodyParsing(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    if (String(body).trim() === '') {
      done(null, undefined);
      return;
    }
    json(request, String(body), done);
  });
}
