import { sql, type Kysely } from 'kysely';
import type { DB } from './types.ts';

/**
 * Counters in fixed windows, in the `rate_limits` table, shared by every process on one database: the
 * request rate limit (src/operations/rate-limit.ts, on PostgreSQL) and the sign-in throttle
 * (src/sessions/throttle.ts). One upsert counts up, or starts a new window once the old one has ended.
 */
export async function countInWindow(db: Kysely<DB>, key: string, windowMs: number, nowMs: number): Promise<{ count: number; windowEnds: number }> {
  const ends = nowMs + windowMs;
  const result = await sql<{ count: number; window_ends: string }>`
    insert into rate_limits (key, count, window_ends) values (${key}, 1, ${ends})
    on conflict (key) do update set
      count = case when rate_limits.window_ends <= ${nowMs} then 1 else rate_limits.count + 1 end,
      window_ends = case when rate_limits.window_ends <= ${nowMs} then ${ends} else rate_limits.window_ends end
    returning count, window_ends`.execute(db);
  const row = result.rows[0];
  return { count: Number(row.count), windowEnds: Number(row.window_ends) };
}

/** The count of a key in its current window (0 when none is running). */
export async function currentCount(db: Kysely<DB>, key: string, nowMs: number): Promise<number> {
  const row = await db.selectFrom('rate_limits').select('count').where('key', '=', key).where('window_ends', '>', nowMs).executeTakeFirst();
  return row ? Number(row.count) : 0;
}

/** Forgets a key (a successful sign-in clears its account's failures). */
export async function resetCount(db: Kysely<DB>, key: string): Promise<void> {
  await db.deleteFrom('rate_limits').where('key', '=', key).execute();
}

/** Removes the rows of windows that ended before `beforeMs`. */
export async function sweepCounts(db: Kysely<DB>, beforeMs: number): Promise<void> {
  await db.deleteFrom('rate_limits').where('window_ends', '<', beforeMs).execute();
}
