import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * Two more tables announce their changes on `quire_access_changed` (migration 2026-11-27-0370's function):
 * a site's share links (a revoked link must stop admitting its readers at once) and the organization's
 * OpenAPI specs (a new version changes the pages that show it). The published reader keeps warm pages in
 * memory while nothing they were made from changed (src/published/warm-pages.ts); every serving process
 * forgets them on these notices too.
 */
const TABLES = ['site_share_links', 'openapi_specs'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const table of TABLES) {
    await sql`create trigger quire_access_changed after insert or update or delete or truncate on ${sql.table(table)} for each statement execute function quire_access_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const table of TABLES) await sql`drop trigger if exists quire_access_changed on ${sql.table(table)}`.execute(db);
}
