import type { Kysely } from 'kysely';

/**
 * The published reader's own tables: a site's customization (and per-site-space overrides), its redirects,
 * the insight events its readers send, and the MCP servers configured for it.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  /** One row per site (site_space_id '') and per overridden site space: the settings as JSON text. */
  await db.schema
    .createTable('site_customizations')
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('site_space_id', 'text', (c) => c.notNull())
    .addColumn('settings', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('site_customizations_pk', ['site_id', 'site_space_id'])
    .execute();

  /**
   * Redirects from a path below the site root to a section, a site space or a page. `automatic` rows are
   * recorded by the reader when a page's path changes; an administrator's row for the same source wins.
   */
  await db.schema
    .createTable('site_redirects')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('destination', 'text', (c) => c.notNull())
    .addColumn('automatic', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('site_redirects_source_unique', ['site_id', 'source'])
    .execute();

  /**
   * The paths each page of a published space has been served under: the reader remembers them, so that an
   * old address leads to where the page is now. One row per (space, path).
   */
  await db.schema
    .createTable('published_page_paths')
    .addColumn('space_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('page_id', 'text', (c) => c.notNull())
    .addColumn('seen_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('published_page_paths_pk', ['space_id', 'path'])
    .execute();

  /**
   * What readers do, without personal data: no IP, no user agent, no cookie; `visitor` and `session` are
   * salted hashes whose salt changes every day, so nobody can follow a reader from one day to the next.
   */
  await db.schema
    .createTable('site_insight_events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('site_section', 'text')
    .addColumn('site_space', 'text')
    .addColumn('space', 'text')
    .addColumn('page', 'text')
    .addColumn('query', 'text')
    .addColumn('result_count', 'integer')
    .addColumn('rating', 'text')
    .addColumn('visitor', 'text', (c) => c.notNull())
    .addColumn('session', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('site_insight_events_site_at').on('site_insight_events').columns(['site_id', 'at']).execute();

  await db.schema
    .createTable('site_mcp_servers')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('site_id', 'text', (c) => c.notNull().references('sites.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    /** The headers sent to the server, sealed with the secret box (they often hold credentials). */
    .addColumn('headers_sealed', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  /** An organization's custom fonts: a family and its faces (weight → the font file's https address). */
  await db.schema
    .createTable('custom_fonts')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('family', 'text', (c) => c.notNull())
    .addColumn('faces', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('custom_fonts_organization').on('custom_fonts').columns(['organization_id', 'created_at']).execute();
  await db.schema.createIndex('site_mcp_servers_site').on('site_mcp_servers').columns(['site_id', 'created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  for (const table of ['custom_fonts', 'site_mcp_servers', 'site_insight_events', 'published_page_paths', 'site_redirects', 'site_customizations']) await db.schema.dropTable(table).execute();
}
