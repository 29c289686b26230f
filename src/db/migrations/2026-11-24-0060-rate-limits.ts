import type { Kysely } from 'kysely';

/**
 * Request counts per rate-limit key (a token's hash or a client address) and window, shared by every
 * process on one PostgreSQL database. SQLite deployments are one process and count in memory; the table
 * exists there too, unused, so both schemas stay the same.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('rate_limits')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('count', 'integer', (c) => c.notNull())
    /** When the current window ends, in milliseconds since 1970. */
    .addColumn('window_ends', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('rate_limits_window_ends').on('rate_limits').column('window_ends').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('rate_limits').execute();
}
