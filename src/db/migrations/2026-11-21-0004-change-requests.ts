import type { Kysely } from 'kysely';

/** Change requests (branches of a space's content), comments on spaces and change requests, replies, reactions. */
export async function up(db: Kysely<unknown>): Promise<void> {
  // The next change request number of each space: numbers count up and are never reused.
  await db.schema.alterTable('spaces').addColumn('change_request_seq', 'integer', (c) => c.notNull().defaultTo(0)).execute();

  await db.schema
    .createTable('change_requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('number', 'integer', (c) => c.notNull())
    .addColumn('subject', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    /** The space's revision the change request started from. */
    .addColumn('revision_initial', 'text', (c) => c.notNull())
    /** The change request's own current revision (its head). */
    .addColumn('revision', 'text', (c) => c.notNull())
    /** The last revision of the space whose content the change request includes (its merge base). */
    .addColumn('revision_merged_ancestor', 'text', (c) => c.notNull())
    .addColumn('revision_merged', 'text')
    .addColumn('agent_task_id', 'text')
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('merged_at', 'text')
    .addColumn('merged_by', 'text')
    .addUniqueConstraint('change_requests_space_number', ['space_id', 'number'])
    .execute();
  await db.schema.createIndex('change_requests_space_status').on('change_requests').columns(['space_id', 'status', 'created_at']).execute();

  await db.schema
    .createTable('comments')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'text', (c) => c.references('change_requests.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    /** The body as Markdown. */
    .addColumn('body', 'text', (c) => c.notNull())
    /** JSON: what the comment is attached to (page, node, table cell) and the page's body hash when posted. */
    .addColumn('target', 'text')
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('resolved_at', 'text')
    .addColumn('resolved_by', 'text')
    .addColumn('edited_at', 'text')
    .addColumn('replies', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comments_space').on('comments').columns(['space_id', 'change_request_id', 'created_at']).execute();

  await db.schema
    .createTable('comment_replies')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('comment_id', 'text', (c) => c.notNull().references('comments.id').onDelete('cascade'))
    .addColumn('author_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('edited_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('comment_replies_comment').on('comment_replies').columns(['comment_id', 'created_at']).execute();

  // One row per user, emoji and comment or reply.
  await db.schema
    .createTable('comment_reactions')
    .addColumn('subject_id', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('comment_reactions_pk', ['subject_id', 'emoji', 'user_id'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['comment_reactions', 'comment_replies', 'comments', 'change_requests']) await db.schema.dropTable(table).execute();
  await db.schema.alterTable('spaces').dropColumn('change_request_seq').execute();
}
