import { createHash } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Context } from '../context.ts';
import { preparedQuery } from '../db/prepared.ts';
import type { DB } from '../db/types.ts';

/** What a content object holds: a page body (Markdown), a page node or a revision root (JSON). */
export type ObjectKind = 'body' | 'page' | 'root';

/** The address of an object: SHA-256 over its kind and data, so equal content is stored once. */
export function objectHash(kind: ObjectKind, data: string): string {
  return createHash('sha256').update(kind).update('\0').update(data).digest('hex');
}

type Store = Pick<Context, 'db'>;

/** Stores objects that are not stored yet; returns their hashes in order. Objects are never changed. */
export async function putObjects(ctx: Store, objects: Array<{ kind: ObjectKind; data: string }>): Promise<string[]> {
  const rows = objects.map((o) => ({ hash: objectHash(o.kind, o.data), kind: o.kind, data: o.data }));
  const unique = [...new Map(rows.map((row) => [row.hash, row])).values()];
  // Both databases accept ON CONFLICT DO NOTHING; chunks keep the statement under every parameter limit.
  for (let i = 0; i < unique.length; i += 300) {
    await ctx.db.insertInto('content_objects').values(unique.slice(i, i + 300)).onConflict((oc) => oc.column('hash').doNothing()).execute();
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
