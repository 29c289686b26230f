import { randomBytes } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SAML, ValidateInResponseTo, type CacheProvider, type Profile } from '@node-saml/node-saml';
import type { Context } from '../context.ts';
import { isUniqueViolation } from '../db/dialect.ts';
import type { SamlProvidersTable } from '../db/tables/people.ts';
import { beginFlow, FLOW_LIFETIME_MS, sameText, takeFlow, type BrowserFlow } from './browser-flow.ts';
import { provisionFederatedUser } from './provision.ts';
import { SignInRefused } from './refusal.ts';
import { assertionFacts, responseDestination } from './saml-assertion.ts';
import { samlServiceUrls } from './urls.ts';

/**
 * SAML 2.0 sign-in (SP-initiated, HTTP-Redirect to the identity provider, HTTP-POST back) for an
 * organization's SAML providers, with @node-saml/node-saml. The library checks the signature of the
 * assertion against the provider's certificate (an unsigned assertion is refused), the audience, the time
 * window and InResponseTo (the id of the request this browser started). Quire checks the rest itself, on
 * the signed assertion: the issuer, the recipient (and the response's destination), and replay (an
 * assertion id is accepted once, remembered until the assertion expires, across processes).
 */

const EMAIL_FORMAT = 'urn:oasis:names:tc:SAML:1.1:nameid-format:emailAddress';
const CLOCK_SKEW_MS = 60_000;

export type ActiveSamlProvider = SamlProvidersTable & { sso_url: string; entity_id: string; certificate: string };

async function loadProvider(ctx: Context, providerId: string): Promise<ActiveSamlProvider> {
  const row = await ctx.db.selectFrom('saml_providers').selectAll().where('id', '=', providerId).executeTakeFirst();
  if (!row) throw new SignInRefused('This single sign-on link names no provider Quire knows. It may have been removed: start again from the sign-in page.', 'unknown-provider', 404);
  if (!row.sso_url || !row.entity_id || !row.certificate) {
    throw new SignInRefused('This SAML provider is not fully configured yet (its address, entity ID or certificate is missing). Ask an administrator of the organization to finish it.', 'provider-pending', 404);
  }
  return row as ActiveSamlProvider;
}

/** node-saml asks its cache whether a request id is one this server issued: here, only the one this browser's login started. */
function flowCache(flow: BrowserFlow | null, issued: (id: string) => void): CacheProvider {
  return {
    saveAsync: async (key, value) => {
      issued(key);
      return { value, createdAt: Date.now() };
    },
    // The record's own lifetime has been checked by takeFlow (on the server's clock); node-saml compares this
    // value with its own clock, so it is handed the present to add nothing to that check.
    getAsync: async (key) => (flow && sameText(key, flow.state) ? new Date().toISOString() : null),
    removeAsync: async () => null,
  };
}

function samlFor(ctx: Context, row: ActiveSamlProvider | SamlProvidersTable, cache: CacheProvider): SAML {
  const service = samlServiceUrls(ctx.config, row.id);
  return new SAML({
    callbackUrl: service.acsURL,
    issuer: service.entityID,
    audience: service.entityID,
    entryPoint: row.sso_url ?? undefined,
    idpCert: row.certificate ?? 'unset',
    idpIssuer: row.entity_id ?? undefined,
    identifierFormat: EMAIL_FORMAT,
    wantAssertionsSigned: true,
    wantAuthnResponseSigned: false,
    disableRequestedAuthnContext: true,
    acceptedClockSkewMs: CLOCK_SKEW_MS,
    validateInResponseTo: ValidateInResponseTo.always,
    requestIdExpirationPeriodMs: FLOW_LIFETIME_MS,
    cacheProvider: cache,
    generateUniqueId: () => `_${randomBytes(20).toString('hex')}`,
  });
}

/** Sends the browser to the identity provider with a login request whose id is bound to this browser. */
export async function startSamlSignIn(ctx: Context, reply: FastifyReply, providerId: string, returnTo: string): Promise<FastifyReply> {
  const row = await loadProvider(ctx, providerId);
  let requestId: string | null = null;
  const saml = samlFor(ctx, row, flowCache(null, (id) => (requestId = id)));
  const url = await saml.getAuthorizeUrlAsync('', undefined, {});
  if (!requestId) throw new Error('node-saml issued a login request without recording its id');
  await beginFlow(ctx, reply, { kind: 'saml', providerId: row.id, state: requestId, secrets: {}, returnTo });
  return reply.header('cache-control', 'no-store').redirect(url, 302);
}

/** This server's metadata for one provider: what to paste into the identity provider. */
export async function samlMetadata(ctx: Context, providerId: string): Promise<string> {
  const row = await ctx.db.selectFrom('saml_providers').selectAll().where('id', '=', providerId).executeTakeFirst();
  if (!row) throw new SignInRefused('No SAML provider by this id exists.', 'unknown-provider', 404);
  return samlFor(ctx, row, flowCache(null, () => {})).generateServiceProviderMetadata(null, null);
}

function refusalFor(error: unknown): SignInRefused {
  const message = error instanceof Error ? error.message : '';
  const again = 'Start again from the sign-in page; if it happens again, ask your administrator to check the identity provider.';
  if (/signature/i.test(message)) return new SignInRefused(`The identity provider's answer is not signed with the certificate Quire knows for it, so it cannot be trusted. ${again}`, 'bad-signature');
  // node-saml names a bearer confirmation outside its time window "no valid subject confirmation".
  if (/expired|not yet valid|no valid subject confirmation/i.test(message)) return new SignInRefused(`The identity provider's answer is outside its time of validity (expired, or the clocks differ too much). ${again}`, 'outside-validity');
  if (/audience/i.test(message)) return new SignInRefused(`The identity provider's answer was made for another service than this one (wrong audience). ${again}`, 'wrong-audience');
  if (/InResponseTo/i.test(message)) return new SignInRefused(`The identity provider's answer does not belong to the sign-in this browser started. ${again}`, 'in-response-to');
  if (/issuer/i.test(message)) return new SignInRefused(`The answer does not come from the identity provider configured for this sign-in. ${again}`, 'wrong-issuer');
  if (/status code/i.test(message)) return new SignInRefused('The identity provider did not sign you in. Ask your administrator for access to Quire there.', 'idp-status', 403);
  return new SignInRefused(`The identity provider's answer could not be read. ${again}`, 'saml-error');
}

function firstText(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && typeof value[0] === 'string') return value[0];
  return undefined;
}

function emailOf(profile: Profile): string | undefined {
  const attributes = profile as Record<string, unknown>;
  for (const name of ['email', 'mail', 'emailAddress', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/emailaddress', 'urn:oid:0.9.2342.19200300.100.1.3']) {
    const value = firstText(attributes[name]);
    if (value) return value;
  }
  return profile.nameID && profile.nameID.includes('@') ? profile.nameID : undefined;
}

function nameOf(profile: Profile): string | undefined {
  const attributes = profile as Record<string, unknown>;
  for (const name of ['displayName', 'name', 'http://schemas.xmlsoap.org/ws/2005/05/identity/claims/name', 'urn:oid:2.16.840.1.113730.3.1.241']) {
    const value = firstText(attributes[name]);
    if (value) return value;
  }
  return undefined;
}

/** Remembers an assertion id until the assertion expires; refuses one already used (replay), on every process. */
async function useAssertionOnce(ctx: Context, providerId: string, assertionId: string, expiresAt: string): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await ctx.db.deleteFrom('saml_used_assertions').where('expires_at', '<', now).execute();
  try {
    await ctx.db.insertInto('saml_used_assertions').values({ provider_id: providerId, assertion_id: assertionId, expires_at: expiresAt }).execute();
  } catch (error) {
    if (!isUniqueViolation(ctx.dialect, error)) throw error;
    throw new SignInRefused('This answer of the identity provider has already been used to sign in, and an answer works only once. Start again from the sign-in page.', 'replayed-assertion');
  }
}

/** The identity provider's answer (the body of the POST to the ACS URL): checked, then the person signed in. */
export async function finishSamlSignIn(ctx: Context, request: FastifyRequest, reply: FastifyReply, providerId: string, samlResponse: string): Promise<{ userId: string; returnTo: string }> {
  const row = await loadProvider(ctx, providerId);
  const flow = await takeFlow(ctx, request, reply, 'saml', row.id);
  const service = samlServiceUrls(ctx.config, row.id);
  let profile: Profile;
  try {
    const result = await samlFor(ctx, row, flowCache(flow, () => {})).validatePostResponseAsync({ SAMLResponse: samlResponse });
    if (!result.profile) throw new Error('no profile');
    profile = result.profile;
  } catch (error) {
    throw refusalFor(error);
  }
  if (profile.issuer !== row.entity_id) throw refusalFor(new Error('issuer'));
  let facts;
  let destination: string | null;
  try {
    facts = assertionFacts(profile.getAssertionXml!());
    destination = responseDestination(profile.getSamlResponseXml!());
  } catch {
    throw refusalFor(new Error('unreadable'));
  }
  if (!facts.id || facts.recipients.length === 0 || facts.recipients.some((recipient) => recipient !== service.acsURL) || (destination !== null && destination !== service.acsURL)) {
    throw new SignInRefused("The identity provider's answer was addressed to another service than this one (its recipient is not this server's ACS URL). Ask your administrator to check the ACS URL configured at the identity provider.", 'wrong-recipient');
  }
  // Remembered at least as long as this server could accept it.
  const keepUntil = new Date(Math.max(Date.parse(facts.notOnOrAfter ?? '') || 0, ctx.clock.now().getTime() + FLOW_LIFETIME_MS) + CLOCK_SKEW_MS).toISOString();
  await useAssertionOnce(ctx, row.id, facts.id, keepUntil);
  const userId = await provisionFederatedUser(ctx, {
    organizationId: row.organization_id,
    email: emailOf(profile) ?? '',
    displayName: nameOf(profile),
    joins: 'provider',
    defaultRole: row.default_role,
    defaultTeamId: row.default_team_id,
  });
  return { userId, returnTo: flow.returnTo };
}
