import { clearCookie, readCookie, setCookie, type CookieOptions } from './cookies.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { decodeJwt } from 'jose';
import { allows, type SiteAudience } from '../policy/index.ts';
import { identifyVisitor, siteAudience, unsignedClaimsFromQuery } from '../sites/visitor.ts';
import type { SiteAddressing } from './resolve.ts';

/**
 * Who may read a published site, decided on every request (src/policy/site.ts `readsPublished`):
 * - share-link: `?share=KEY` with an active key of the site sets a cookie holding the key and redirects to
 *   the same address without it; the cookie's key is looked up again on every request, so a link that is
 *   deactivated or deleted stops working at once. No valid key: the 404 an unknown site gets.
 * - visitor-auth: `?jwt_token=…` signed with the site's key sets a cookie holding the token (until it
 *   expires) and redirects without it; the token is verified again on every request, so an expired token
 *   or a regenerated key refuses it. No valid token: a redirect to the site's fallback URL with
 *   `location=<path in the site>`, or a 401 page when it has none.
 * - Unsigned claims (`?visitor.<name>=…`) are kept in a cookie too, so adaptive content holds while the
 *   visitor clicks around; they decide what is shown, never whether the site opens.
 */

export const SHARE_COOKIE = 'quire_share';
export const VISITOR_COOKIE = 'quire_visitor';
export const CLAIMS_COOKIE = 'quire_claims';

/** Cookies of a visitor token never outlive this, whatever the token's expiry. */
const MAX_VISITOR_COOKIE_SECONDS = 30 * 24 * 3600;
const SHARE_COOKIE_SECONDS = 30 * 24 * 3600;

export type Admission =
  | { kind: 'admitted'; claims: Record<string, unknown>; restricted: boolean; audience: SiteAudience }
  /** A credential arrived in the address: its cookie is set; go to the address without it. */
  | { kind: 'redirect'; location: string }
  | { kind: 'not-found' }
  | { kind: 'unauthorized' }
  | { kind: 'fallback'; location: string };

type Query = Record<string, unknown>;

function single(value: unknown): string | undefined {
  const first = Array.isArray(value) ? value[0] : value;
  return typeof first === 'string' ? first : undefined;
}

function cookieOptions(addressing: SiteAddressing, maxAge?: number): CookieOptions {
  return {
    path: addressing.root || '/',
    httpOnly: true,
    sameSite: 'lax',
    secure: addressing.origin.startsWith('https:'),
    ...(maxAge !== undefined ? { maxAge } : {}),
  };
}

/** The request's address (path and query) without the named parameters. */
export function withoutParameters(url: string, names: string[]): string {
  const [path, query = ''] = url.split(/\?(.*)/s, 2);
  const params = new URLSearchParams(query);
  for (const name of names) params.delete(name);
  const rest = params.toString();
  return rest ? `${path}?${rest}` : path;
}

/** Unsigned claims: from the address when it carries some (and remembered in a cookie), else from the cookie. */
function unsignedClaims(request: FastifyRequest, query: Query): { claims: Record<string, unknown>; fromAddress: boolean } {
  const fromQuery = unsignedClaimsFromQuery(query);
  if (Object.keys(fromQuery).length > 0) return { claims: fromQuery, fromAddress: true };
  return { claims: storedClaims(readCookie(request, CLAIMS_COOKIE)), fromAddress: false };
}

function storedClaims(stored: string | undefined): Record<string, unknown> {
  if (!stored) return {};
  try {
    const parsed = JSON.parse(stored) as unknown;
    if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return {};
    // Read back through the same gate as the address, so a hand-made cookie holds nothing the address could not.
    const asQuery = Object.fromEntries(Object.entries(parsed).map(([name, value]) => [`visitor.${name}`, String(value)]));
    return unsignedClaimsFromQuery(asQuery);
  } catch {
    return {};
  }
}

function fallbackLocation(fallback: string, path: string): string | null {
  try {
    const url = new URL(fallback);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    url.searchParams.set('location', path);
    return url.toString();
  } catch {
    return null;
  }
}

/** Decides the request's standing on the site; sets and clears the site's cookies on the way. */
export async function admit(request: FastifyRequest, reply: FastifyReply, addressing: SiteAddressing): Promise<Admission> {
  const { site } = addressing;
  const ctx = request.ctx;
  const query = (request.query ?? {}) as Query;
  const { claims: unsigned, fromAddress } = unsignedClaims(request, query);
  // A share key counts on a share-link site, a visitor JWT on a visitor-auth site: from the address, else a cookie.
  const shareOffered = site.visibility === 'share-link' ? single(query.share) : undefined;
  const shareKey = site.visibility === 'share-link' ? (shareOffered ?? readCookie(request, SHARE_COOKIE)) : undefined;
  const jwtOffered = site.visibility === 'visitor-auth' ? single(query.jwt_token) : undefined;
  const jwt = site.visibility === 'visitor-auth' ? (jwtOffered ?? readCookie(request, VISITOR_COOKIE)) || undefined : undefined;
  const visitor = await identifyVisitor(ctx, site, { shareKey, jwt, unsigned });
  let arrived: { cookie: string; value: string; maxAge: number; parameter: string } | null = null;

  if (shareOffered !== undefined && visitor.sharedWith) arrived = { cookie: SHARE_COOKIE, value: shareOffered, maxAge: SHARE_COOKIE_SECONDS, parameter: 'share' };
  else if (shareOffered === undefined && shareKey !== undefined && !visitor.sharedWith) clearCookie(reply, SHARE_COOKIE, cookieOptions(addressing));
  if (jwtOffered !== undefined && visitor.authenticated) {
    const exp = decodeJwt(jwtOffered).exp ?? 0;
    const seconds = Math.min(MAX_VISITOR_COOKIE_SECONDS, Math.max(1, exp - Math.floor(ctx.clock.now().getTime() / 1000)));
    arrived = { cookie: VISITOR_COOKIE, value: jwtOffered, maxAge: seconds, parameter: 'jwt_token' };
  } else if (jwtOffered === undefined && jwt !== undefined && !visitor.authenticated) clearCookie(reply, VISITOR_COOKIE, cookieOptions(addressing));

  const audience = siteAudience(site, visitor, false);
  if (!allows(ctx, 'site.readPublished', audience)) {
    if (!audience.published || site.visibility !== 'visitor-auth') return { kind: 'not-found' };
    const inSite = withoutParameters(request.url.slice(addressing.root.length) || '/', ['jwt_token']);
    const location = site.auth_fallback_url ? fallbackLocation(site.auth_fallback_url, inSite.startsWith('/') ? inSite : `/${inSite}`) : null;
    return location ? { kind: 'fallback', location } : { kind: 'unauthorized' };
  }
  if (fromAddress) setCookie(reply, CLAIMS_COOKIE, JSON.stringify(unsigned), cookieOptions(addressing, SHARE_COOKIE_SECONDS));
  if (arrived) {
    setCookie(reply, arrived.cookie, arrived.value, cookieOptions(addressing, arrived.maxAge));
    return { kind: 'redirect', location: withoutParameters(request.url, [arrived.parameter]) };
  }
  return { kind: 'admitted', claims: visitor.claims, restricted: site.visibility === 'share-link' || site.visibility === 'visitor-auth', audience };
}
