import type { Kysely } from 'kysely';

/**
 * Spaces, collections, the content store (immutable content-addressed objects and the revisions that
 * point at them), and the durable job queue.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('collections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('parent_id', 'text', (c) => c.references('collections.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('default_level', 'text', (c) => c.notNull())
    .addColumn('position', 'double precision', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('collections_organization').on('collections').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('collections_parent').on('collections').columns(['parent_id', 'position']).execute();

  await db.schema
    .createTable('spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('collection_id', 'text', (c) => c.references('collections.id'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('emoji', 'text')
    .addColumn('icon', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('edit_mode', 'text', (c) => c.notNull())
    .addColumn('default_level', 'text', (c) => c.notNull())
    .addColumn('language', 'text')
    .addColumn('revision_id', 'text', (c) => c.notNull())
    .addColumn('position', 'double precision', (c) => c.notNull())
    .addColumn('comments', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests_open', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('change_requests_draft', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text', (c) => c.references('users.id'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addColumn('deleted_at', 'text')
    .execute();
  await db.schema.createIndex('spaces_organization').on('spaces').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('spaces_collection').on('spaces').columns(['collection_id', 'position']).execute();
  await db.schema.createIndex('spaces_deleted').on('spaces').column('deleted_at').execute();

  // Immutable, content-addressed: page bodies (Markdown), page nodes and revision roots (JSON). Never updated.
  await db.schema
    .createTable('content_objects')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('data', 'text', (c) => c.notNull())
    .execute();

  // File bytes live in blob storage (a folder by default), by SHA-256; this table records what is stored.
  await db.schema
    .createTable('content_blobs')
    .addColumn('hash', 'text', (c) => c.primaryKey())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('revisions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('parents', 'text', (c) => c.notNull())
    .addColumn('root', 'text', (c) => c.notNull().references('content_objects.hash'))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('revisions_space').on('revisions').columns(['space_id', 'created_at']).execute();

  await db.schema
    .createTable('jobs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('payload', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('singleton_key', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_attempts', 'integer', (c) => c.notNull())
    .addColumn('run_at', 'text', (c) => c.notNull())
    .addColumn('locked_by', 'text')
    .addColumn('locked_until', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('jobs_due').on('jobs').columns(['status', 'run_at']).execute();
  // At most one pending or running job per singleton key; finished jobs give their key up.
  await db.schema.createIndex('jobs_singleton').on('jobs').column('singleton_key').unique().where('singleton_key', 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['jobs', 'revisions', 'content_blobs', 'content_objects', 'spaces', 'collections']) {
    await db.schema.dropTable(table).execute();
  }
}
