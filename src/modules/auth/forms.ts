import type { FastifyInstance, FastifyRequest } from 'fastify';
import { QuireError } from '../../errors.ts';
import { checkCsrf, SAFE_METHODS } from '../../http/auth.ts';
import { resolveSession, type ResolvedSession } from '../../sessions/store.ts';
import { requestSessionSecret } from '../../sessions/sign-in.ts';

/** Largest form body the sign-in pages accept. */
const FORM_LIMIT = 16 * 1024;

/**
 * HTML forms post `application/x-www-form-urlencoded`; only the sign-in and account pages read it (the API
 * keeps answering 415 to anything but JSON). A field given twice keeps its first value.
 */
export function registerFormParsing(scope: FastifyInstance): void {
  scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: FORM_LIMIT }, (_request, body, done) => {
    const fields: Record<string, string> = {};
    for (const [name, value] of new URLSearchParams(String(body))) if (!(name in fields)) fields[name] = value;
    done(null, fields);
  });
}

/** A form's fields (an empty object for a body that was not a form). */
export function formFields(request: FastifyRequest): Record<string, string> {
  const body = request.body;
  if (!body || typeof body !== 'object') return {};
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(body as Record<string, unknown>)) if (typeof value === 'string') fields[name] = value;
  return fields;
}

/**
 * The session of a page request, or undefined when signed out. A form post that changes something must
 * carry the session's CSRF token in its `_csrf` field (or the X-CSRF-Token header); else 403.
 */
export async function pageSession(request: FastifyRequest): Promise<ResolvedSession | undefined> {
  const secret = requestSessionSecret(request);
  if (secret === undefined) return undefined;
  const resolved = await resolveSession(request.ctx, secret, request.ip ?? null);
  if (resolved && !SAFE_METHODS.has(request.method)) checkCsrf(request, resolved.session.csrf_token, formFields(request)._csrf);
  if (resolved) request.ctx.actor = { userId: resolved.user.id, email: resolved.user.email, sessionId: resolved.session.id };
  return resolved;
}

/** Whether a form post without a session comes from Quire's own pages (a browser sends Origin with every POST it makes). */
export function fromOwnOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  return typeof origin !== 'string' || origin === new URL(request.ctx.config.publicUrl).origin;
}

/** The message of a refusal to show on a page; anything unexpected propagates to the error handler. */
export function refusalMessage(error: unknown): { status: number; message: string } {
  if (error instanceof QuireError) return { status: error.status, message: error.message };
  throw error;
}
