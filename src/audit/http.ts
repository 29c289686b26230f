import type { FastifyInstance, FastifyRequest, onRequestAsyncHookHandler, onSendAsyncHookHandler } from 'fastify';
import { replaceControlCharacters } from '../control-characters.ts';
import { RequestAudit, type AuditRequest } from './trail.ts';

/**
 * Puts every write through the API on the audit trail: a request with a method that writes gets a
 * RequestAudit on its Context (completed in its transaction by `inTransaction`), and the answer completes
 * it. Registered on the /v1 scope after authentication, so only requests with a known caller are recorded.
 */

const WRITES = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
/** Path parameters that name objects: every parameter whose name ends in Id. */
const ID_PARAMETER = /Id$/;
/** The largest response in which the id of a created object is looked for. */
const CREATED_LOOKUP_LIMIT = 1024 * 1024;

declare module 'fastify' {
  interface FastifyRequest {
    auditTrail?: RequestAudit;
  }
}

function describeRequest(request: FastifyRequest): AuditRequest {
  const params = (request.params ?? {}) as Record<string, unknown>;
  const objectIds: Record<string, string> = {};
  for (const [name, value] of Object.entries(params)) {
    // A refused write is recorded too, with the ids as sent: a NUL in one would stop PostgreSQL storing the entry.
    if (ID_PARAMETER.test(name) && typeof value === 'string') objectIds[name] = replaceControlCharacters(value);
  }
  const schema = request.routeOptions.schema as { operationId?: string } | undefined;
  const route = request.routeOptions.url ?? request.url.split('?')[0];
  const agent = request.headers['user-agent'];
  return {
    userId: request.ctx.actor?.userId ?? null,
    tokenId: request.ctx.actor?.tokenId ?? null,
    operation: schema?.operationId ?? `${request.method} ${route}`,
    method: request.method,
    route,
    objectIds,
    ip: request.ip ?? null,
    userAgent: typeof agent === 'string' ? replaceControlCharacters(agent) : null,
  };
}

/** The `id` of the object a 201 answer created, read from its JSON body. */
function createdId(payload: unknown, contentType: unknown): string | null {
  if (typeof payload !== 'string' || payload.length > CREATED_LOOKUP_LIMIT || !String(contentType ?? '').includes('json')) return null;
  try {
    const body = JSON.parse(payload) as { id?: unknown };
    return typeof body?.id === 'string' ? body.id : null;
  } catch {
    return null; // not JSON after all: nothing to add to the entry
  }
}

/**
 * Only routes that can write carry the two hooks (added to the route by `onRoute`): a read never pays for
 * them. They run where the scope's hooks ran before: first among the route's own onRequest hooks (after
 * authentication, a scope hook) and first among its onSend hooks (before the policy guard's).
 */
export function registerAuditTrail(scope: FastifyInstance): void {
  const begin: onRequestAsyncHookHandler = async (request) => {
    if (!request.ctx.actor) return;
    const trail = new RequestAudit(describeRequest(request));
    request.auditTrail = trail;
    request.ctx.audit = trail;
  };
  const finish: onSendAsyncHookHandler = async (request, reply, payload) => {
    const trail = request.auditTrail;
    if (!trail) return payload;
    request.auditTrail = undefined;
    const status = reply.statusCode;
    await trail.finish(request.ctx, status, status === 201 ? createdId(payload, reply.getHeader('content-type')) : null);
    return payload;
  };
  scope.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    if (!methods.some((method) => WRITES.has(method))) return;
    const hooks = <T>(value: T | T[] | undefined): T[] => (value === undefined ? [] : Array.isArray(value) ? value : [value]);
    const writes = methods.every((method) => WRITES.has(method));
    // A route that also answers reads (several methods) checks the method as the scope hook did.
    const onRequest: onRequestAsyncHookHandler = writes ? begin : async (request, reply) => (WRITES.has(request.method) ? begin.call(scope, request, reply) : undefined);
    route.onRequest = [onRequest, ...hooks(route.onRequest)] as typeof route.onRequest;
    route.onSend = [finish, ...hooks(route.onSend)] as typeof route.onSend;
  });
}
