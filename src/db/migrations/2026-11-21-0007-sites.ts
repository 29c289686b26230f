import type { Kysely } from 'kysely';

/**
 * Sites: what readers see. A site publishes spaces (through site spaces, its variants) under one address,
 * organised in sections and section groups, for the audience its visibility sets. Sections and section
 * groups share one ordering at the top of the site (`position`); sections inside a group are ordered by
 * their own `position`. Site spaces are ordered inside their section, or at the root of a site without
 * sections.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('sites')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('visibility', 'text', (c) => c.notNull())
    .addColumn('published', 'integer', (c) => c.notNull().defaultTo(0))
    /** The site's address under QUIRE_PUBLIC_URL: /sites/{organization}/{basename}; unique in the organization. */
    .addColumn('basename', 'text', (c) => c.notNull())
    /** A custom hostname that serves the site at its root; unique across Quire. */
    .addColumn('hostname', 'text', (c) => c.unique())
    .addColumn('proxy', 'text')
    .addColumn('agents_context', 'text', (c) => c.notNull())
    .addColumn('adaptive_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    /** The visitor schema (draft-07 JSON Schema, JSON text); null until set. */
    .addColumn('adaptive_schema', 'text')
    .addColumn('adaptive_schema_updated_at', 'text')
    /** The key that signs visitor JWTs, sealed with the SecretBox. */
    .addColumn('auth_key', 'text', (c) => c.notNull())
    .addColumn('auth_backend', 'text', (c) => c.notNull().defaultTo('custom'))
    .addColumn('auth_fallback_url', 'text')
    .addColumn('default_section_id', 'text')
    /** The default site space at the root of a site without sections. */
    .addColumn('default_site_space_id', 'text')
    /** Bumped by every change to the site or its structure: the published reader's caches are keyed by it. */
    .addColumn('version', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('sites_basename_unique', ['organization_id', 'basename'])
    .execute();

  await db.schema
    .createTable('site_section_groups')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('icon', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_section_groups_site').on('site_section_groups').columns(['site_id', 'position']).execute();

  await db.schema
    .createTable('site_sections')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('group_id', 'text', (c) => c.references('site_section_groups.id').onDelete('set null'))
    .addColumn('title', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('icon', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('default_site_space_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('site_sections_path_unique', ['site_id', 'path'])
    .execute();

  await db.schema
    .createTable('site_spaces')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    /** The section holding it; null at the root of a site without sections. */
    .addColumn('section_id', 'text', (c) => c.references('site_sections.id').onDelete('cascade'))
    .addColumn('space_id', 'text', (c) => c.notNull().references('spaces.id').onDelete('cascade'))
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('condition', 'text')
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_spaces_site').on('site_spaces').columns(['site_id', 'section_id', 'position']).execute();
  await db.schema.createIndex('site_spaces_space').on('site_spaces').columns(['space_id']).execute();

  await db.schema
    .createTable('site_share_links')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    /** SHA-256 of the key, for lookups; the key itself is sealed in `key_sealed` (its URL is shown again). */
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_sealed', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_share_links_site').on('site_share_links').columns(['site_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('site_share_links').execute();
  await db.schema.dropTable('site_spaces').execute();
  await db.schema.dropTable('site_sections').execute();
  await db.schema.dropTable('site_section_groups').execute();
  await db.schema.dropTable('sites').execute();
}
