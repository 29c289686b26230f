import type { Kysely } from 'kysely';

/**
 * Git Sync: a space kept in step with a branch of a Git repository.
 * - `git_syncs`: one row per space that has synced: the remote (its URL without credentials; the
 *   credentials sealed with the SecretBox), the branch, the project directory, and the last synced pair
 *   (commit, revision) that export and import compare against.
 * - `git_operations`: every import and export, with its stage, state, commit, timings and error.
 * - `revisions.git`: the commit a revision came from or was exported as (the client's `GitSyncCommit`,
 *   JSON text); mutable metadata, like the `git` of pages and files.
 * - `spaces.git_sync`: what `Space.gitSync` shows (the client's `GitSyncState`, JSON text).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('revisions').addColumn('git', 'text').execute();
  await db.schema.alterTable('spaces').addColumn('git_sync', 'text').execute();

  await db.schema
    .createTable('git_syncs')
    .addColumn('space_id', 'text', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    /** The remote without credentials. */
    .addColumn('url', 'text', (c) => c.notNull())
    /** The remote's credentials (`user:password`), sealed; null without any. */
    .addColumn('credentials', 'text')
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('project_directory', 'text', (c) => c.notNull().defaultTo(''))
    /** Where the docs are in the repository (JSON: `root` from the top, `readme`, `summary`), as the last import read them. */
    .addColumn('layout', 'text')
    .addColumn('repo_cache_id', 'text')
    .addColumn('tree_url', 'text')
    .addColumn('commit_url', 'text')
    .addColumn('provider', 'text')
    /** The commit and revision that were last known equal (after an import or an export). */
    .addColumn('last_commit', 'text')
    .addColumn('last_revision_id', 'text')
    /** The `timestamp` of the last operation run, to run operations in the order of their events. */
    .addColumn('last_timestamp', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('git_operations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    /** 'import' | 'export' */
    .addColumn('direction', 'text', (c) => c.notNull())
    /** 'pending' | 'running' | 'success' | 'failure' */
    .addColumn('state', 'text', (c) => c.notNull())
    /** 'repo_fetch' | 'config_check' | 'content_process' | 'finalize' */
    .addColumn('stage', 'text', (c) => c.notNull())
    /** The request (without credentials), JSON text. */
    .addColumn('request', 'text', (c) => c.notNull())
    .addColumn('commit', 'text')
    .addColumn('revision_id', 'text')
    .addColumn('error', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('started_at', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('completed_at', 'text')
    .execute();
  await db.schema.createIndex('git_operations_space').on('git_operations').columns(['space_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('git_operations').execute();
  await db.schema.dropTable('git_syncs').execute();
  await db.schema.alterTable('spaces').dropColumn('git_sync').execute();
  await db.schema.alterTable('revisions').dropColumn('git').execute();
}
