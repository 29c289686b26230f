import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import { hashToken } from '../secrets.ts';
import { clearFlowCookie, readCookie, setFlowCookie, type FlowCookie } from './cookies.ts';
import { SignInRefused } from './refusal.ts';

/**
 * A federated login under way, bound to one browser: the browser holds a random id in a cookie, the
 * database only its SHA-256 with what the answer must match (the OIDC `state`, or the SAML request's id)
 * and, sealed, what must stay secret until then (the OIDC nonce and PKCE verifier). A record is used once
 * and lives ten minutes, so an answer replayed, sent to another browser, or arriving late is refused.
 */
export const FLOW_COOKIE: FlowCookie = { name: 'quire_sso_flow', path: '/sso/', crossSitePost: true };
export const FLOW_LIFETIME_MS = 10 * 60_000;

export type FlowKind = 'oidc' | 'saml';

export interface FlowSecrets {
  nonce?: string;
  codeVerifier?: string;
}

export interface BrowserFlow {
  kind: FlowKind;
  providerId: string;
  state: string;
  secrets: FlowSecrets;
  returnTo: string;
  /** When the login started (the SAML request's time). */
  startedAt: Date;
}

export function randomId(bytes = 32): string {
  return randomBytes(bytes).toString('base64url');
}

/** Starts a login in this browser (replacing any other it had under way) and remembers what its answer must match. */
export async function beginFlow(ctx: Context, reply: FastifyReply, flow: Omit<BrowserFlow, 'startedAt'>): Promise<void> {
  const id = randomId();
  const now = ctx.clock.now();
  await ctx.db.deleteFrom('sso_flows').where('expires_at', '<', now.toISOString()).execute();
  await ctx.db
    .insertInto('sso_flows')
    .values({
      id_hash: hashToken(id),
      kind: flow.kind,
      provider_id: flow.providerId,
      state: flow.state,
      secrets: ctx.secrets.encrypt(JSON.stringify({ ...flow.secrets, startedAt: now.toISOString() })),
      return_to: flow.returnTo,
      expires_at: new Date(now.getTime() + FLOW_LIFETIME_MS).toISOString(),
    })
    .execute();
  setFlowCookie(ctx.config, reply, FLOW_COOKIE, id, FLOW_LIFETIME_MS / 1000);
}

const NO_FLOW =
  'This browser has no sign-in under way here, or it took longer than ten minutes. Start again from the sign-in page, in this browser (with cookies allowed for this site).';

/**
 * Takes the login this browser has under way with this provider: the record is removed whatever happens
 * next, so an answer is accepted at most once. Refuses a browser without one.
 */
export async function takeFlow(ctx: Context, request: FastifyRequest, reply: FastifyReply, kind: FlowKind, providerId: string): Promise<BrowserFlow> {
  const id = readCookie(request, FLOW_COOKIE.name);
  clearFlowCookie(ctx.config, reply, FLOW_COOKIE);
  if (!id) throw new SignInRefused(NO_FLOW, 'no-flow-cookie');
  const idHash = hashToken(id);
  const row = await ctx.db.selectFrom('sso_flows').selectAll().where('id_hash', '=', idHash).executeTakeFirst();
  if (!row) throw new SignInRefused(NO_FLOW, 'no-flow');
  const removed = await ctx.db.deleteFrom('sso_flows').where('id_hash', '=', idHash).executeTakeFirst();
  if (Number(removed.numDeletedRows) !== 1) throw new SignInRefused(NO_FLOW, 'flow-taken');
  if (row.expires_at <= nowIso(ctx)) throw new SignInRefused(NO_FLOW, 'flow-expired');
  if (row.kind !== kind || row.provider_id !== providerId) {
    throw new SignInRefused('The answer came back to a different sign-in than the one this browser started. Start again from the sign-in page.', 'flow-provider-mismatch');
  }
  const sealed = JSON.parse(ctx.secrets.decrypt(row.secrets).toString('utf8')) as FlowSecrets & { startedAt: string };
  return { kind, providerId, state: row.state, secrets: { nonce: sealed.nonce, codeVerifier: sealed.codeVerifier }, returnTo: row.return_to, startedAt: new Date(sealed.startedAt) };
}

/** Constant-time equality of two short strings (a `state`, a request id). */
export function sameText(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}
