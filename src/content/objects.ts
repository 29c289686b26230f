import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Context } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { DB } from '../db/types.ts';
import { pauseForEventLoop } from '../workers/pool.ts';

/** What a content object holds: a page body (Markdown), a page node or a revision root (JSON). */
export type ObjectKind = 'body' | 'page' | 'root';

/** The address of an object: SHA-256 over its kind and data, so equal content is stored once. */
export function objectHash(kind: ObjectKind, data: string): string {
  return createHash('sha256').update(kind).update('\0').update(data).digest('hex');
}

type Store = Pick<Context, 'db'> & Partial<Pick<Context, 'clock'>>;

/**
 * How stale an object's `touched_at` must be before a reuse writes it again: reusing an object touched less
 * than this long ago costs no write. The garbage collector's grace period is at least three times this
 * (src/content/gc.ts), so a reused object is always younger than the grace.
 */
export const TOUCH_RESOLUTION_MS = 5 * 60_000;

/**
 * Stores objects that are not stored yet; returns their hashes in order. An object's content never changes;
 * an object already stored is touched (`touched_at`, when older than TOUCH_RESOLUTION_MS), so the garbage
 * collector, which removes only objects untouched for its grace period, cannot remove an object a write is
 * reusing (src/content/gc.ts). The touch comes first: on PostgreSQL an update of a row the collector is
 * deleting waits for it (and then the insert stores the object again), and a collector's delete of a row this
 * touch updated waits for the writer and then sees the new time; SQLite runs one write at a time. Only stale
 * rows are updated, so reusing a hot object (the empty root of every new space) takes no row lock.
 */
export async function putObjects(ctx: Store, objects: Array<{ kind: ObjectKind; data: string }>): Promise<string[]> {
  const now = ctx.clock?.now() ?? new Date();
  const touchedAt = now.toISOString();
  const stale = new Date(now.getTime() - TOUCH_RESOLUTION_MS).toISOString();
  const rows = objects.map((o) => ({ hash: objectHash(o.kind, o.data), kind: o.kind, data: o.data, touched_at: touchedAt }));
  const unique = [...new Map(rows.map((row) => [row.hash, row])).values()].sort((a, b) => (a.hash < b.hash ? -1 : a.hash > b.hash ? 1 : 0));
  // Chunks keep each statement under every parameter limit; sorted, so concurrent writers lock in one order.
  for (let i = 0; i < unique.length; i += 300) {
    const chunk = unique.slice(i, i + 300);
    await ctx.db
      .updateTable('content_objects')
      .set({ touched_at: touchedAt })
      .where('hash', 'in', chunk.map((row) => row.hash))
      .where((eb) => eb.or([eb('touched_at', 'is', null), eb('touched_at', '<', stale)]))
      .execute();
    await ctx.db.insertInto('content_objects').values(chunk).onConflict((oc) => oc.column('hash').doNothing()).execute();
  }
  return rows.map((row) => row.hash);
}

export async function putObject(ctx: Store, kind: ObjectKind, data: string): Promise<string> {
  const [hash] = await putObjects(ctx, [{ kind, data }]);
  return hash;
}

/** Reads objects by hash; a missing hash is an error (objects are never deleted while referenced). */
export async function getObjects(ctx: Store, hashes: string[]): Promise<Map<string, string>> {
  const wanted = [...new Set(hashes)];
  const found = new Map<string, string>();
  for (let i = 0; i < wanted.length; i += 500) {
    // On SQLite a query answers without a turn of the event loop: tens of thousands of objects (the pages
    // of a large tree) are read with a pause between chunks, so that requests keep being answered.
    if (i > 0) await pauseForEventLoop();
    const rows = await ctx.db.selectFrom('content_objects').select(['hash', 'data']).where('hash', 'in', wanted.slice(i, i + 500)).execute();
    for (const row of rows) found.set(row.hash, row.data);
  }
  const missing = wanted.filter((hash) => !found.has(hash));
  if (missing.length > 0) throw new Error(`Content objects missing from the store: ${missing.slice(0, 3).join(', ')}`);
  return found;
}

const objectByHash = preparedQuery((db: Kysely<DB>, hash: string) => db.selectFrom('content_objects').select('data').where('hash', '=', hash));

/** Reads one object (one prepared query); a missing hash is an error, as for getObjects. */
export async function getObject(ctx: Pick<Context, 'db' | 'dialect'>, hash: string): Promise<string> {
  const [row] = await objectByHash(ctx, hash);
  if (!row) throw new Error(`Content object missing from the store: ${hash}`);
  return row.data;
}
