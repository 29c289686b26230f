import type { Kysely } from 'kysely';

/**
 * OpenAPI specifications of an organization, by slug, and their versions. A version is written only when
 * the bundled description changes (its hash), compared with the latest version's `content_hash`. Deleting a spec (or its
 * organization) removes its versions with it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('openapi_specs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('slug', 'text', (c) => c.notNull())
    /** The URL the description is fetched from; null when it was given as text. */
    .addColumn('source_url', 'text')
    /** The description given as text; null when it comes from a URL. */
    .addColumn('source_text', 'text')
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('private'))
    /** 'pending', 'progress' or 'complete'. */
    .addColumn('processing_state', 'text', (c) => c.notNull())
    .addColumn('last_version_id', 'text')
    .addColumn('last_processed_at', 'text')
    /** FETCH_TIMEOUT, FETCH_ERROR or PARSE_ERROR of the last processing; null when it succeeded. */
    .addColumn('last_error_code', 'text')
    .addColumn('last_error', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('openapi_specs_slug_unique', ['organization_id', 'slug'])
    .execute();

  await db.schema
    .createTable('openapi_spec_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('spec_id', 'text', (c) => c.notNull().references('openapi_specs.id').onDelete('cascade'))
    /** sha256 of `content`: a refresh that bundles the same description makes no new version. */
    .addColumn('content_hash', 'text', (c) => c.notNull())
    /** The bundled description, as JSON text. */
    .addColumn('content', 'text', (c) => c.notNull())
    /** Where it was fetched from (null for text sources). */
    .addColumn('source_url', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('openapi_spec_versions_spec').on('openapi_spec_versions').columns(['spec_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('openapi_spec_versions').execute();
  await db.schema.dropTable('openapi_specs').execute();
}
