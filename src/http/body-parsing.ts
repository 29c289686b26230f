/**
 * What a request body may be. The API takes JSON: another media type answers 415 (rather than being read
 * as text and refused for its shape), and `Content-Type: application/json` with an empty body, which many
 * clients send on a bodiless POST, is read as no body at all.
 *
 * A body may nest at most MAX_JSON_DEPTH arrays and objects, measured on the text before it is parsed:
 * validation, the text rules and every service after them walk a body recursively, and a body nested
 * thousands deep would exhaust their stack (a 500) or cost far more than its size suggests. The deepest
 * thing Quire takes is a document (a page or comment body), whose tree is bounded at 200 levels by the
 * Markdown limits and takes two JSON levels per tree level.
 */
import type { FastifyInstance } from 'fastify';
import { BadRequest } from '../errors.ts';

export const MAX_JSON_DEPTH = 512;

const OPEN_OBJECT = 0x7b;
const OPEN_ARRAY = 0x5b;
const CLOSE_OBJECT = 0x7d;
const CLOSE_ARRAY = 0x5d;
const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** How deep the arrays and objects of a JSON text nest, stopping as soon as `limit` is passed; one linear scan. */
export function jsonDepth(text: string, limit = MAX_JSON_DEPTH): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_OBJECT || code === OPEN_ARRAY) {
      if (++depth > deepest) {
        deepest = depth;
        if (deepest > limit) return deepest;
      }
    } else if (code === CLOSE_OBJECT || code === CLOSE_ARRAY) {
      depth--;
    }
  }
  return deepest;
}

export function registerBodyParsing(app: FastifyInstance): void {
  const json = app.getDefaultJsonParser('error', 'error');
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = String(body);
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    if (jsonDepth(text) > MAX_JSON_DEPTH) {
      done(new BadRequest(`The body nests arrays and objects more than ${MAX_JSON_DEPTH} deep, more than any operation takes; send a flatter body.`), undefined);
      return;
    }
    json(request, text, done);
  });
}
