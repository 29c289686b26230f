import { sql, type Kysely } from 'kysely';
import { dialectOf } from '../dialect.ts';

/**
 * On PostgreSQL, ending a session (a row of `sessions` deleted: signed out, revoked, expired) and revoking an
 * API token (`api_tokens.revoked_at` set) announce it on the channel of access changes,
 * `quire_access_changed` (migration 2026-11-27-0370, payload: the schema), when the transaction commits.
 * Every serving process hears it: the memo of access forgets (src/db/memo.ts), and the live server re-checks
 * its open sockets at once (src/live/server.ts), so a person whose session or token ends is disconnected
 * from live documents on every process within a second, not at the next periodic re-check. Row-level, with
 * a condition on tokens, so the frequent writes to these tables (a session's last use) announce nothing;
 * PostgreSQL folds the notices of one transaction into one. SQLite runs one serving process: nothing to add.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`create or replace function quire_credential_ended() returns trigger language plpgsql as $$
    begin
      perform pg_notify('quire_access_changed', tg_table_schema);
      return null;
    end
  $$`.execute(db);
  await sql`create trigger quire_session_ended after delete on sessions for each row execute function quire_credential_ended()`.execute(db);
  await sql`create trigger quire_token_revoked after update of revoked_at on api_tokens for each row when (new.revoked_at is not null and old.revoked_at is null) execute function quire_credential_ended()`.execute(db);
}

export async function down(db: Kysely<unknown>): Promise<void> {
  if (dialectOf(db) !== 'postgres') return;
  await sql`drop trigger if exists quire_session_ended on sessions`.execute(db);
  await sql`drop trigger if exists quire_token_revoked on api_tokens`.execute(db);
  await sql`drop function if exists quire_credential_ended()`.execute(db);
}
