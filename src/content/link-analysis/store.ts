/**
 * Link facts kept in the database by body hash (table `link_facts`): the second level under the
 * in-process cache of facts.ts. A body's facts as written (written.ts) never change, so a row is written
 * once — by the search indexer, which reads every new body, or by the first analysis that had to read
 * one — and read in bulk by any process. Rows of another reading (WRITTEN_FACTS_VERSION) count as missing
 * and are replaced. The content collector sweeps the rows whose body is gone (`sweepLinkFacts`).
 */
import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { WRITTEN_FACTS_VERSION, type WrittenFacts } from './written.ts';

type Store = Pick<Context, 'db'>;

/**
 * The stored facts of those of `hashes` that have them, in the current reading: one query whatever their
 * number, the hashes passed as one parameter (a JSON list in SQLite, an array in PostgreSQL).
 */
export async function loadWrittenFacts(ctx: Pick<Context, 'db' | 'dialect'>, hashes: string[]): Promise<Map<string, WrittenFacts>> {
  const found = new Map<string, WrittenFacts>();
  const wanted = [...new Set(hashes)];
  if (wanted.length === 0) return found;
  const among = ctx.dialect === 'postgres' ? sql<boolean>`body_hash = any(${wanted}::text[])` : sql<boolean>`body_hash in (select value from json_each(${JSON.stringify(wanted)}))`;
  const rows = await ctx.db.selectFrom('link_facts').select(['body_hash', 'facts']).where(among).where('version', '=', WRITTEN_FACTS_VERSION).execute();
  for (const row of rows) found.set(row.body_hash, JSON.parse(row.facts) as WrittenFacts);
  return found;
}

/** Stores facts by body hash; a row of the current reading already there is kept (it says the same). */
export async function storeWrittenFacts(ctx: Store, facts: Map<string, WrittenFacts>, now: string): Promise<void> {
  const rows = [...facts].map(([hash, value]) => ({ body_hash: hash, version: WRITTEN_FACTS_VERSION, facts: JSON.stringify(value), created_at: now }));
  // Four parameters a row: 200 rows stay under SQLite's and PostgreSQL's limits.
  for (let i = 0; i < rows.length; i += 200) {
    await ctx.db
      .insertInto('link_facts')
      .values(rows.slice(i, i + 200))
      .onConflict((oc) =>
        oc
          .column('body_hash')
          .doUpdateSet((eb) => ({ version: eb.ref('excluded.version'), facts: eb.ref('excluded.facts'), created_at: eb.ref('excluded.created_at') }))
          .where('link_facts.version', '<>', WRITTEN_FACTS_VERSION),
      )
      .execute();
  }
}

/**
 * The sweep of the content collector: rows stored before `cutoff` whose body is no longer in the store
 * (`removedObjects` are the bodies the collector is removing, counted as gone in a dry run). Each delete
 * re-checks in its own statement that the body is gone, so a body stored again meanwhile keeps its facts.
 */
export async function sweepLinkFacts(ctx: Store, cutoff: string, removedObjects: string[], dryRun: boolean): Promise<number> {
  const orphans = await ctx.db
    .selectFrom('link_facts')
    .select('body_hash')
    .where('created_at', '<', cutoff)
    .where((eb) => eb.not(eb.exists(eb.selectFrom('content_objects').select('content_objects.hash').whereRef('content_objects.hash', '=', 'link_facts.body_hash'))))
    .execute();
  if (!dryRun) {
    let removed = 0;
    const hashes = orphans.map((row) => row.body_hash);
    for (let i = 0; i < hashes.length; i += 500) {
      const result = await ctx.db
        .deleteFrom('link_facts')
        .where('body_hash', 'in', hashes.slice(i, i + 500))
        .where((eb) => eb.not(eb.exists(eb.selectFrom('content_objects').select('content_objects.hash').whereRef('content_objects.hash', '=', 'link_facts.body_hash'))))
        .executeTakeFirst();
      removed += Number(result.numDeletedRows);
    }
    return removed;
  }
  let counted = orphans.length;
  for (let i = 0; i < removedObjects.length; i += 500) {
    const rows = await ctx.db.selectFrom('link_facts').select('body_hash').where('created_at', '<', cutoff).where('body_hash', 'in', removedObjects.slice(i, i + 500)).execute();
    counted += rows.length;
  }
  return counted;
}
