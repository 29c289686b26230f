import type { Kysely } from 'kysely';

/**
 * Self-service password resets: a reset link a person asks for on the sign-in page (where mail is
 * configured) is bound to the browser that asked, as magic links are. `browser_hash` is the SHA-256 of a
 * random id that browser holds in a cookie; null for the links an administrator or `quire user password
 * reset` makes (they are passed on by hand, to be opened in whichever browser the person uses).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('password_links').addColumn('browser_hash', 'text').execute();
}
