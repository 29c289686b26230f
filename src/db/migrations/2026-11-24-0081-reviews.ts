import type { Kysely } from 'kysely';

/**
 * Reviews of change requests: who was asked to review, and the reviews given (approved or changes
 * requested), each against the change request's revision at that moment, so a review made before the last
 * change is known to be outdated.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('change_request_reviewers')
    .addColumn('change_request_id', 'text', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('requested_by', 'text', (c) => c.notNull().references('users.id'))
    /** The change request's revision when the review was asked for. */
    .addColumn('revision', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('change_request_reviewers_pk', ['change_request_id', 'user_id'])
    .execute();
  await db.schema
    .createTable('change_request_reviews')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('change_request_id', 'text', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('reviewer_id', 'text', (c) => c.notNull().references('users.id'))
    /** Who had asked this reviewer, when someone had. */
    .addColumn('requested_by', 'text', (c) => c.references('users.id'))
    /** 'approved' or 'changes-requested'. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** The change request's revision the review was made against. */
    .addColumn('revision', 'text', (c) => c.notNull())
    /** The comment given with the review (in the change request's discussion), if any. */
    .addColumn('comment_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('change_request_reviews_by_request').on('change_request_reviews').columns(['change_request_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('change_request_reviews').execute();
  await db.schema.dropTable('change_request_reviewers').execute();
}
