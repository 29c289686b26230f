/** The federated ways in: OpenID Connect providers, logins under way, used SAML assertions, one-time sign-in links by mail. Column conventions: src/db/tables/columns.ts. */

/** An OpenID Connect provider of an organization; `client_secret` is sealed with the master key. */
export interface OidcProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  /** Space-separated, `openid` always among them. */
  scopes: string;
  default_role: string | null;
  default_team_id: string | null;
  created_at: string;
}

/** A federated login under way, bound to the browser that holds the id whose hash is `id_hash`. */
export interface SsoFlowsTable {
  id_hash: string;
  kind: string;
  provider_id: string;
  /** The OIDC `state`, or the id of the SAML request: what the answer must echo. */
  state: string;
  /** Sealed JSON: the OIDC nonce and PKCE verifier (empty object for SAML). */
  secrets: string;
  return_to: string;
  expires_at: string;
}

export interface SamlUsedAssertionsTable {
  provider_id: string;
  assertion_id: string;
  expires_at: string;
}

/** A one-time sign-in link sent by mail (a magic link), stored as the SHA-256 of its token. */
export interface MagicLinksTable {
  token_hash: string;
  email: string;
  /** SHA-256 of the id of the browser that asked: the link works only there. */
  browser_hash: string;
  return_to: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface FederatedSignInTables {
  oidc_providers: OidcProvidersTable;
  sso_flows: SsoFlowsTable;
  saml_used_assertions: SamlUsedAssertionsTable;
  magic_links: MagicLinksTable;
}
