import type { Kysely } from 'kysely';

/**
 * Merge rules of a space (what a change request needs before it merges), and the record of each merge an
 * administrator made past them.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('space_merge_rules')
    .addColumn('space_id', 'text', (c) => c.primaryKey().references('spaces.id').onDelete('cascade'))
    .addColumn('min_approvals', 'integer', (c) => c.notNull())
    /** JSON arrays of user ids and team ids. */
    .addColumn('required_reviewers', 'text', (c) => c.notNull())
    .addColumn('required_teams', 'text', (c) => c.notNull())
    .addColumn('block_changes_requested', 'integer', (c) => c.notNull())
    .addColumn('require_current_approvals', 'integer', (c) => c.notNull())
    .addColumn('admins_can_bypass', 'integer', (c) => c.notNull())
    .addColumn('updated_by', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('merge_rule_bypasses')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'text', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    /** JSON array of the rules the merge did not meet, by name. */
    .addColumn('rules', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('merge_rule_bypasses_by_request').on('merge_rule_bypasses').columns(['change_request_id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('merge_rule_bypasses').execute();
  await db.schema.dropTable('space_merge_rules').execute();
}
