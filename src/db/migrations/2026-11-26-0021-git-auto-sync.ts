import type { Kysely } from 'kysely';

/**
 * Automatic Git Sync (`PUT /v1/spaces/{spaceId}/git/sync`): one row per space that keeps syncing by itself.
 * - the remote (URL without credentials; the credentials sealed with the SecretBox), branch, project
 *   directory and direction (`push`, `pull`, `both`);
 * - the webhook secret, sealed (GitHub's HMAC needs the secret itself, so it cannot be a one-way hash);
 * - the commit message template of automatic exports, the polling interval (null: no polling);
 * - the retry state: consecutive failures, the last error, and when the next attempt is due.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('git_auto_syncs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().unique().references('spaces.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('credentials', 'text')
    .addColumn('ref', 'text', (c) => c.notNull())
    .addColumn('project_directory', 'text', (c) => c.notNull().defaultTo(''))
    /** 'push' | 'pull' | 'both' */
    .addColumn('direction', 'text', (c) => c.notNull())
    .addColumn('webhook_secret', 'text', (c) => c.notNull())
    .addColumn('commit_template', 'text', (c) => c.notNull())
    .addColumn('poll_interval_seconds', 'integer')
    .addColumn('failures', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('last_error', 'text')
    .addColumn('next_retry_at', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('git_auto_syncs').execute();
}
