import type { SelectQueryBuilder } from 'kysely';
import type { DialectName } from './database.ts';

/**
 * Row locks, the one place Quire asks for them. On PostgreSQL a locked read holds the rows until the
 * transaction ends, so writers that must not build on the same state queue instead; SQLite runs one write
 * transaction at a time, so there a plain read is already current and the query is returned unchanged.
 *
 * Modes: 'update' for rows about to change or be removed; 'no-key-update' for rows whose non-key columns
 * change (it does not block inserts that reference the row); 'share' for rows that must not change or go
 * away while something is put under them.
 *
 * The global lock order (so that no two transactions wait for each other): organization, collection,
 * change request, space, comment, a space's search index, job. A transaction that locks more than one of
 * these takes them in that order. Rows that stay are locked 'no-key-update', so the inserts that reference
 * them (holding key-share locks) never wait for the lock nor make it wait; see docs/architecture.md,
 * "Lock order", for who locks what.
 */
export type LockMode = 'update' | 'no-key-update' | 'share';

export interface LockOptions<TB> {
  mode?: LockMode;
  /** Lock only the rows of these tables of a join (PostgreSQL refuses to lock the nullable side of an outer join). */
  of?: (TB & string) | Array<TB & string>;
  /** Leave rows another transaction holds out of the answer instead of waiting (the job queue's claim). */
  skipLocked?: boolean;
}

export function lockRows<DB, TB extends keyof DB, O>(
  query: SelectQueryBuilder<DB, TB, O>,
  dialect: DialectName,
  options: LockOptions<TB> = {},
): SelectQueryBuilder<DB, TB, O> {
  if (dialect !== 'postgres') return query;
  const mode = options.mode ?? 'update';
  const of = options.of;
  const locked = mode === 'share' ? query.forShare(of) : mode === 'no-key-update' ? query.forNoKeyUpdate(of) : query.forUpdate(of);
  return options.skipLocked ? locked.skipLocked() : locked;
}
