import type { Config } from '../config.ts';

/**
 * This server's side of each federated way in. Shared by the API areas that present providers (the SSO
 * list names OpenID Connect and SAML providers alike) and by the login flows that serve these addresses.
 */
export function oidcServiceUrls(config: Pick<Config, 'publicUrl'>, providerId: string) {
  const base = `${config.publicUrl}/sso/oidc/${providerId}`;
  return { startURL: `${base}/start`, redirectURL: `${base}/callback` };
}

export function samlServiceUrls(config: Pick<Config, 'publicUrl'>, providerId: string) {
  const base = `${config.publicUrl}/sso/saml/${providerId}`;
  return { acsURL: `${base}/acs`, startURL: `${base}/start`, entityID: `${base}/metadata` };
}
