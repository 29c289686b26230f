import { createHash } from 'node:crypto';
import { sql, type RawBuilder } from 'kysely';
import type pg from 'pg';

/**
 * PostgreSQL: statements run as named prepared statements, parsed and planned once per connection rather than on
 * every execution (Kysely sends every statement unnamed, so PostgreSQL plans it each time). Only statements that
 * ask for it (`named`) and whose plan stays good whatever the values are named: after five executions PostgreSQL may
 * keep a generic plan for them (plan_cache_mode auto), which a statement must be checked for (decision 0147).
 *
 * The pool Kysely is given hands out each connection behind a small wrapper: a statement whose text starts with
 * NAMED_MARK goes to the pg driver as `{ name, text, values }`, the name derived from the text, so the driver parses
 * it on a connection the first time and only binds and executes it afterwards; every other call passes through.
 */
const NAMED_MARK = '/* named */ ';

/** The statement, to be run as a named prepared statement on PostgreSQL (the mark is a comment: SQLite ignores it). */
export function named<T>(statement: RawBuilder<T>): RawBuilder<T> {
  return sql<T>`${sql.raw(NAMED_MARK)}${statement}`;
}

/** Names already derived, by text; the texts marked are a handful, fixed in the code. */
const names = new Map<string, string>();

function nameOf(text: string): string {
  let name = names.get(text);
  if (!name) {
    name = `quire_${createHash('sha256').update(text).digest('hex').slice(0, 24)}`;
    if (names.size >= 1_000) names.clear();
    names.set(text, name);
  }
  return name;
}

type Query = (...args: unknown[]) => unknown;

/** The client with `query` naming marked statements; one wrapper per client, so Kysely knows a connection again. */
const wrappers = new WeakMap<pg.PoolClient, pg.PoolClient>();

function wrap(client: pg.PoolClient): pg.PoolClient {
  let wrapper = wrappers.get(client);
  if (!wrapper) {
    const query = client.query.bind(client) as Query;
    wrapper = {
      query: (first: unknown, ...rest: unknown[]) =>
        typeof first === 'string' && first.startsWith(NAMED_MARK) ? query({ name: nameOf(first), text: first, values: rest[0] }) : query(first, ...rest),
      release: (error?: Error | boolean) => client.release(error),
    } as unknown as pg.PoolClient;
    wrappers.set(client, wrapper);
  }
  return wrapper;
}

/** The pool as Kysely's PostgreSQL dialect takes it, its connections running marked statements as named ones. */
export function namingPool(pool: pg.Pool): { connect(): Promise<pg.PoolClient>; end(): Promise<void> } {
  return {
    connect: async () => wrap(await pool.connect()),
    end: () => pool.end(),
  };
}
