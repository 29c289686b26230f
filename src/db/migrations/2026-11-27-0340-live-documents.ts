import type { Kysely } from 'kysely';

/**
 * Live co-editing (src/live/): the shared Yjs document of a page open in a change request. `live_documents`
 * holds one compacted state per document and the revision of the change request it last agreed with (the
 * base of the three-way merge with API edits); `live_updates` holds each update a client sent, stored before
 * the server acknowledges it, until the next compaction folds it into the state. Yjs bytes are base64 text,
 * the same on both databases (decision 0002).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('live_documents')
    /** organization/space/change request/page. */
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('change_request_id', 'text', (c) => c.notNull().references('change_requests.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    /** Y.encodeStateAsUpdate of the document, base64. */
    .addColumn('state', 'text', (c) => c.notNull())
    /** The change request's revision whose page the document last matched (written or absorbed). */
    .addColumn('base_revision', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_documents_change_request').on('live_documents').column('change_request_id').execute();

  await db.schema
    .createTable('live_updates')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('document', 'text', (c) => c.notNull().references('live_documents.name').onDelete('cascade'))
    /** One Yjs update as the client sent it, base64. */
    .addColumn('update', 'text', (c) => c.notNull())
    /** Who sent it (the revision written from it is theirs). */
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('live_updates_document').on('live_updates').columns(['document', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('live_updates').execute();
  await db.schema.dropTable('live_documents').execute();
}
