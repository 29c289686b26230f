import { randomBytes } from 'node:crypto';
import { jwtVerify } from 'jose';
import type { Context } from '../context.ts';
import { SITE_VISIBILITIES, type SiteAudience, type SiteVisibility } from '../policy/site.ts';
import { hashToken } from '../secrets.ts';
import { isClaimName } from './adaptive-schema.ts';

/**
 * Who reads a published site: the claims adaptive content is decided by, and what the visitor holds that
 * opens a restricted site (a valid visitor JWT, an active share key).
 */
export interface Visitor {
  claims: Record<string, unknown>;
  authenticated: boolean;
  sharedWith: boolean;
}

export const anonymousVisitor: Visitor = Object.freeze({ claims: Object.freeze({}), authenticated: false, sharedWith: false });

/** The key that signs a site's visitor JWTs: 256 random bits, hex. Stored sealed (ctx.secrets.encrypt). */
export function newVisitorAuthKey(): string {
  return randomBytes(32).toString('hex');
}

export function readVisitorAuthKey(ctx: Pick<Context, 'secrets'>, sealed: string): string {
  return ctx.secrets.decrypt(sealed).toString('utf8');
}

// A visitor's clock and the site's backend may drift a little; a token just expired is still honoured.
const CLOCK_TOLERANCE_SECONDS = 30;

// Claims about the token itself rather than the visitor; conditions have no use for them. `sub` and `iss`
// may say who the visitor is, so they stay.
const REGISTERED_CLAIMS = ['exp', 'iat', 'nbf', 'jti', 'aud'];

/**
 * The claims of a visitor JWT signed (HS256) with the site's key, or null when the token is forged, signed
 * with another key or algorithm, expired, not yet valid, malformed or has no expiry (a token that never
 * expires would open the site forever). Time is the Context's clock. The token is never logged nor put in
 * an error: it is a credential.
 */
export async function verifyVisitorJwt(ctx: Pick<Context, 'secrets' | 'clock'>, site: { auth_key: string }, token: string): Promise<Record<string, unknown> | null> {
  let key: Uint8Array;
  try {
    // The HMAC secret is the key exactly as the site's admin sees it (its UTF-8 bytes), as their backend uses it.
    key = new TextEncoder().encode(readVisitorAuthKey(ctx, site.auth_key));
  } catch {
    // A key that cannot be unsealed (another master key) verifies nothing.
    return null;
  }
  try {
    const { payload } = await jwtVerify(token, key, {
      algorithms: ['HS256'],
      requiredClaims: ['exp'],
      currentDate: ctx.clock.now(),
      clockTolerance: CLOCK_TOLERANCE_SECONDS,
    });
    return visitorPayload(payload);
  } catch {
    // Whatever jose refuses (JOSEError, or TypeError on input it cannot even read) is an untrusted token;
    // the error is dropped rather than passed on, so the token cannot reach a log through it.
    return null;
  }
}

function visitorPayload(payload: Record<string, unknown>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(payload)) {
    // `__proto__` would set the object's prototype, not a claim; conditions could never read it anyway.
    if (!REGISTERED_CLAIMS.includes(name) && name !== '__proto__') claims[name] = value;
  }
  return claims;
}

/** A share key of a site: 128 random bits, URL-safe (base64url), shown in the share link's URL. */
export function newShareKey(): string {
  return randomBytes(16).toString('base64url');
}

/** Share keys are random, so a plain SHA-256 is a sound one-way hash to look them up by (as API tokens). */
export function shareKeyHash(key: string): string {
  return hashToken(key);
}

/** Whether `key` is an active share key of this site. */
export async function shareKeyActive(ctx: Pick<Context, 'db'>, siteId: string, key: string): Promise<boolean> {
  if (!key) return false;
  const row = await ctx.db
    .selectFrom('site_share_links')
    .select('id')
    .where('key_hash', '=', shareKeyHash(key))
    .where('site_id', '=', siteId)
    .where('active', '=', 1)
    .executeTakeFirst();
  return row !== undefined;
}

const QUERY_PREFIX = 'visitor.';
const MAX_UNSIGNED_CLAIMS = 50;
const NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?$/;

/**
 * Unsigned claims from a published URL, which GitBook passes as `?visitor.<name>=<value>`: "true" and
 * "false" become booleans, plain decimal numbers become numbers, anything else stays a string. Names that
 * are not claim names are ignored, and only the first 50 claims are kept. A repeated parameter (an array)
 * keeps its first value.
 */
export function unsignedClaimsFromQuery(query: Record<string, unknown>): Record<string, unknown> {
  const claims: Record<string, unknown> = {};
  let count = 0;
  for (const [key, raw] of Object.entries(query)) {
    if (count >= MAX_UNSIGNED_CLAIMS) break;
    if (!key.startsWith(QUERY_PREFIX)) continue;
    const name = key.slice(QUERY_PREFIX.length);
    const value = Array.isArray(raw) ? raw[0] : raw;
    if (!isClaimName(name) || typeof value !== 'string' || Object.hasOwn(claims, name)) continue;
    claims[name] = claimValue(value);
    count++;
  }
  return claims;
}

function claimValue(text: string): unknown {
  if (text === 'true') return true;
  if (text === 'false') return false;
  if (NUMBER.test(text) && Number.isFinite(Number(text))) return Number(text);
  return text;
}

/**
 * What conditions see as `visitor.claims`: the signed claims, with the unsigned ones only under
 * `unsigned`. Signed claims are authoritative: an unsigned claim never shadows one. Should the JWT itself
 * carry an `unsigned` object, its fields win over the URL's; should it carry a non-object `unsigned`, that
 * value stays and the URL's claims are dropped.
 */
export function visitorClaims(signed: Record<string, unknown> | null, unsigned: Record<string, unknown>): Record<string, unknown> {
  const claims = { ...(signed ?? {}) };
  const signedUnsigned = claims.unsigned;
  if (signedUnsigned === undefined) claims.unsigned = { ...unsigned };
  else if (isPlainObject(signedUnsigned)) claims.unsigned = { ...unsigned, ...signedUnsigned };
  return claims;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value);
}

/** What a reader offers a published site: a share key, a visitor JWT, unsigned claims. */
export interface VisitorCredentials {
  shareKey?: string;
  jwt?: string;
  unsigned?: Record<string, unknown>;
}

/**
 * Checks what a reader offers against the site and assembles the visitor: the one place where the API's
 * published profile and the reader decide who is reading (what they admit with it is `siteAudience`).
 */
export async function identifyVisitor(ctx: Pick<Context, 'db' | 'secrets' | 'clock'>, site: { id: string; auth_key: string }, offered: VisitorCredentials): Promise<Visitor> {
  const [sharedWith, signed] = await Promise.all([
    offered.shareKey !== undefined ? shareKeyActive(ctx, site.id, offered.shareKey) : Promise.resolve(false),
    offered.jwt !== undefined ? verifyVisitorJwt(ctx, site, offered.jwt) : Promise.resolve(null),
  ]);
  return { claims: visitorClaims(signed, offered.unsigned ?? {}), authenticated: signed !== null, sharedWith };
}

/** The standing of a reader of a published site, for readsPublished (src/policy/site.ts). */
export function siteAudience(site: { published: number; visibility: string }, visitor: Visitor, member: boolean): SiteAudience {
  // A visibility Quire does not know (a row written by a newer version, say) opens the site to no one.
  const known = (SITE_VISIBILITIES as readonly string[]).includes(site.visibility);
  return {
    member,
    published: site.published !== 0 && known,
    visibility: (known ? site.visibility : 'visitor-auth') as SiteVisibility,
    sharedWith: visitor.sharedWith,
    authenticated: visitor.authenticated,
  };
}
