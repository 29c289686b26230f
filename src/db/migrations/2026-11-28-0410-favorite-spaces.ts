import type { Kysely } from 'kysely';

/**
 * The spaces each person starred (the workspace's home lists them): one row per person and space, kept on the
 * server so a favourite follows the person to every browser. Removing the person or the space removes the row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('favorite_spaces')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('favorite_spaces_pk', ['user_id', 'space_id'])
    .execute();
  await db.schema.createIndex('favorite_spaces_space').on('favorite_spaces').column('space_id').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('favorite_spaces').execute();
}
