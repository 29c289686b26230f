import type { Generated } from 'kysely';
import type { Flag } from './columns.ts';

/** The people and their organizations: users, tokens, organizations and their domains, members, teams, SAML, invites. Column conventions: src/db/tables/columns.ts. */

export interface UsersTable {
  id: string;
  email: string;
  display_name: string;
  photo_url: string | null;
  created_at: string;
}

export interface ApiTokensTable {
  id: string;
  user_id: string;
  token_hash: string;
  name: string | null;
  created_at: string;
  /** When the token stops working; null: never (migration 2026-11-26-0050). */
  expires_at: Generated<string | null>;
  /** When it was last used, to the minute (written at most once a minute per token). */
  last_used_at: Generated<string | null>;
  /** When it was revoked; a revoked token is refused and kept only for the list. */
  revoked_at: Generated<string | null>;
}

export interface OrganizationsTable {
  id: string;
  title: string;
  created_at: string;
  hostname: string | null;
  type: string;
  use_case: string | null;
  community_type: string | null;
  default_role: string | null;
  default_content: string | null;
  logo_url: string | null;
  sso: Flag;
  ai: Flag;
  invite_links: Flag;
  /** The translation engine the organization chose (decision 0114); null follows the server's configuration. */
  translation_engine: string | null;
  plan: string;
  /**
   * The declared e-mail domains as a JSON array, kept beside the indexed organization_email_domains table
   * (written together, in one transaction) so that reading an organization takes one query.
   */
  email_domains: string;
  /** The per-organization key that signs visitor claims, sealed with the master key. */
  signing_key: string;
}

export interface OrganizationEmailDomainsTable {
  organization_id: string;
  domain: string;
}

export interface MembersTable {
  organization_id: string;
  user_id: string;
  /** null for guests */
  role: string | null;
  disabled: Flag;
  sso: Flag;
  joined_at: string;
  last_seen_at: string | null;
}

export interface TeamsTable {
  id: string;
  organization_id: string;
  title: string;
  created_at: string;
}

export interface TeamMembersTable {
  team_id: string;
  user_id: string;
  role: string;
  added_at: string;
}

export interface SamlProvidersTable {
  id: string;
  organization_id: string;
  label: string;
  entity_id: string | null;
  sso_url: string | null;
  certificate: string | null;
  default_team_id: string | null;
  default_role: string | null;
  created_at: string;
}

export interface LinkInvitesTable {
  id: string;
  organization_id: string;
  role: string | null;
  created_by: string;
  created_at: string;
}

/** An invitation to an organization waiting for the answer of someone Quire already knew. */
export interface MemberInvitationsTable {
  id: string;
  organization_id: string;
  user_id: string;
  /** null for guests */
  role: string | null;
  sso: Flag;
  invited_by: string | null;
  created_at: string;
  expires_at: string;
}

/** A space a person starred (migration 2026-11-28-0410): their home lists it, in every browser. */
export interface FavoriteSpacesTable {
  user_id: string;
  space_id: string;
  created_at: string;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface PeopleTables {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  organizations: OrganizationsTable;
  organization_email_domains: OrganizationEmailDomainsTable;
  members: MembersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  saml_providers: SamlProvidersTable;
  link_invites: LinkInvitesTable;
  member_invitations: MemberInvitationsTable;
  favorite_spaces: FavoriteSpacesTable;
}
