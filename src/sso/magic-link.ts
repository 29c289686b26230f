import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import type { Mailer } from '../mail/mailer.ts';
import { magicLinkMail } from '../mail/messages.ts';
import { hashToken } from '../secrets.ts';
import { randomId, sameText } from './browser-flow.ts';
import { readCookie, setFlowCookie, type FlowCookie } from './cookies.ts';
import { SignInRefused } from './refusal.ts';

/**
 * Magic links: a one-time sign-in link sent by mail. The link's token is 256 random bits, stored only as
 * its SHA-256, valid fifteen minutes, used once, and bound to the browser that asked for it (a random id
 * in a cookie, stored hashed beside the token): a link forwarded, intercepted or opened by a mail scanner
 * in another browser signs nobody in. Opening the link shows a button; only the POST it sends uses the
 * link, so a scanner that follows links cannot spend it.
 */
export const BROWSER_COOKIE: FlowCookie = { name: 'quire_email_browser', path: '/sign-in/email', crossSitePost: false };
export const MAGIC_LINK_MINUTES = 15;
/** At most this many links per address and hour, so the form cannot be used to flood someone's inbox. */
const LINKS_PER_HOUR = 5;

export const VERIFY_PATH = '/sign-in/email/verify';

/** The id of this browser for e-mail links, made (and set in a cookie) when it has none. */
export function browserId(ctx: Context, request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request, BROWSER_COOKIE.name);
  if (existing) return existing;
  const id = randomId();
  setFlowCookie(ctx.config, reply, BROWSER_COOKIE, id, 24 * 3600);
  return id;
}

/** The hidden field of this server's e-mail forms: proves the form was served to this browser (no cross-site posting). */
export function formProof(ctx: Context, browser: string): string {
  return ctx.urls.sign(`email-form:${browser}`);
}

export function checkFormProof(ctx: Context, request: FastifyRequest, proof: unknown): string {
  const browser = readCookie(request, BROWSER_COOKIE.name);
  if (!browser || typeof proof !== 'string' || !ctx.urls.verify(`email-form:${browser}`, proof)) {
    throw new SignInRefused('This form has expired or was not sent from this site. Open the sign-in page again and send it from there.', 'form-proof');
  }
  return browser;
}

/**
 * Sends a sign-in link to an address that belongs to a user, bound to this browser. Says nothing about
 * whether the address is known: the page answers the same either way, and mail failures go to the log
 * (without the link).
 */
export async function sendMagicLink(ctx: Context, mailer: Mailer, request: FastifyRequest, browser: string, email: string, returnTo: string): Promise<void> {
  const address = email.trim().toLowerCase();
  const user = await ctx.db.selectFrom('users').select('id').where('email', '=', address).executeTakeFirst();
  if (!user) return;
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('magic_links').where('expires_at', '<', new Date(now.getTime() - 24 * 3600_000).toISOString()).execute();
  const recent = await ctx.db
    .selectFrom('magic_links')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('email', '=', address)
    .where('created_at', '>', new Date(now.getTime() - 3600_000).toISOString())
    .executeTakeFirstOrThrow();
  if (Number(recent.n) >= LINKS_PER_HOUR) {
    request.log.warn({ reason: 'magic-link-limit' }, 'magic link not sent: too many for this address in the last hour');
    return;
  }
  const token = randomId();
  await ctx.db
    .insertInto('magic_links')
    .values({
      token_hash: hashToken(token),
      email: address,
      browser_hash: hashToken(browser),
      return_to: returnTo,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + MAGIC_LINK_MINUTES * 60_000).toISOString(),
      used_at: null,
    })
    .execute();
  const link = `${ctx.config.publicUrl}${VERIFY_PATH}?token=${token}`;
  try {
    await mailer.send(magicLinkMail(address, link, MAGIC_LINK_MINUTES));
  } catch (error) {
    request.log.error({ reason: 'mail-failed', code: (error as { code?: unknown }).code }, 'a magic link could not be mailed');
  }
}

const SPENT = 'This sign-in link has already been used or has expired (links work once, for fifteen minutes). Ask for a new one.';

/** Uses a link: once, before it expires, in the browser that asked for it. Returns who it signs in and where to go. */
export async function useMagicLink(ctx: Context, request: FastifyRequest, token: unknown): Promise<{ userId: string; returnTo: string }> {
  if (typeof token !== 'string' || !/^[A-Za-z0-9_-]{20,100}$/.test(token)) throw new SignInRefused(SPENT, 'bad-link');
  const tokenHash = hashToken(token);
  const row = await ctx.db.selectFrom('magic_links').selectAll().where('token_hash', '=', tokenHash).executeTakeFirst();
  const now = nowIso(ctx);
  if (!row || row.used_at !== null || row.expires_at <= now) throw new SignInRefused(SPENT, row?.used_at ? 'reused-link' : 'spent-link');
  const browser = readCookie(request, BROWSER_COOKIE.name);
  if (!browser || !sameText(hashToken(browser), row.browser_hash)) {
    throw new SignInRefused('Open this sign-in link in the browser where you asked for it. For safety, a link works only there.', 'other-browser', 403);
  }
  const spent = await ctx.db.updateTable('magic_links').set({ used_at: now }).where('token_hash', '=', tokenHash).where('used_at', 'is', null).executeTakeFirst();
  if (Number(spent.numUpdatedRows) !== 1) throw new SignInRefused(SPENT, 'reused-link');
  const user = await ctx.db.selectFrom('users').select('id').where('email', '=', row.email).executeTakeFirst();
  if (!user) throw new SignInRefused('The account this link was for no longer exists.', 'no-user', 404);
  return { userId: user.id, returnTo: row.return_to };
}
