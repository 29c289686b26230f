import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../helpers/app.ts';
import { createSession } from '../../src/sessions/store.ts';

export interface BrowserSession {
  id: string;
  secret: string;
  cookie: string;
  csrf: string;
}

/** Signs a user in directly (as every way in ends): a session row and the cookie a browser would hold. */
export async function sessionFor(t: TestApp, userId: string): Promise<BrowserSession> {
  const { secret, session } = await createSession(t.ctx, { userId, method: 'password', device: 'Test on Linux', ip: '127.0.0.1' });
  return { id: session.id, secret, cookie: `quire_session=${secret}`, csrf: session.csrf_token };
}

/** A request with a session cookie (and whatever headers the test adds). */
export async function withCookie(app: FastifyInstance, session: BrowserSession, method: string, url: string, options: { body?: unknown; headers?: Record<string, string> } = {}) {
  const response = await app.inject({
    method: method as 'GET',
    url,
    headers: { cookie: session.cookie, ...(options.body !== undefined ? { 'content-type': 'application/json' } : {}), ...options.headers },
    payload: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.statusCode, body: response.body ? JSON.parse(response.body) : undefined, headers: response.headers };
}

export function form(fields: Record<string, string>): string {
  return new URLSearchParams(fields).toString();
}

/** The session cookie (name=value) a reply sets, if any. */
export function sessionCookie(headers: Record<string, unknown>): string | undefined {
  const all = ([] as unknown[]).concat(headers['set-cookie'] ?? []).map(String);
  const found = all.find((cookie) => /^quire_session=[^;]+/.test(cookie));
  return found?.split(';')[0];
}
