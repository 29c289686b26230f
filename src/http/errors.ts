import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { QuireError } from '../errors.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import { lingerAfterRefusal } from './lingering-close.ts';
import type { DialectName } from '../db/database.ts';

interface ValidationIssue {
  instancePath: string;
  keyword: string;
  params: Record<string, unknown>;
  message?: string;
}

const PLACES: Record<string, string> = { body: 'body', querystring: 'query parameter', params: 'path parameter', headers: 'header' };

/** Turns the first validation issue into a sentence that names the field, e.g. `body member "title" must …`. */
export function describeValidation(context: string, issues: ValidationIssue[]): string {
  const issue = issues.find((i) => i.keyword !== 'anyOf' && i.keyword !== 'oneOf') ?? issues[0];
  const place = PLACES[context] ?? context;
  const path = issue.instancePath.replace(/^\//, '').replace(/\//g, '.');
  if (issue.keyword === 'required') {
    const name = [path, String(issue.params.missingProperty)].filter(Boolean).join('.');
    return context === 'body' ? `The body is missing the required member "${name}".` : `The ${place} "${name}" is required.`;
  }
  if (issue.keyword === 'additionalProperties') {
    const name = [path, String(issue.params.additionalProperty)].filter(Boolean).join('.');
    return context === 'body' ? `The body has a member "${name}" that this operation does not accept.` : `The ${place} "${name}" is not accepted here.`;
  }
  const rule = issue.keyword === 'enum' && Array.isArray(issue.params.allowedValues)
    ? `must be one of: ${issue.params.allowedValues.map((v) => JSON.stringify(v)).join(', ')}`
    : issue.message ?? 'is not valid';
  if (!path) return context === 'body' ? `The body ${rule}.` : `The ${place}s ${rule}.`;
  return context === 'body' ? `The body member "${path}" ${rule}.` : `The ${place} "${path}" ${rule}.`;
}

/** Bodies of the refusals Node's HTTP parser makes before Fastify sees a request, by their error code. */
const CLIENT_ERRORS: Record<string, [number, string]> = {
  HPE_HEADER_OVERFLOW: [431, 'The request headers are larger than this server accepts; send fewer or shorter headers.'],
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'The request took too long to arrive and was dropped; send it again.'],
  ERR_HTTP_HEADERS_TIMEOUT: [408, 'The request headers took too long to arrive and were dropped; send the request again.'],
};

/**
 * Fastify's `clientErrorHandler`: the refusal of a request that Node's HTTP parser could not read (headers
 * too large, too slow, malformed), written in the one error shape on the raw socket.
 */
export function clientErrorHandler(error: Error & { code?: string }, socket: import('node:net').Socket): void {
  if (socket.destroyed) return;
  const [status, message] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'The request is not valid HTTP and could not be read.'];
  const body = JSON.stringify({ error: { code: status, message } });
  const reason = status === 431 ? 'Request Header Fields Too Large' : status === 408 ? 'Request Timeout' : 'Bad Request';
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${status} ${reason}\r\nConnection: close\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  }
  socket.destroy(error);
}

/** Fastify's `frameworkErrors`: a URL it cannot route (bad percent-encoding) answers in the error shape. */
export function frameworkErrors(error: FastifyError, _request: FastifyRequest, reply: FastifyReply): void {
  if (error.code === 'FST_ERR_BAD_URL') {
    void send(reply, 400, 'The request URL is not valid: a "%" must start a percent-encoded byte (such as %20).');
    return;
  }
  void send(reply, error.statusCode && error.statusCode < 500 ? error.statusCode : 400, 'The request could not be read.');
}

function send(reply: FastifyReply, status: number, message: string) {
  if (status === 413) lingerAfterRefusal(reply);
  return reply.code(status).type('application/json; charset=utf-8').send({ error: { code: status, message } });
}

/** The one error handler: every 4xx and 5xx leaves as `{ error: { code, message } }`, with no stack, SQL or secret. */
export function registerErrorHandling(app: FastifyInstance, dialect: DialectName): void {
  app.setErrorHandler((error: FastifyError, request: FastifyRequest, reply: FastifyReply) => {
    if (error instanceof QuireError) return send(reply, error.status, error.message);
    if (error.validation) return send(reply, 400, describeValidation(error.validationContext ?? 'body', error.validation as ValidationIssue[]));
    if (error.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (error instanceof SyntaxError && error.statusCode === 400)) {
      return send(reply, 400, 'The request body is not valid JSON.');
    }
    if (error.code === 'FST_ERR_CTP_EMPTY_JSON_BODY') {
      return send(reply, 400, 'The request says its body is JSON but sends none: send a JSON body or leave out the Content-Type header.');
    }
    if (error.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      return send(reply, 413, `The request body is larger than this server accepts (${request.routeOptions.bodyLimit ?? 'the configured'} bytes).`);
    }
    if (error.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return send(reply, 415, `The Content-Type "${request.headers['content-type'] ?? ''}" is not supported; send application/json.`);
    }
    if (isUniqueViolation(dialect, error)) return send(reply, 409, 'This conflicts with a record that already exists.');
    if (typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500) {
      return send(reply, error.statusCode, error.message);
    }
    request.log.error({ err: error }, 'request failed');
    return send(reply, 500, 'Something went wrong on the server. The error has been logged; try again, and tell the operator if it persists.');
  });

  app.setNotFoundHandler((request, reply) =>
    send(reply, 404, `There is no route ${request.method} ${request.url.split('?')[0]}. The routes Quire serves are listed at /openapi.json.`),
  );
}
