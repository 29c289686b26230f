import type { Generated } from 'kysely';

/**
 * Table types for Kysely. Conventions that hold on both SQLite and PostgreSQL:
 * timestamps are ISO-8601 UTC strings (`Date#toISOString`, fixed width, so they sort as text);
 * booleans are integers 0/1; structured values are JSON text. See docs/decisions/0002-portable-columns.md.
 */
export type Flag = 0 | 1;

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

export interface CollectionsTable {
  id: string;
  organization_id: string;
  parent_id: string | null;
  title: string;
  description: string | null;
  /** 'inherit', a member role, or 'none' (guests: no access by default). */
  default_level: string;
  /** Order among siblings (fractional, so a move writes one row). */
  position: number;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
}

export interface SpacesTable {
  id: string;
  organization_id: string;
  collection_id: string | null;
  title: string;
  emoji: string | null;
  icon: string | null;
  visibility: string;
  edit_mode: string;
  /** 'inherit', a member role, or 'none'. */
  default_level: string;
  language: string | null;
  /** The current revision. */
  revision_id: string;
  position: number;
  comments: number;
  change_requests: number;
  change_requests_open: number;
  change_requests_draft: number;
  /** The number the last change request of this space got. */
  change_request_seq: Generated<number>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  deleted_at: string | null;
  /** What `Space.gitSync` shows (GitSyncState, JSON text); null before any Git sync. */
  git_sync: Generated<string | null>;
}

/** Immutable content, addressed by the SHA-256 of `kind` and `data`. */
export interface ContentObjectsTable {
  hash: string;
  /** 'body' (page Markdown), 'page' (a page node, JSON), 'root' (a revision's root, JSON). */
  kind: string;
  data: string;
  /** When it was last written or reused (src/content/gc.ts); null for objects older than migration 0051. */
  touched_at: Generated<string | null>;
}

/** What a page body says about links as written (src/content/link-analysis/store.ts), by the body's hash. */
export interface LinkFactsTable {
  body_hash: string;
  /** The reading the facts came from (WRITTEN_FACTS_VERSION); facts of another reading are read again. */
  version: number;
  /** WrittenFacts as JSON. */
  facts: string;
  created_at: string;
}

export interface ContentBlobsTable {
  hash: string;
  size: number;
  created_at: string;
  /** When it was last stored or reused (src/content/gc.ts); null: its created_at. */
  touched_at: Generated<string | null>;
}

export interface RevisionsTable {
  id: string;
  /** The space whose history this revision started in. */
  space_id: string;
  /** 'edits' | 'merge' | 'rollback' | 'update' | 'computed' */
  type: string;
  /** JSON array of parent revision ids. */
  parents: string;
  /** Hash of the revision's root object. */
  root: string;
  created_by: string | null;
  created_at: string;
  /** The Git commit the revision came from or was exported as (GitSyncCommit, JSON text); mutable metadata. */
  git: Generated<string | null>;
}

export interface JobsTable {
  id: string;
  kind: string;
  payload: string;
  /** 'pending' | 'running' | 'done' | 'failed' */
  status: string;
  singleton_key: string | null;
  /** Jobs of one queue key run one at a time, in enqueue order (src/jobs/queue.ts). */
  queue_key: string | null;
  attempts: number;
  max_attempts: number;
  run_at: string;
  locked_by: string | null;
  locked_until: string | null;
  last_error: string | null;
  created_at: string;
  finished_at: string | null;
}

/**
 * One indexed page of a space's current content (document pages without `noIndex`). `headings` and `body`
 * hold the text of the page's sections, in order, separated by SECTION_SEPARATOR (src/search/page-text.ts);
 * `sections` is the JSON array of their anchors. The full-text index over these columns is per dialect
 * (migration 2026-11-21-0003); on SQLite it also holds each page's space as a token (migration
 * 2026-11-26-0120, through the view `search_fts_content`).
 */
export interface SearchPagesTable {
  space_id: string;
  page_id: string;
  title: string;
  path: string;
  headings: string;
  body: string;
  /** The body object the text was read from ('' for an empty page). */
  body_hash: string;
  sections: string;
  /** When this row was last written. */
  indexed_at: string;
}

/** Which revision root a space's search index reflects. */
export interface SearchSpacesTable {
  space_id: string;
  root_hash: string;
  indexed_at: string;
}

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  /** Counts up per space, never reused. */
  number: number;
  subject: string | null;
  /** 'draft' | 'open' | 'archived' | 'merged' */
  status: string;
  revision_initial: string;
  /** The change request's own current revision. */
  revision: string;
  /** The last revision of the space that the change request includes (its merge base). */
  revision_merged_ancestor: string;
  revision_merged: string | null;
  agent_task_id: string | null;
  /** Open comments. */
  comments: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  merged_by: string | null;
}

/** A user who created a change request or wrote to its content. */
export interface ChangeRequestContributorsTable {
  change_request_id: string;
  user_id: string;
  /** When they first contributed. */
  contributed_at: string;
}

export interface CommentsTable {
  id: string;
  space_id: string;
  change_request_id: string | null;
  author_id: string;
  /** Markdown. */
  body: string;
  /** JSON: { page?, node?, tableCell?, bodyHash? } */
  target: string | null;
  /** 'open' | 'resolved' */
  status: string;
  resolved_at: string | null;
  resolved_by: string | null;
  edited_at: string | null;
  replies: number;
  created_at: string;
  updated_at: string;
}

export interface CommentRepliesTable {
  id: string;
  comment_id: string;
  author_id: string;
  body: string;
  edited_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CommentReactionsTable {
  /** A comment or reply id. */
  subject_id: string;
  emoji: string;
  user_id: string;
  created_at: string;
}

/** The PDF cache: the blob holding the PDF made for a key (content root, pages, title page, renderer). */
export interface PdfExportsTable {
  key: string;
  blob: string;
  size: number;
  created_at: string;
}

export interface SitesTable {
  id: string;
  organization_id: string;
  /** SiteType: 'basic', 'premium', 'ultimate', … */
  type: string;
  title: string;
  /** 'public', 'unlisted', 'share-link' or 'visitor-auth'. */
  visibility: string;
  published: number;
  basename: string;
  hostname: string | null;
  proxy: string | null;
  agents_context: string;
  adaptive_enabled: number;
  adaptive_schema: string | null;
  adaptive_schema_updated_at: string | null;
  /** Sealed with the SecretBox. */
  auth_key: string;
  auth_backend: Generated<string>;
  auth_fallback_url: string | null;
  default_section_id: string | null;
  default_site_space_id: string | null;
  version: Generated<number>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface SiteSectionGroupsTable {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: number;
  created_at: string;
}

export interface SiteSectionsTable {
  id: string;
  site_id: string;
  group_id: string | null;
  title: string;
  description: string | null;
  path: string;
  condition: string | null;
  icon: string | null;
  position: number;
  default_site_space_id: string | null;
  created_at: string;
}

export interface SiteSpacesTable {
  id: string;
  site_id: string;
  section_id: string | null;
  space_id: string;
  path: string;
  condition: string | null;
  position: number;
  created_at: string;
}

export interface SiteShareLinksTable {
  id: string;
  site_id: string;
  name: string;
  key_hash: string;
  key_sealed: string;
  active: number;
  created_by: string | null;
  created_at: string;
}

/** An endpoint of an organization that is told of events (migration 2026-11-24-0085). */
export interface WebhooksTable {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  /** JSON array of event names. */
  events: string;
  active: Flag;
  /** The signing secret, sealed with the SecretBox. */
  secret: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One event sent to one webhook: the delivery log. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event: string;
  payload: string;
  /** 'pending' | 'succeeded' | 'failed' */
  status: string;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One write through the API: who, what, when, from where, and the outcome. */
export interface AuditLogTable {
  id: string;
  organization_id: string | null;
  user_id: string | null;
  token_id: string | null;
  operation: string;
  method: string;
  route: string;
  /** JSON object of named ids. */
  object_ids: string;
  /** 'succeeded' | 'refused' | 'failed' */
  outcome: string;
  status: number | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

/** Request counts per rate-limit key, shared by the processes of one PostgreSQL database. */
export interface SessionsTable {
  id: string;
  /** SHA-256 of the cookie's opaque id; the id itself is never stored. */
  token_hash: string;
  user_id: string;
  method: string;
  csrf_token: string;
  created_at: string;
  last_used_at: string;
  idle_expires_at: string;
  expires_at: string;
  device: string | null;
  ip: string | null;
}

export interface UserPasswordsTable {
  user_id: string;
  /** Argon2id, in the PHC string format. */
  hash: string;
  updated_at: string;
}

export interface PasswordLinksTable {
  id: string;
  token_hash: string;
  user_id: string;
  purpose: 'invite' | 'reset';
  created_by: string | null;
  created_at: string;
  expires_at: string;
  used_at: string | null;
}

export interface PasskeysTable {
  id: string;
  user_id: string;
  credential_id: string;
  public_key: string;
  counter: number;
  transports: string;
  name: string;
  created_at: string;
  last_used_at: string | null;
}

export interface RecoveryCodesTable {
  id: string;
  user_id: string;
  code_hash: string;
  created_at: string;
  used_at: string | null;
}

export interface WebauthnChallengesTable {
  id: string;
  token_hash: string;
  challenge: string;
  purpose: 'register' | 'sign-in' | 'second-factor';
  user_id: string | null;
  return_to: string | null;
  created_at: string;
  expires_at: string;
}

export interface RateLimitsTable {
  key: string;
  count: number;
  /** Milliseconds since 1970. */
  window_ends: number;
}

export interface SiteCustomizationsTable {
  site_id: string;
  /** '' for the site's own settings; a site space's id for its override. */
  site_space_id: string;
  settings: string;
  updated_at: string;
}

export interface SiteRedirectsTable {
  id: string;
  site_id: string;
  source: string;
  /** JSON text of the client's SiteRedirectDestination. */
  destination: string;
  automatic: number;
  created_at: string;
}

export interface PublishedPagePathsTable {
  space_id: string;
  path: string;
  page_id: string;
  seen_at: string;
}

export interface SiteInsightEventsTable {
  id: string;
  site_id: string;
  type: string;
  at: string;
  url: string;
  site_section: string | null;
  site_space: string | null;
  space: string | null;
  page: string | null;
  query: string | null;
  result_count: number | null;
  rating: string | null;
  visitor: string;
  session: string;
}

export interface SiteMcpServersTable {
  id: string;
  site_id: string;
  name: string;
  url: string;
  headers_sealed: string;
  created_at: string;
}

export interface CustomFontsTable {
  id: string;
  organization_id: string;
  family: string;
  /** JSON text: [{ weight, storageKey }]. */
  faces: string;
  created_at: string;
}

/** A source space kept translated into `language` (src/modules/translations). */
export interface TranslationsTable {
  id: string;
  organization_id: string;
  source_space_id: string;
  source_language: string;
  language: string;
  instructions: string | null;
  result_space_id: string | null;
  result_revision_id: string | null;
  status: string;
  error: string | null;
  runs: Generated<number>;
  total_words: Generated<number>;
  total_pages: Generated<number>;
  total_duration_ms: Generated<number>;
  latest_duration_ms: Generated<number>;
  latest_pages: Generated<number>;
  latest_words: Generated<number>;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** What a translation last did to each page. */
export interface TranslationPagesTable {
  translation_id: string;
  page_id: string;
  source_hash: string;
  result_hash: string;
  status: string;
  words: number;
  translated_at: string;
}

export interface GlossaryEntriesTable {
  id: string;
  organization_id: string;
  translations: string;
  created_at: string;
  updated_at: string;
}

/** A role on a space or collection given to a user or a team (sharing). */
export interface ContentPermissionsTable {
  id: string;
  organization_id: string;
  resource_kind: 'space' | 'collection';
  resource_id: string;
  subject_kind: 'user' | 'team';
  subject_id: string;
  role: string;
  created_at: string;
  updated_at: string;
}

/** A reviewer asked for on a change request. */
export interface ChangeRequestReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision: string;
  created_at: string;
}

/** A review of a change request, against the revision it saw. */
export interface ChangeRequestReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  requested_by: string | null;
  status: string;
  revision: string;
  comment_id: string | null;
  created_at: string;
  updated_at: string;
}

/** What a change request of a space needs before it merges. */
export interface SpaceMergeRulesTable {
  space_id: string;
  min_approvals: number;
  required_reviewers: string;
  required_teams: string;
  block_changes_requested: Flag;
  require_current_approvals: Flag;
  admins_can_bypass: Flag;
  updated_by: string;
  updated_at: string;
}

/** A merge an administrator made past the space's merge rules. */
export interface MergeRuleBypassesTable {
  id: string;
  space_id: string;
  change_request_id: string;
  user_id: string;
  rules: string;
  created_at: string;
}

/** A space's Git Sync configuration and the last synced pair (src/git/state.ts). */
export interface GitSyncsTable {
  space_id: string;
  url: string;
  credentials: string | null;
  ref: string;
  project_directory: string;
  layout: string | null;
  repo_cache_id: string | null;
  tree_url: string | null;
  commit_url: string | null;
  provider: string | null;
  last_commit: string | null;
  last_revision_id: string | null;
  last_timestamp: string | null;
  created_at: string;
  updated_at: string;
}

/** One Git import or export (src/git/operations.ts). */
export interface GitOperationsTable {
  id: string;
  space_id: string;
  direction: string;
  state: string;
  stage: string;
  request: string;
  commit: string | null;
  revision_id: string | null;
  error: string | null;
  created_by: string | null;
  created_at: string;
  started_at: string | null;
  updated_at: string;
  completed_at: string | null;
}

/** A space kept in sync with a branch by itself (src/git/auto.ts). */
export interface GitAutoSyncsTable {
  id: string;
  space_id: string;
  url: string;
  credentials: string | null;
  ref: string;
  project_directory: string;
  direction: string;
  webhook_secret: string;
  commit_template: string;
  poll_interval_seconds: number | null;
  failures: number;
  last_error: string | null;
  next_retry_at: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface OpenapiSpecsTable {
  id: string;
  organization_id: string;
  slug: string;
  source_url: string | null;
  source_text: string | null;
  /** 'private' or 'public'. */
  visibility: string;
  /** 'pending', 'progress' or 'complete'. */
  processing_state: string;
  last_version_id: string | null;
  last_processed_at: string | null;
  last_error_code: string | null;
  last_error: string | null;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

export interface OpenapiSpecVersionsTable {
  id: string;
  spec_id: string;
  content_hash: string;
  content: string;
  source_url: string | null;
  created_at: string;
}

export interface DB {
  users: UsersTable;
  api_tokens: ApiTokensTable;
  organizations: OrganizationsTable;
  organization_email_domains: OrganizationEmailDomainsTable;
  members: MembersTable;
  teams: TeamsTable;
  team_members: TeamMembersTable;
  saml_providers: SamlProvidersTable;
  link_invites: LinkInvitesTable;
  collections: CollectionsTable;
  spaces: SpacesTable;
  content_objects: ContentObjectsTable;
  content_blobs: ContentBlobsTable;
  link_facts: LinkFactsTable;
  revisions: RevisionsTable;
  jobs: JobsTable;
  change_requests: ChangeRequestsTable;
  change_request_contributors: ChangeRequestContributorsTable;
  comments: CommentsTable;
  comment_replies: CommentRepliesTable;
  comment_reactions: CommentReactionsTable;
  search_pages: SearchPagesTable;
  search_spaces: SearchSpacesTable;
  pdf_exports: PdfExportsTable;
  sites: SitesTable;
  site_section_groups: SiteSectionGroupsTable;
  site_sections: SiteSectionsTable;
  site_spaces: SiteSpacesTable;
  site_share_links: SiteShareLinksTable;
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
  sessions: SessionsTable;
  user_passwords: UserPasswordsTable;
  password_links: PasswordLinksTable;
  passkeys: PasskeysTable;
  recovery_codes: RecoveryCodesTable;
  webauthn_challenges: WebauthnChallengesTable;
  site_customizations: SiteCustomizationsTable;
  site_redirects: SiteRedirectsTable;
  published_page_paths: PublishedPagePathsTable;
  site_insight_events: SiteInsightEventsTable;
  site_mcp_servers: SiteMcpServersTable;
  custom_fonts: CustomFontsTable;
  translations: TranslationsTable;
  translation_pages: TranslationPagesTable;
  glossary_entries: GlossaryEntriesTable;
  content_permissions: ContentPermissionsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
  change_request_reviews: ChangeRequestReviewsTable;
  space_merge_rules: SpaceMergeRulesTable;
  merge_rule_bypasses: MergeRuleBypassesTable;
  git_syncs: GitSyncsTable;
  git_operations: GitOperationsTable;
  // gitsync (issue 12)
  git_auto_syncs: GitAutoSyncsTable;
  openapi_specs: OpenapiSpecsTable;
  openapi_spec_versions: OpenapiSpecVersionsTable;
}
