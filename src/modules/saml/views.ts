import type { TeamView } from '../../access/teams.ts';
import type { SamlProviderRow } from '../../db/rows.ts';

/** A provider as services load it: the row and, when it names one, its default team. */
export interface SamlProviderView {
  provider: SamlProviderRow;
  defaultTeam: TeamView | null;
}

/** One way in of the SSO list: a SAML or an OpenID Connect provider, each starting at its own address. */
export interface SsoLoginRow {
  id: string;
  label: string;
  kind: 'saml' | 'oidc';
}
