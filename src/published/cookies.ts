import type { FastifyReply, FastifyRequest } from 'fastify';

/**
 * The reader's few cookies, read and written here rather than through a cookie plugin, whose hook would
 * parse the Cookie header of every request: most requests to a public site carry no cookie of the reader.
 * Values are percent-encoded, so a value can never break out of its cookie.
 */
export interface CookieOptions {
  path: string;
  httpOnly: boolean;
  sameSite: 'lax';
  secure: boolean;
  /** Seconds; a session cookie without it. */
  maxAge?: number;
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header || !header.includes(name)) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    try {
      return decodeURIComponent(part.slice(at + 1).trim());
    } catch {
      return undefined;
    }
  }
  return undefined;
}

function serialize(name: string, value: string, options: CookieOptions, expired = false): string {
  const parts = [`${name}=${encodeURIComponent(value)}`, `Path=${options.path}`];
  if (expired) parts.push('Max-Age=0', 'Expires=Thu, 01 Jan 1970 00:00:00 GMT');
  else if (options.maxAge !== undefined) parts.push(`Max-Age=${Math.floor(options.maxAge)}`);
  if (options.httpOnly) parts.push('HttpOnly');
  if (options.secure) parts.push('Secure');
  parts.push('SameSite=Lax');
  return parts.join('; ');
}

export function setCookie(reply: FastifyReply, name: string, value: string, options: CookieOptions): void {
  // Fastify appends every set-cookie header rather than replacing the previous one.
  reply.header('set-cookie', serialize(name, value, options));
}

export function clearCookie(reply: FastifyReply, name: string, options: CookieOptions): void {
  reply.header('set-cookie', serialize(name, '', options, true));
}
