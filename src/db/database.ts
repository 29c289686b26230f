import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, type SqliteDatabase } from 'kysely';
import type { DB } from './types.ts';
import { migrationProvider } from './migrations/index.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /** PostgreSQL only: the schema Quire's tables live in, when not the default. */
  schema?: string;
  close(): Promise<void>;
}

// PostgreSQL answers count(*) and bigint columns as strings by default; Quire's counts fit in a double.
pg.types.setTypeParser(pg.types.builtins.INT8, (value) => Number(value));

/**
 * Kysely's SQLite driver prepares every statement anew; preparing costs more than running a small query.
 * Quire's queries are a bounded set of SQL texts (values travel as parameters), so prepared statements are
 * kept by text, least recently used dropped first.
 */
function withStatementCache(sqlite: SQLite.Database, size = 500): SqliteDatabase {
  const cache = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare(text: string) {
      let statement = cache.get(text);
      if (statement) {
        cache.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(text, statement);
      return statement;
    },
  };
}

export interface OpenOptions {
  /** PostgreSQL only: the schema to work in (tests give each app its own). */
  schema?: string;
}

/** Opens `sqlite:<file>`, `sqlite::memory:` or `postgres://…`. */
export function openDatabase(url: string, options: OpenOptions = {}): Database {
  if (url.startsWith('sqlite:')) {
    const file = url.slice('sqlite:'.length);
    if (file !== ':memory:') mkdirSync(dirname(file), { recursive: true });
    const sqlite = new SQLite(file);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('synchronous = NORMAL');
    const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
    return { db, dialect: 'sqlite', close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  const db = new Kysely<DB>({ dialect: new PostgresDialect({ pool }) });
  return { db, dialect: 'postgres', schema: options.schema, close: () => db.destroy() };
}

function migrator(database: Database): Migrator {
  // Kysely looks its bookkeeping tables up by schema; name ours so that another schema's tables are never taken for them.
  return new Migrator({ db: database.db, provider: migrationProvider, ...(database.schema ? { migrationTableSchema: database.schema } : {}) });
}

/** Applies pending migrations; returns the names applied. Throws with the failing migration's name. */
export async function migrateToLatest(database: Database): Promise<string[]> {
  const { error, results } = await migrator(database).migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(`Migration ${failed} failed: ${error instanceof Error ? error.message : String(error)}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** True when every known migration has been applied. */
export async function migrationsApplied(database: Database): Promise<boolean> {
  const all = await migrator(database).getMigrations();
  return all.every((m) => m.executedAt !== undefined);
}
