import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * On PostgreSQL, every statement that changes who may read what (organizations, members, teams, team
 * members, spaces, collections, grants), which content a published site shows (sites, their spaces) or
 * what a revision is (revisions, read by id on every content request) announces it on the channel `quire_access_changed` (payload: the
 * schema), from a statement-level trigger: PostgreSQL delivers the notice when the transaction commits,
 * to every serving process, whatever wrote the rows (a request, a job, the CLI, a person at psql). Each
 * process forgets what it remembered of access at once (src/db/memo.ts). SQLite runs in one serving
 * process, which sees its own writes as it makes them: nothing to add there.
 */
const ACCESS_TABLES = ['organizations', 'members', 'teams', 'team_members', 'spaces', 'collections', 'content_permissions', 'sites', 'site_spaces', 'revisions'] as const;

export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create or replace function quire_access_changed() returns trigger language plpgsql as $$
    begin
      perform pg_notify('quire_access_changed', tg_table_schema);
      return null;
    end
  $$`.execute(db);
  for (const table of ACCESS_TABLES) {
    await sql`create trigger quire_access_changed after insert or update or delete or truncate on ${sql.table(table)} for each statement execute function quire_access_changed()`.execute(db);
  }
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  for (const table of ACCESS_TABLES) await sql`drop trigger if exists quire_access_changed on ${sql.table(table)}`.execute(db);
  await sql`drop function if exists quire_access_changed()`.execute(db);
}
