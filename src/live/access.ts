import type { FastifyRequest } from 'fastify';
import type { IncomingHttpHeaders } from 'node:http';
import type { Actor, AppServices } from '../context.ts';
import { createContext } from '../context.ts';
import { changeRequestAccess } from '../access/change-requests.ts';
import { Forbidden, NotFound, Unauthorized } from '../errors.ts';
import type { TokenAuthenticator } from '../http/auth.ts';
import { allows, authorize } from '../policy/index.ts';
import type { PresenceName } from './names.ts';

/**
 * Who a live connection acts for and what they may do with a document, through the same access layer as
 * the API: an API token (sent by the provider as its token) or the browser's session cookie (sent with the
 * WebSocket upgrade), resolved by the API's own authenticator; then the change request's access and the
 * space policies. Editors (the edit level, a space that is not locked, a draft or open change request)
 * write; whoever may read the space follows read-only.
 */

export interface LiveGrant {
  actor: Actor;
  readOnly: boolean;
}

export interface LiveCredentials {
  headers: IncomingHttpHeaders;
  /** The provider's token: an API token, or empty for the session cookie. */
  token: string;
  ip: string | null;
}

/** The person a connection acts for. */
export async function authenticateLive(services: AppServices, tokens: TokenAuthenticator, credentials: LiveCredentials): Promise<Actor> {
  const ctx = createContext(services, null);
  const token = credentials.token.trim();
  const headers: IncomingHttpHeaders = {};
  if (token) {
    headers.authorization = `Bearer ${token}`;
  } else {
    // A page of another site can open a WebSocket to Quire with the person's cookie (browsers send it):
    // only Quire's own pages may use the cookie (the browser always sends Origin on a WebSocket).
    const origin = credentials.headers.origin;
    const own = new URL(services.config.publicUrl).origin;
    if (origin !== own) throw new Forbidden(`A live connection authenticated by the session cookie must come from Quire's own pages (${own}); this one came from ${origin ?? 'no origin'}.`);
    if (credentials.headers.cookie) headers.cookie = credentials.headers.cookie;
  }
  // The API's authenticator, given the upgrade's credentials as a read (no CSRF token is needed to read).
  const request = { headers, ctx, method: 'GET', ip: credentials.ip ?? undefined } as unknown as FastifyRequest;
  await tokens.hook(request);
  if (!ctx.actor) throw new Unauthorized();
  return ctx.actor;
}

/** What `actor` may do with the document (or the change request's presence channel: the same access); refuses one they may not read (404, like the API). */
export async function authorizeLive(services: AppServices, actor: Actor, name: PresenceName): Promise<LiveGrant> {
  const ctx = createContext(services, actor);
  const { space, actor: standing, changeRequest } = await changeRequestAccess(ctx, name.spaceId, name.changeRequestId);
  if (space.organization_id !== name.organizationId || changeRequest.id !== name.changeRequestId) {
    throw new NotFound(`No change request "${name.changeRequestId}" in space "${name.spaceId}" of organization "${name.organizationId}".`);
  }
  authorize(ctx, 'space.view', standing);
  const writable = allows(ctx, 'space.edit', standing) && space.edit_mode !== 'locked' && (changeRequest.status === 'draft' || changeRequest.status === 'open');
  return { actor, readOnly: !writable };
}
