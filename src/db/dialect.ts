import { PostgresAdapter, sql, SqliteAdapter, type Kysely, type RawBuilder } from 'kysely';
import type { DialectName } from './database.ts';

/**
 * The few places where SQLite and PostgreSQL differ, kept together. Everything else in Quire is written
 * once in Kysely and runs on both.
 */

/** True when a driver error is a unique-constraint violation. */
export function isUniqueViolation(dialect: DialectName, error: unknown): boolean {
  if (typeof error !== 'object' || error === null) return false;
  const code = (error as { code?: unknown }).code;
  return dialect === 'sqlite' ? code === 'SQLITE_CONSTRAINT_UNIQUE' || code === 'SQLITE_CONSTRAINT_PRIMARYKEY' : code === '23505';
}

/** A LIKE pattern that matches `text` anywhere, with LIKE's own wildcards escaped (used with ESCAPE '\'). */
export function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/** The dialect a Kysely instance speaks, for migrations (which receive only the instance) that differ per database. */
export function dialectOf(db: Kysely<unknown>): DialectName {
  const adapter = db.getExecutor().adapter;
  if (adapter instanceof SqliteAdapter) return 'sqlite';
  if (adapter instanceof PostgresAdapter) return 'postgres';
  throw new Error(`Quire runs on SQLite or PostgreSQL; this database adapter is neither: ${adapter.constructor.name}.`);
}

/**
 * The text of member `key` of a JSON object stored in a text column (null when absent): `json_extract` on
 * SQLite, `->>` on PostgreSQL. `key` is a plain name, never a path.
 */
export function jsonTextMember(dialect: DialectName, column: string, key: string): RawBuilder<string | null> {
  if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) throw new Error(`"${key}" is not a plain JSON member name.`);
  // The name is checked above, so it is written into the statement as a literal (PostgreSQL's ->> needs its type known).
  return dialect === 'sqlite'
    ? sql<string | null>`json_extract(${sql.ref(column)}, ${sql.raw(`'$.${key}'`)})`
    : sql<string | null>`(${sql.ref(column)}::jsonb ->> ${sql.raw(`'${key}'`)})`;
}
