import type { FastifyReply, FastifyRequest } from 'fastify';
import * as oidc from 'openid-client';
import type { Context } from '../context.ts';
import { QuireError } from '../errors.ts';
import type { OidcProvidersTable } from '../db/tables/federated-sign-in.ts';
import { beginFlow, takeFlow } from './browser-flow.ts';
import { guardedFetch } from './guarded-fetch.ts';
import { provisionFederatedUser } from './provision.ts';
import { SignInRefused } from './refusal.ts';
import { oidcServiceUrls } from './urls.ts';

/**
 * Sign-in through an organization's OpenID Connect provider, with openid-client: the provider's
 * configuration is discovered from its issuer (through the outbound address guard), then the authorization
 * code flow with PKCE (S256), a `state` and a `nonce` bound to this browser (browser-flow.ts). The ID token
 * is checked by openid-client (signature against the provider's keys, issuer, audience, expiry, nonce);
 * the address must be one the provider has verified. The organization's e-mail domains decide who joins.
 */

async function loadProvider(ctx: Context, providerId: string): Promise<OidcProvidersTable> {
  const row = await ctx.db.selectFrom('oidc_providers').selectAll().where('id', '=', providerId).executeTakeFirst();
  if (!row) throw new SignInRefused('This single sign-on link names no provider Quire knows. It may have been removed: start again from the sign-in page.', 'unknown-provider', 404);
  return row;
}

/** The outbound guard's own refusal (a private address, an unknown host), wherever openid-client wrapped it. */
function guardRefusal(error: unknown): string | null {
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof QuireError) return cause.message.replace(/\.$/, '');
  }
  return null;
}

async function discover(ctx: Context, row: OidcProvidersTable): Promise<oidc.Configuration> {
  const secret = row.client_secret ? ctx.secrets.decrypt(row.client_secret).toString('utf8') : undefined;
  const issuer = new URL(row.issuer);
  try {
    return await oidc.discovery(issuer, row.client_id, undefined, secret ? oidc.ClientSecretPost(secret) : oidc.None(), {
      [oidc.customFetch]: guardedFetch(ctx.config),
      // An http issuer is only reachable when the administrator gave one (a provider on a private network).
      execute: issuer.protocol === 'http:' ? [oidc.allowInsecureRequests] : [],
      timeout: 10,
    });
  } catch (error) {
    const guard = guardRefusal(error);
    throw new SignInRefused(
      `Quire could not read the configuration of the sign-in provider at ${issuer.origin}: ${guard ?? 'it did not answer as an OpenID provider'}. Try again later, or ask your administrator to check the provider's issuer address.`,
      'discovery-failed',
    );
  }
}

/** Sends the browser to the provider to sign in, having bound state, nonce and the PKCE verifier to it. */
export async function startOidcSignIn(ctx: Context, reply: FastifyReply, providerId: string, returnTo: string): Promise<FastifyReply> {
  const row = await loadProvider(ctx, providerId);
  const configuration = await discover(ctx, row);
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const codeVerifier = oidc.randomPKCECodeVerifier();
  const authorization = oidc.buildAuthorizationUrl(configuration, {
    redirect_uri: oidcServiceUrls(ctx.config, row.id).redirectURL,
    scope: row.scopes,
    response_type: 'code',
    code_challenge: await oidc.calculatePKCECodeChallenge(codeVerifier),
    code_challenge_method: 'S256',
    state,
    nonce,
  });
  await beginFlow(ctx, reply, { kind: 'oidc', providerId: row.id, state, secrets: { nonce, codeVerifier }, returnTo });
  return reply.header('cache-control', 'no-store').redirect(authorization.href, 302);
}

/** A fixed word for the log from an openid-client error: its code, never its message (which may quote what the provider sent). */
function reasonOf(error: unknown): string {
  const code = (error as { code?: unknown }).code;
  return typeof code === 'string' && /^[A-Z_]+$/.test(code) ? code.toLowerCase() : 'oidc-error';
}

/** The messages of an error and its causes (openid-client wraps oauth4webapi's precise one), for matching only: never shown or logged. */
function messages(error: unknown): string {
  const parts: string[] = [];
  for (let cause = error, depth = 0; cause && depth < 5; cause = (cause as { cause?: unknown }).cause, depth++) {
    if (cause instanceof Error) parts.push(cause.message);
  }
  return parts.join(' / ');
}

function refusalFor(error: unknown): SignInRefused {
  const message = messages(error);
  if (/"state"/.test(message)) {
    return new SignInRefused('The answer of the sign-in provider does not belong to the sign-in this browser started (its state does not match). Start again from the sign-in page.', 'state-mismatch');
  }
  if (/nonce/i.test(message)) {
    return new SignInRefused('The identity token of the sign-in provider was made for another sign-in (its nonce does not match). Start again from the sign-in page.', 'nonce-mismatch');
  }
  if (/access_denied/.test(String((error as { error?: unknown }).error ?? ''))) {
    return new SignInRefused('The sign-in provider did not let you in (access denied). Ask your administrator for access to Quire there.', 'access-denied', 403);
  }
  return new SignInRefused('The sign-in provider\'s answer could not be accepted. Start again from the sign-in page; if it happens again, ask your administrator to check the provider.', reasonOf(error));
}

/** The provider's answer: checked, then the person signed in to the provider's organization. */
export async function finishOidcSignIn(ctx: Context, request: FastifyRequest, reply: FastifyReply, providerId: string): Promise<{ userId: string; returnTo: string }> {
  const row = await loadProvider(ctx, providerId);
  const flow = await takeFlow(ctx, request, reply, 'oidc', row.id);
  const configuration = await discover(ctx, row);
  const answer = new URL(oidcServiceUrls(ctx.config, row.id).redirectURL);
  answer.search = new URL(request.url, 'http://quire.invalid').search;
  let claims: oidc.IDToken;
  let accessToken: string;
  try {
    const tokens = await oidc.authorizationCodeGrant(configuration, answer, {
      pkceCodeVerifier: flow.secrets.codeVerifier,
      expectedState: flow.state,
      expectedNonce: flow.secrets.nonce,
      idTokenExpected: true,
    });
    claims = tokens.claims()!;
    accessToken = tokens.access_token;
  } catch (error) {
    throw refusalFor(error);
  }
  let email = typeof claims.email === 'string' ? claims.email : undefined;
  let verified = claims.email_verified;
  let name = typeof claims.name === 'string' ? claims.name : undefined;
  if (email === undefined || verified === undefined) {
    try {
      const info = await oidc.fetchUserInfo(configuration, accessToken, claims.sub);
      email = info.email;
      verified = info.email_verified;
      name ??= info.name;
    } catch (error) {
      throw refusalFor(error);
    }
  }
  if (email && verified !== true) {
    throw new SignInRefused('The sign-in provider has not verified your e-mail address, so Quire cannot tell it is yours. Verify it with the provider, then sign in again.', 'email-not-verified', 403);
  }
  const userId = await provisionFederatedUser(ctx, {
    organizationId: row.organization_id,
    email: email ?? '',
    displayName: name,
    joins: 'email-domain',
    defaultRole: row.default_role,
    defaultTeamId: row.default_team_id,
  });
  return { userId, returnTo: flow.returnTo };
}
