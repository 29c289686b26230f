import { existsSync, mkdirSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import SQLite from 'better-sqlite3';
import pg from 'pg';
import { Kysely, Migrator, PostgresDialect, SqliteDialect, sql, type DatabaseIntrospector, type SchemaMetadata, type SqliteDatabase, type TableMetadata } from 'kysely';
import type { DB } from './types.ts';
import { migrationProvider } from './migration-provider.ts';
import { namingPool } from './named-statements.ts';

export type DialectName = 'sqlite' | 'postgres';

export interface Database {
  db: Kysely<DB>;
  dialect: DialectName;
  /** PostgreSQL only: the schema Quire's tables live in, when not the default. */
  schema?: string;
  /**
   * SQLite files only: a number that changes when another connection (another process: the CLI) has
   * committed a change since the last call (PRAGMA data_version). Memory that mirrors rows checks it.
   * Read once per turn of the event loop, and again after any write by this process (`fileVersion`).
   */
  dataVersion?: () => number;
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
      // Kysely runs the statement right after preparing it, synchronously: a write (or a commit) from
      // any connection of this process makes the next file-version check read the file again.
      if (!statement.reader) sqliteWrites++;
      return statement;
    },
  };
}

/** Statements that may write, run by any SQLite connection of this process (see `fileVersion`). */
let sqliteWrites = 0;

/**
 * A SQLite file's `data_version` (it changes when another connection commits), read at most once per turn
 * of the event loop: it takes the file's shared lock, a few microseconds, and was the largest single cost
 * of a read answered from memory (src/db/memo.ts), whose every request asked it. So a commit by another
 * process is seen from the next turn on, not by requests parsed in the same turn; a write by any connection
 * of this process (tests, the backup) makes the next check read the file again at once.
 */
function fileVersion(read: () => number): () => number {
  let value = 0;
  let fresh = false;
  let writes = -1;
  const expire = () => {
    fresh = false;
  };
  return () => {
    if (fresh && writes === sqliteWrites) return value;
    value = read();
    writes = sqliteWrites;
    if (!fresh) {
      fresh = true;
      setImmediate(expire);
    }
    return value;
  };
}

/**
 * Kysely's PostgreSQL introspector reads every column of every table of every schema and calls
 * `has_schema_privilege` and `pg_get_serial_sequence` by name on each: slow on a database with many
 * schemas, and it fails ("schema … does not exist") when another schema is dropped while it runs. The
 * migrator only asks whether a schema and its bookkeeping tables exist, so Quire answers from the
 * catalog by oid, for the tables of one schema (the configured one, else the first on the search path).
 */
class NarrowPostgresIntrospector implements DatabaseIntrospector {
  constructor(private readonly db: Kysely<any>) {}

  async getSchemas(): Promise<SchemaMetadata[]> {
    const { rows } = await sql<{ name: string }>`select nspname as name from pg_catalog.pg_namespace`.execute(this.db);
    return rows;
  }

  async getTables(): Promise<TableMetadata[]> {
    const { rows } = await sql<{ name: string; schema: string; kind: string }>`
      select c.relname as name, ns.nspname as schema, c.relkind as kind
      from pg_catalog.pg_class c join pg_catalog.pg_namespace ns on ns.oid = c.relnamespace
      where ns.nspname = current_schema() and c.relkind in ('r', 'v', 'p')`.execute(this.db);
    return rows.map((row) => ({ name: row.name, schema: row.schema, isView: row.kind === 'v', columns: [] }));
  }

  async getMetadata(): Promise<{ tables: TableMetadata[] }> {
    return { tables: await this.getTables() };
  }
}

class QuirePostgresDialect extends PostgresDialect {
  override createIntrospector(db: Kysely<any>): DatabaseIntrospector {
    return new NarrowPostgresIntrospector(db);
  }
}

export interface OpenOptions {
  /** PostgreSQL only: the schema to work in (tests give each app its own). */
  schema?: string;
}

/** Where a database URL points, for a person to read: a SQLite file's absolute path, or PostgreSQL's host and database (never the password). */
export function databaseLocation(url: string): string {
  if (url.startsWith('sqlite:')) return url === 'sqlite::memory:' ? 'an in-memory SQLite database' : resolve(url.slice('sqlite:'.length));
  try {
    const parsed = new URL(url);
    return `PostgreSQL database "${decodeURIComponent(parsed.pathname.replace(/^\//, '')) || '(default)'}" on ${parsed.host || 'the default host'}`;
  } catch (error) {
    if (error instanceof TypeError) return 'the PostgreSQL database of QUIRE_DATABASE_URL';
    throw error;
  }
}

/**
 * Whether a Quire database is at this URL already: for SQLite, the file exists and holds Quire's migration
 * table; for PostgreSQL, the database (schema) holds that table. Opening a SQLite file that is not there
 * would create it, so its existence is checked first.
 */
export async function databaseExists(url: string, options: OpenOptions = {}): Promise<boolean> {
  if (url.startsWith('sqlite:') && (url === 'sqlite::memory:' || !existsSync(url.slice('sqlite:'.length)))) return false;
  const database = openDatabase(url, options);
  try {
    const tables = await database.db.introspection.getTables({ withInternalKyselyTables: true });
    return tables.some((table) => table.name === 'kysely_migration');
  } finally {
    await database.close();
  }
}

/** Opens the configured database and brings its schema to the latest migration; closes it again on failure. */
export async function openMigratedDatabase(config: { databaseUrl: string }): Promise<{ database: Database; applied: string[] }> {
  const database = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(database);
    return { database, applied };
  } catch (error) {
    await database.close();
    throw error;
  }
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
    const dataVersion = sqlite.prepare('pragma data_version').pluck();
    const version = fileVersion(() => (sqlite.open ? (dataVersion.get() as number) : 0));
    return { db, dialect: 'sqlite', ...(file !== ':memory:' ? { dataVersion: version } : {}), close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: url,
    max: 10,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle connection the server ends (PostgreSQL restarted, a backend terminated, a proxy's idle timeout, the
  // database dropped) is reported by the pool as an 'error' event: without a listener Node throws it and the process
  // ends. The pool has already let go of that connection and opens another for the next query, so it is only said.
  pool.on('error', (error) => process.emitWarning(`An idle PostgreSQL connection was closed by the server (${error.message}); the next query opens another.`, { code: 'QUIRE_PG_IDLE_CLOSED' }));
  const db = new Kysely<DB>({ dialect: new QuirePostgresDialect({ pool: namingPool(pool) }) });
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

const fullyMigrated = new WeakSet<Database>();

/**
 * True when every migration this process knows has been applied. Once true it stays true (migrations are
 * never taken back while a process runs), so `/readyz` asks the database only until then.
 */
export async function migrationsApplied(database: Database): Promise<boolean> {
  if (fullyMigrated.has(database)) return true;
  const all = await migrator(database).getMigrations();
  const applied = all.every((m) => m.executedAt !== undefined);
  if (applied) fullyMigrated.add(database);
  return applied;
}
