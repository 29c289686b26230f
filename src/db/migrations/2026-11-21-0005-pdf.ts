import type { Kysely } from 'kysely';

/**
 * The PDF cache: which blob holds the PDF made for a key (the content's root hash, the pages asked for,
 * the title page and the renderer's version). The bytes are in blob storage like file bytes, so every
 * process that shares the database serves a PDF that any of them made.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('pdf_exports')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('blob', 'text', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('pdf_exports').execute();
}
