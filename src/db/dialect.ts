import { PostgresAdapter, SqliteAdapter, type Kysely } from 'kysely';
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
