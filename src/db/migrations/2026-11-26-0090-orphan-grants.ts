import { sql, type Kysely } from 'kysely';

/**
 * Grants used to outlive what they named (a purged space or collection, a deleted team, a member who left
 * the organization); they gave nothing, but would have been inherited by a later object or member with
 * the same id. Services now remove them in the same transaction (src/access/grants.ts); this removes the
 * ones left from before. The same statements on SQLite and PostgreSQL.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`delete from content_permissions where resource_kind = 'space' and not exists (select 1 from spaces where spaces.id = content_permissions.resource_id)`.execute(db);
  await sql`delete from content_permissions where resource_kind = 'collection' and not exists (select 1 from collections where collections.id = content_permissions.resource_id)`.execute(db);
  await sql`delete from content_permissions where subject_kind = 'team' and not exists (select 1 from teams where teams.id = content_permissions.subject_id)`.execute(db);
  await sql`delete from content_permissions where subject_kind = 'user' and not exists (select 1 from members where members.user_id = content_permissions.subject_id and members.organization_id = content_permissions.organization_id)`.execute(db);
}

export async function down(): Promise<void> {
  // Nothing to restore: the rows removed granted nothing.
}
