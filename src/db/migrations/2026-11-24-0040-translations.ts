import type { Kysely } from 'kysely';

/**
 * Translations: a source space kept translated into another language, page by page, in a result space of
 * the same organization. `translation_pages` remembers, for each page, which source content was translated
 * and what was written into the result, so a run translates only what changed and leaves pages edited by
 * hand in the result alone. The glossary is the organization's: terms and their renderings per language.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('translations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('source_space_id', 'text', (c) => c.notNull())
    .addColumn('source_language', 'text', (c) => c.notNull())
    .addColumn('language', 'text', (c) => c.notNull())
    /** The instructions document (JSON text); null when none were given. */
    .addColumn('instructions', 'text')
    .addColumn('result_space_id', 'text')
    .addColumn('result_revision_id', 'text')
    /** 'pending', 'running' or 'completed'. */
    .addColumn('status', 'text', (c) => c.notNull())
    /** Why the last run failed (kept pending and retried), null after a run that succeeded. */
    .addColumn('error', 'text')
    .addColumn('runs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_words', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('total_pages', 'integer', (c) => c.notNull().defaultTo(0))
    /** Milliseconds (the API shows seconds). */
    .addColumn('total_duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_duration_ms', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_pages', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_words', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('translations_source_language_unique', ['source_space_id', 'language'])
    .execute();
  await db.schema.createIndex('translations_organization').on('translations').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('translation_pages')
    .addColumn('translation_id', 'text', (c) => c.notNull().references('translations.id').onDelete('cascade'))
    .addColumn('page_id', 'text', (c) => c.notNull())
    /** Hash of the source page's settings and body that were translated, with the settings of the run. */
    .addColumn('source_hash', 'text', (c) => c.notNull())
    /** Hash of the page's settings and body as the run wrote them into the result space. */
    .addColumn('result_hash', 'text', (c) => c.notNull())
    /** 'translated', 'current' (unchanged since the last run), 'edited' (changed by hand in the result: kept). */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('words', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('translated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('translation_pages_pk', ['translation_id', 'page_id'])
    .execute();

  await db.schema
    .createTable('glossary_entries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    /** Language code → term (JSON text). */
    .addColumn('translations', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('glossary_entries_organization').on('glossary_entries').columns(['organization_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('glossary_entries').execute();
  await db.schema.dropTable('translation_pages').execute();
  await db.schema.dropTable('translations').execute();
}
