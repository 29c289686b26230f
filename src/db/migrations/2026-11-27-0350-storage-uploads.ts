import type { Kysely } from 'kysely';

/**
 * Files uploaded through the client's storage operation (`generateStorageUploadURL`), today only custom font
 * files (kind `customization_font`): the key the signed address names, what the uploader declared, and once
 * the bytes arrived and passed their checks, the blob that holds them (src/storage/uploads.ts). The content
 * collector keeps a blob while a custom font names its key, or while the upload is younger than the grace.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('storage_uploads')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('content_type', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('blob', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'text')
    .execute();
  await db.schema.createIndex('storage_uploads_organization').on('storage_uploads').columns(['organization_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('storage_uploads').execute();
}
