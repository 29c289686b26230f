import type { Config } from '../config.ts';

/**
 * The session cookie: `quire_session`, or `__Host-quire_session` when Quire is served over https (the
 * prefix makes the browser refuse it unless it is Secure, host-only and for Path=/, so a sibling subdomain
 * cannot plant one). HttpOnly (no script reads it), SameSite=Lax (a cross-site form post does not carry it).
 */
export const PLAIN_COOKIE = 'quire_session';
export const HOST_COOKIE = '__Host-quire_session';

export function isHttps(config: Pick<Config, 'publicUrl'>): boolean {
  return config.publicUrl.startsWith('https:');
}

export function sessionCookieName(config: Pick<Config, 'publicUrl'>): string {
  return isHttps(config) ? HOST_COOKIE : PLAIN_COOKIE;
}

/** The value of one cookie in a Cookie header, or undefined (the first of several by that name). */
export function readCookie(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const value = part.slice(index + 1).trim();
    return value === '' ? undefined : value;
  }
  return undefined;
}

interface CookieOptions {
  /** Seconds until the browser drops it; 0 removes it now; undefined makes a cookie that lasts while the browser runs. */
  maxAge?: number;
  /** Path (the session cookie is always at /). */
  path?: string;
  sameSite?: 'Lax' | 'Strict';
}

/** A Set-Cookie value with Quire's flags: HttpOnly always, Secure behind https. */
export function serializeCookie(config: Pick<Config, 'publicUrl'>, name: string, value: string, options: CookieOptions = {}): string {
  const parts = [`${name}=${value}`, `Path=${options.path ?? '/'}`, 'HttpOnly', `SameSite=${options.sameSite ?? 'Lax'}`];
  if (isHttps(config)) parts.push('Secure');
  if (options.maxAge !== undefined) parts.push(`Max-Age=${options.maxAge}`);
  return parts.join('; ');
}

/** Adds a Set-Cookie header to those a reply already carries. */
export function appendSetCookie(reply: { getHeader(name: string): unknown; header(name: string, value: unknown): unknown }, cookie: string): void {
  const existing = reply.getHeader('set-cookie');
  const list = existing === undefined ? [] : Array.isArray(existing) ? existing.map(String) : [String(existing)];
  reply.header('set-cookie', [...list, cookie]);
}
