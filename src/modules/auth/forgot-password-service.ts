import { createHash } from 'node:crypto';
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../../context.ts';
import { countInWindow } from '../../db/counters.ts';
import { BadRequest, Forbidden, TooManyRequests } from '../../errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { passwordResetMail } from '../../mail/messages.ts';
import { hashToken } from '../../secrets.ts';
import { createPasswordLink, SELF_SERVICE_RESET_MINUTES, type LiveLink } from '../../sessions/password-links.ts';
import { randomId, sameText } from '../../sso/browser-flow.ts';
import { readCookie, setFlowCookie, type FlowCookie } from '../../sso/cookies.ts';
import { isEmail, normalizeEmail } from '../users/service.ts';

/**
 * "Forgot password?" where mail is configured: a person gives their address on /reset-password and, if a
 * user has it, a one-time reset link is mailed to it. The answer is the same whether or not the address
 * is known, and takes about as long (the mail is handed to the SMTP server after the answer, so its round
 * trip does not tell). The link works once, for thirty minutes, and only in the browser that asked: that
 * browser holds a random id in a cookie scoped to /reset-password, the link's row its SHA-256. Requests
 * are limited per address typed (known or not) and per client address, in the counters every process
 * shares. Using the link (set-password-service.ts) ends every session of the person.
 */
export const RESET_BROWSER_COOKIE: FlowCookie = { name: 'quire_reset_browser', path: '/reset-password', crossSitePost: false };

/** Mails per address typed in an hour: enough to retry, too few to flood an inbox. */
const PER_ADDRESS_PER_HOUR = 3;
/** Requests per client address in an hour (an office behind one address asks for several people). */
const PER_CLIENT_PER_HOUR = 20;
const HOUR_MS = 3_600_000;

export const OTHER_BROWSER =
  'Open this link in the browser where you asked for it: for safety, a reset link works only there. If you cannot, ask for a new link from the browser you are using now.';

/** The id of this browser for reset links, made (and set in a cookie) when it has none. */
export function resetBrowserId(ctx: Context, request: FastifyRequest, reply: FastifyReply): string {
  const existing = readCookie(request, RESET_BROWSER_COOKIE.name);
  if (existing) return existing;
  const id = randomId();
  setFlowCookie(ctx.config, reply, RESET_BROWSER_COOKIE, id, 24 * 3600);
  return id;
}

/** The hidden field of the form: proves it was served to this browser by this server (no cross-site posting). */
export function resetFormProof(ctx: Context, browser: string): string {
  return ctx.urls.sign(`reset-form:${browser}`);
}

/** The browser id of a form post that carries its proof; refuses any other. */
export function checkResetForm(ctx: Context, request: FastifyRequest, proof: unknown): string {
  const browser = readCookie(request, RESET_BROWSER_COOKIE.name);
  if (!browser || typeof proof !== 'string' || !ctx.urls.verify(`reset-form:${browser}`, proof)) {
    throw new Forbidden('This form has expired or was not sent from this site. Open the "Forgot password?" page again and send it from there.');
  }
  return browser;
}

/** Whether a live link may be used by this request: links a person asked for work only in their browser. */
export function opensInThisBrowser(request: FastifyRequest, link: Pick<LiveLink, 'browserHash'>): boolean {
  if (link.browserHash === null) return true;
  const browser = readCookie(request, RESET_BROWSER_COOKIE.name);
  return browser !== undefined && sameText(hashToken(browser), link.browserHash);
}

function addressKey(email: string): string {
  return `password-reset:account:${createHash('sha256').update(email).digest('base64url').slice(0, 32)}`;
}

/**
 * Handles one "Forgot password?" request. Refuses a malformed address (which says nothing about anyone)
 * and a client over its limit; otherwise returns having mailed a link (or not: unknown address, or this
 * address's limit reached), and the caller shows one and the same answer.
 */
export async function requestPasswordReset(ctx: Context, mailer: Mailer, log: FastifyBaseLogger, ip: string, browser: string, rawEmail: string): Promise<void> {
  if (rawEmail.length > 254 || !isEmail(rawEmail.trim())) throw new BadRequest('Give an e-mail address such as ada@example.com.');
  const email = normalizeEmail(rawEmail.trim());
  const now = ctx.clock.now().getTime();
  const client = await countInWindow(ctx.db, `password-reset:address:${ip}`, HOUR_MS, now);
  if (client.count > PER_CLIENT_PER_HOUR) {
    const minutes = Math.max(1, Math.ceil((client.windowEnds - now) / 60_000));
    throw new TooManyRequests(`Too many password resets were asked for from your network: wait ${minutes} minute${minutes === 1 ? '' : 's'} and try again.`);
  }
  const forAddress = await countInWindow(ctx.db, addressKey(email), HOUR_MS, now);
  const user = await ctx.db.selectFrom('users').select('id').where('email', '=', email).executeTakeFirst();
  if (forAddress.count > PER_ADDRESS_PER_HOUR) {
    // The same answer as always: the limit counts every address typed, known or not.
    log.warn({ reason: 'password-reset-limit' }, 'password reset not mailed: too many for this address in the last hour');
    return;
  }
  if (!user) return;
  const link = await createPasswordLink(ctx, user.id, 'reset', null, { browser, lifetimeMs: SELF_SERVICE_RESET_MINUTES * 60_000 });
  // Handed over after the answer, so that a known address does not answer later than an unknown one.
  // A failure is logged without the link (which resets the password).
  setImmediate(() => {
    mailer.send(passwordResetMail(email, link.url, SELF_SERVICE_RESET_MINUTES)).catch((error: unknown) => {
      log.error({ reason: 'mail-failed', code: (error as { code?: unknown }).code }, 'a password-reset link could not be mailed');
    });
  });
}
