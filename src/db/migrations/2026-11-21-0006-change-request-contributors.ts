import type { Kysely } from 'kysely';

/**
 * Who contributed to each change request: its creator, and everyone who wrote to its content (imports,
 * updates from the main content). Read by the `contributor` filter of the change request list.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('change_request_contributors')
    .addColumn('change_request_id', 'text', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    /** When they first contributed. */
    .addColumn('contributed_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_request_contributors_pk', ['change_request_id', 'user_id'])
    .execute();
  await db.schema.createIndex('change_request_contributors_user').on('change_request_contributors').columns(['user_id', 'change_request_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('change_request_contributors').execute();
}
