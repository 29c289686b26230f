import type { Kysely } from 'kysely';

/**
 * API tokens get a lifecycle: an optional expiry, the time of last use (written at most once a minute per
 * token, see src/http/auth.ts), and revocation (kept as a time, so a revoked token is still listed as such
 * and its hash can never be reissued). Listing a user's tokens reads them by user.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('api_tokens').addColumn('expires_at', 'text').execute();
  await db.schema.alterTable('api_tokens').addColumn('last_used_at', 'text').execute();
  await db.schema.alterTable('api_tokens').addColumn('revoked_at', 'text').execute();
  await db.schema.createIndex('api_tokens_user').on('api_tokens').columns(['user_id', 'created_at', 'id']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('api_tokens_user').execute();
  for (const column of ['revoked_at', 'last_used_at', 'expires_at']) await db.schema.alterTable('api_tokens').dropColumn(column).execute();
}
