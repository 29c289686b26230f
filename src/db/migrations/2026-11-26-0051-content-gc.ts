import type { Kysely } from 'kysely';

/**
 * Garbage collection of the content store (src/content/gc.ts): every content object and every recorded
 * blob gets the time it was last written or reused (`touched_at`). The collector removes only what is
 * unreachable and was not touched within its grace period, and a writer that reuses an object touches it
 * in the statement that reuses it. Rows older than this migration have none (null): they count as old.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('content_objects').addColumn('touched_at', 'text').execute();
  await db.schema.alterTable('content_blobs').addColumn('touched_at', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('content_blobs').dropColumn('touched_at').execute();
  await db.schema.alterTable('content_objects').dropColumn('touched_at').execute();
}
