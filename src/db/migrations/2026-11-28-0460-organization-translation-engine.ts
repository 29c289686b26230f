import type { Kysely } from 'kysely';

/**
 * The translation engine an organization chose among those the server offers (decision 0114); null follows
 * the server's QUIRE_TRANSLATION_ENGINE.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('translation_engine', 'text').execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('organizations').dropColumn('translation_engine').execute();
}
