import type { Kysely } from 'kysely';

/**
 * Link analyses kept by revision (src/content/link-analysis/saved.ts): what the link analysis of a revision
 * found — every target with its pages, the files' users, the spaces named — by the revision's root hash and
 * the public URL it was classified against, written by the search indexer's job after it indexes a space's
 * new revision, so that the first request for the revision's links on any process reads one row instead of
 * every page's facts. `reading` names the code that made it (another reading counts as missing). Rows whose
 * root object is gone are swept by the content collector (src/content/gc.ts) after the grace period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('link_analyses')
    .addColumn('root_hash', 'text', (c) => c.notNull())
    .addColumn('public_url', 'text', (c) => c.notNull())
    .addColumn('reading', 'text', (c) => c.notNull())
    .addColumn('analysis', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('link_analyses_pkey', ['root_hash', 'public_url'])
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_analyses').execute();
}
