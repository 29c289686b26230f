import type { Kysely } from 'kysely';

/**
 * Queue keys: jobs of one key run one at a time, in enqueue order (src/jobs/queue.ts). The index serves the
 * claim's check for an unfinished earlier job of the same key.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('jobs').addColumn('queue_key', 'text').execute();
  await db.schema.createIndex('jobs_queue_key').on('jobs').columns(['queue_key', 'status', 'created_at']).where('queue_key', 'is not', null).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropIndex('jobs_queue_key').execute();
  await db.schema.alterTable('jobs').dropColumn('queue_key').execute();
}
