import { CompiledQuery, type Compilable, type Kysely } from 'kysely';
import type { DialectName } from './database.ts';
import type { DB } from './types.ts';

/**
 * A query on a hot path (every authenticated request runs a few), built with Kysely once and compiled once
 * per dialect; each call only binds its parameters. Building and compiling a query costs more than SQLite
 * takes to run it.
 *
 * `build` receives placeholder arguments and must pass each one to Kysely as a value (so it becomes a bound
 * parameter, never part of the SQL text). Values the query fixes itself stay as they were compiled.
 */
export function preparedQuery<Args extends readonly unknown[], Row>(build: (db: Kysely<DB>, ...args: Args) => Compilable<Row>) {
  const compiled = new Map<DialectName, { sql: string; slots: Array<{ arg: number } | { value: unknown }> }>();

  function compile(db: Kysely<DB>, dialect: DialectName, arity: number) {
    const placeholders = Array.from({ length: arity }, (_, i) => `\u0000quire-arg-${i}\u0000`);
    const query = build(db, ...(placeholders as unknown as Args)).compile();
    const slots = query.parameters.map((value) => {
      const arg = typeof value === 'string' ? placeholders.indexOf(value) : -1;
      return arg >= 0 ? { arg } : { value };
    });
    if (placeholders.some((_, i) => !slots.some((slot) => 'arg' in slot && slot.arg === i))) {
      throw new Error('preparedQuery: every argument must be passed to the query as a value.');
    }
    const entry = { sql: query.sql, slots };
    compiled.set(dialect, entry);
    return entry;
  }

  return async (target: { db: Kysely<DB>; dialect: DialectName }, ...args: Args): Promise<Row[]> => {
    const entry = compiled.get(target.dialect) ?? compile(target.db, target.dialect, args.length);
    const parameters = entry.slots.map((slot) => ('arg' in slot ? args[slot.arg] : slot.value));
    const result = await target.db.executeQuery<Row>(CompiledQuery.raw(entry.sql, parameters));
    return result.rows;
  };
}
