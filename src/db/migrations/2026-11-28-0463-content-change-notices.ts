import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * On PostgreSQL, the notices of access changes (migration 2026-11-27-0370) tell content from access: a
 * write to `revisions`, `sites` or `site_spaces` (what content is, what a published site shows) announces
 * the schema followed by `#content`, so every process forgets what it remembered (src/db/memo.ts) but the
 * live server does not re-check its sockets, which a revision written every couple of seconds per live
 * document made it do on every process. A change request's status (draft and open change requests are
 * edited live, merged and closed ones are read) now announces a change of access: the live sockets of a
 * merged change request turn read-only at once, whichever process merged it.
 */
const CONTENT_TABLES = ['revisions', 'sites', 'site_spaces'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create or replace function quire_content_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('quire_access_changed', tg_table_schema || '#content');
      return null;
    end
  $$`.execute(db);
  for (const table of CONTENT_TABLES) {
    await sql`drop trigger if exists quire_access_changed on ${sql.table(table)}`.execute(db);
    await sql`create trigger quire_content_changed after insert or update or delete or truncate on ${sql.table(table)} for each statement execute function quire_content_changed()`.execute(db);
  }
  await sql`create trigger quire_change_request_status after update of status on change_requests for each row when (new.status is distinct from old.status) execute function quire_access_changed()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop trigger if exists quire_change_request_status on change_requests`.execute(db);
  for (const table of CONTENT_TABLES) {
    await sql`drop trigger if exists quire_content_changed on ${sql.table(table)}`.execute(db);
    await sql`create trigger quire_access_changed after insert or update or delete or truncate on ${sql.table(table)} for each statement execute function quire_access_changed()`.execute(db);
  }
  await sql`drop function if exists quire_content_changed()`.execute(db);
}
