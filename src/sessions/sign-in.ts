import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { inTransaction } from '../context.ts';
import { RequestAudit } from '../audit/trail.ts';
import { appendSetCookie, readCookie, serializeCookie, sessionCookieName } from './cookie.ts';
import { summarizeUserAgent } from './device.ts';
import { createSession, endSessionBySecret, type SessionRow, type SignInMethod } from './store.ts';

export type { SignInMethod } from './store.ts';

/** The session secret the request's cookie carries, if any (never logged, never returned). */
export function requestSessionSecret(request: FastifyRequest): string | undefined {
  return readCookie(request.headers.cookie, sessionCookieName(request.ctx.config));
}

/** An audit entry of a sign-in page's request (ids only: never a password, link or session secret). */
export function auditEntry(request: FastifyRequest, userId: string, operation: string, objectIds: Record<string, string>): RequestAudit {
  const agent = request.headers['user-agent'];
  return new RequestAudit({
    userId,
    tokenId: null,
    operation,
    method: request.method,
    route: request.routeOptions.url ?? request.url.split('?')[0],
    objectIds,
    ip: request.ip ?? null,
    // PostgreSQL cannot store NUL in text: control characters of the header are replaced.
    userAgent: typeof agent === 'string' ? agent.replace(/[\u0000-\u0008\u000b\u000c\u000e-\u001f]/g, '\uFFFD') : null,
  });
}

async function replaceSession(ctx: Context, request: FastifyRequest, reply: FastifyReply, userId: string, method: SignInMethod, operation: string): Promise<SessionRow> {
  const previous = requestSessionSecret(request);
  const session = await inTransaction(ctx, async (tx) => {
    // Rotation: the id the browser came with (whoever's it was, or one an attacker planted) ends here,
    // so no id known before this moment is ever signed in.
    if (previous) await endSessionBySecret(tx, previous);
    const { secret, session } = await createSession(tx, {
      userId,
      method,
      device: summarizeUserAgent(request.headers['user-agent']),
      ip: request.ip ?? null,
    });
    await auditEntry(request, userId, operation, { sessionId: session.id, signInMethod: method }).finish(tx, 200, null);
    reply.header('cache-control', 'no-store');
    appendSetCookie(reply, serializeCookie(tx.config, sessionCookieName(tx.config), secret));
    return session;
  });
  return session;
}

/**
 * Signs a person in: every way in (password, passkey, OpenID Connect, SAML, magic link, invite) ends here,
 * after it has established who the person is. Ends any session the request carried (no fixation), creates
 * a new one, sets the cookie (a browser-session cookie: it lasts until the browser closes or the session's
 * idle or absolute expiry, whichever comes first on the server) and writes the audit entry. The caller
 * then redirects to a validated same-origin path (`safeReturnTo`).
 */
export async function startSession(ctx: Context, request: FastifyRequest, reply: FastifyReply, userId: string, method: SignInMethod): Promise<void> {
  await replaceSession(ctx, request, reply, userId, method, 'signIn');
}

/**
 * Gives the signed-in person a new session id in place of the current one (same sign-in method), when
 * their privileges change: a password set or changed, a passkey added or removed, an organization joined.
 */
export async function rotateSession(ctx: Context, request: FastifyRequest, reply: FastifyReply, userId: string, method: SignInMethod): Promise<void> {
  await replaceSession(ctx, request, reply, userId, method, 'rotateSession');
}

/** Signs out: ends the request's session (if any) and tells the browser to drop the cookie. */
export async function endRequestSession(ctx: Context, request: FastifyRequest, reply: FastifyReply): Promise<void> {
  const secret = requestSessionSecret(request);
  if (secret) await endSessionBySecret(ctx, secret);
  clearSessionCookie(ctx, reply);
}

export function clearSessionCookie(ctx: Pick<Context, 'config'>, reply: FastifyReply): void {
  appendSetCookie(reply, serializeCookie(ctx.config, sessionCookieName(ctx.config), '', { maxAge: 0 }));
}

/**
 * The path to go to after signing in: a same-origin path given by the sign-in link (`returnTo`), or `/`.
 * Anything else (another origin, a scheme, `//host`, a backslash trick, a control character) gives `/`.
 */
export function safeReturnTo(raw: unknown): string {
  if (typeof raw !== 'string' || raw.length === 0 || raw.length > 2000) return '/';
  if (!raw.startsWith('/') || raw.startsWith('//') || raw.startsWith('/\\')) return '/';
  if (/[\u0000-\u001f\u007f\\]/.test(raw)) return '/';
  try {
    const url = new URL(raw, 'http://quire.invalid');
    if (url.origin !== 'http://quire.invalid') return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}
