/** Git Sync: configurations, operations, automatic sync. Column conventions: src/db/tables/columns.ts. */

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

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface GitTables {
  git_syncs: GitSyncsTable;
  git_operations: GitOperationsTable;
  git_auto_syncs: GitAutoSyncsTable;
}
