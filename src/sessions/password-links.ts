import { randomBytes } from 'node:crypto';
import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import { hashToken } from '../secrets.ts';

/**
 * One-time links that set a password: an invite's (the first password of someone an administrator added
 * by address) and a reset's (made by an administrator or `quire user password reset`). The link carries
 * 256 random bits; only their SHA-256 is stored. A link works once, until it expires, and a new link of
 * the same purpose for the same user replaces the older ones.
 */
export type PasswordLinkPurpose = 'invite' | 'reset';

/** How long each kind of link works. */
export const PASSWORD_LINK_LIFETIME_MS: Record<PasswordLinkPurpose, number> = { invite: 7 * 86_400_000, reset: 3_600_000 };

const PATHS: Record<PasswordLinkPurpose, string> = { invite: '/invite/', reset: '/reset-password/' };

export interface PasswordLink {
  /** The whole link, to hand to the person once; never stored. */
  url: string;
  expiresAt: string;
}

/** How long a reset link a person asked for on the sign-in page works (mailed, bound to their browser). */
export const SELF_SERVICE_RESET_MINUTES = 30;

export interface PasswordLinkOptions {
  /** The id of the browser that asked (a self-service reset): the link then works only there. */
  browser?: string;
  lifetimeMs?: number;
}

export async function createPasswordLink(ctx: Context, userId: string, purpose: PasswordLinkPurpose, createdBy: string | null, options: PasswordLinkOptions = {}): Promise<PasswordLink> {
  const secret = randomBytes(32).toString('base64url');
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + (options.lifetimeMs ?? PASSWORD_LINK_LIFETIME_MS[purpose])).toISOString();
  await ctx.db.deleteFrom('password_links').where('user_id', '=', userId).where('purpose', '=', purpose).where('used_at', 'is', null).execute();
  await ctx.db
    .insertInto('password_links')
    .values({ id: ctx.ids.next(), token_hash: hashToken(secret), user_id: userId, purpose, created_by: createdBy, created_at: now.toISOString(), expires_at: expiresAt, used_at: null, browser_hash: options.browser ? hashToken(options.browser) : null })
    .execute();
  return { url: `${ctx.config.publicUrl}${PATHS[purpose]}${secret}`, expiresAt };
}

export interface LiveLink {
  id: string;
  userId: string;
  email: string;
  displayName: string;
  purpose: PasswordLinkPurpose;
  /** Set when the link works only in the browser that asked for it. */
  browserHash: string | null;
}

/** The unused, unexpired link a secret names, with its user; undefined otherwise. */
export async function findPasswordLink(ctx: Context, secret: string, purpose: PasswordLinkPurpose): Promise<LiveLink | undefined> {
  const row = await ctx.db
    .selectFrom('password_links')
    .innerJoin('users', 'users.id', 'password_links.user_id')
    .select(['password_links.id', 'password_links.user_id', 'password_links.purpose', 'password_links.browser_hash', 'users.email', 'users.display_name'])
    .where('password_links.token_hash', '=', hashToken(secret))
    .where('password_links.purpose', '=', purpose)
    .where('password_links.used_at', 'is', null)
    .where('password_links.expires_at', '>', nowIso(ctx))
    .executeTakeFirst();
  if (!row) return undefined;
  return { id: row.id, userId: row.user_id, email: row.email, displayName: row.display_name, purpose: row.purpose, browserHash: row.browser_hash };
}

/** Marks a link used; false when another request used it first (the caller must then stop). */
export async function consumePasswordLink(ctx: Context, linkId: string): Promise<boolean> {
  const result = await ctx.db.updateTable('password_links').set({ used_at: nowIso(ctx) }).where('id', '=', linkId).where('used_at', 'is', null).executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}
