import type { Kysely } from 'kysely';

/**
 * Link facts by body hash (src/content/link-analysis/store.ts): what a page body says about links as
 * written — its references before any tree resolves them, and its anchors — read once and kept, so that a
 * link analysis on a freshly started process parses no body whose facts are known. A body never changes,
 * so neither do its facts; `version` names the reading they came from (a new reading replaces them).
 * Rows whose body is gone are swept by the content collector (src/content/gc.ts) after the grace period.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('link_facts')
    .addColumn('body_hash', 'text', (c) => c.primaryKey())
    .addColumn('version', 'integer', (c) => c.notNull())
    .addColumn('facts', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('link_facts').execute();
}
