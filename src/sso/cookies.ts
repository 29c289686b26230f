import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../config.ts';

/**
 * The cookies of the federated ways in, which bind a login under way to the browser that started it.
 * Read and written by hand, as the reader's are (src/published/cookies.ts), so no request pays for a cookie
 * plugin. A SAML answer arrives as a cross-site POST from the identity provider, which a SameSite=Lax cookie
 * does not follow: behind https that cookie is SameSite=None (which browsers accept only with Secure).
 */
export interface FlowCookie {
  name: string;
  path: string;
  crossSitePost: boolean;
}

export function readCookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header || !header.includes(name)) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== name) continue;
    const value = part.slice(at + 1).trim();
    return /^[A-Za-z0-9_-]{1,200}$/.test(value) ? value : undefined;
  }
  return undefined;
}

function attributes(config: Pick<Config, 'publicUrl'>, cookie: FlowCookie): string[] {
  const secure = config.publicUrl.startsWith('https:');
  const parts = [`Path=${cookie.path}`, 'HttpOnly'];
  if (secure) parts.push('Secure');
  parts.push(cookie.crossSitePost && secure ? 'SameSite=None' : 'SameSite=Lax');
  return parts;
}

/** Sets a cookie whose value is a random base64url id (never anything else, so nothing needs escaping). */
export function setFlowCookie(config: Pick<Config, 'publicUrl'>, reply: FastifyReply, cookie: FlowCookie, value: string, maxAgeSeconds: number): void {
  reply.header('set-cookie', [`${cookie.name}=${value}`, `Max-Age=${maxAgeSeconds}`, ...attributes(config, cookie)].join('; '));
}

export function clearFlowCookie(config: Pick<Config, 'publicUrl'>, reply: FastifyReply, cookie: FlowCookie): void {
  reply.header('set-cookie', [`${cookie.name}=`, 'Max-Age=0', ...attributes(config, cookie)].join('; '));
}
