import * as Y from 'yjs';
import type { Context } from '../context.ts';
import { inTransaction, nowIso } from '../context.ts';
import type { LiveName } from './names.ts';

/**
 * The stored Yjs state of live documents: one compacted state per document plus the updates clients sent
 * since, each stored before the server acknowledges it (so a process killed at any moment has lost no
 * acknowledged keystroke). Compaction merges the state with the updates it read and deletes exactly those,
 * so updates stored meanwhile by another process are kept.
 */

export const toBase64 = (bytes: Uint8Array): string => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('base64');
export const fromBase64 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'base64'));

export interface StoredLive {
  /** The document's state: the compacted state merged with every update stored since (merged when asked). */
  readonly state: Uint8Array;
  /** The compacted state, then every update stored since, in order: applied one by one to a document they give `state`. */
  parts: Uint8Array[];
  baseRevision: string;
  /** The user of the most recent stored update, if any is pending compaction. */
  lastEditor?: string;
  /** Bytes of the state and the pending updates. */
  size: number;
}

/** The stored document, or undefined when none was made yet. */
export async function loadLive(ctx: Context, name: LiveName): Promise<StoredLive | undefined> {
  const row = await ctx.db.selectFrom('live_documents').select(['state', 'base_revision']).where('name', '=', name.key).executeTakeFirst();
  if (!row) return undefined;
  const updates = await ctx.db.selectFrom('live_updates').select(['update', 'user_id']).where('document', '=', name.key).orderBy('created_at').orderBy('id').execute();
  const parts = [fromBase64(row.state), ...updates.map((u) => fromBase64(u.update))];
  let merged: Uint8Array | undefined;
  return {
    // Merging decodes and encodes every item: a caller that applies the parts to a document has no need of it.
    get state() {
      merged ??= parts.length === 1 ? parts[0] : Y.mergeUpdates(parts);
      return merged;
    },
    parts,
    baseRevision: row.base_revision,
    ...(updates.length ? { lastEditor: updates[updates.length - 1].user_id } : {}),
    size: parts.reduce((n, part) => n + part.byteLength, 0),
  };
}

/**
 * Makes the document's row with `state` unless another process made it first; answers the stored one either
 * way (two processes opening a new document at once must start from the same Yjs items, or the page's text
 * would appear twice).
 */
export async function createLive(ctx: Context, name: LiveName, state: Uint8Array, baseRevision: string): Promise<StoredLive> {
  const now = nowIso(ctx);
  await ctx.db
    .insertInto('live_documents')
    .values({ name: name.key, space_id: name.spaceId, change_request_id: name.changeRequestId, page_id: name.pageId, state: toBase64(state), base_revision: baseRevision, created_at: now, updated_at: now })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  const stored = await loadLive(ctx, name);
  if (!stored) throw new Error(`The live document ${name.key} was not stored.`);
  return stored;
}

/** Stores one update a client sent (before it is applied and acknowledged). */
export async function appendUpdate(ctx: Context, name: LiveName, update: Uint8Array, userId: string): Promise<void> {
  await ctx.db.insertInto('live_updates').values({ id: ctx.ids.next(), document: name.key, update: toBase64(update), user_id: userId, created_at: nowIso(ctx) }).execute();
}

/**
 * Folds the stored updates and `extra` (the server's own changes, such as an API edit merged in) into the
 * state, optionally moving the base revision; answers the compacted size.
 */
export async function compactLive(ctx: Context, name: LiveName, extra: Uint8Array | null, baseRevision?: string): Promise<number> {
  return inTransaction(ctx, async (tx) => {
    const row = await tx.db.selectFrom('live_documents').select(['state']).where('name', '=', name.key).executeTakeFirst();
    if (!row) return 0;
    const updates = await tx.db.selectFrom('live_updates').select(['id', 'update']).where('document', '=', name.key).execute();
    const parts = [fromBase64(row.state), ...updates.map((u) => fromBase64(u.update)), ...(extra ? [extra] : [])];
    // Merging re-encodes the items; applying to a document also drops what deletions made garbage.
    const doc = new Y.Doc();
    for (const part of parts) Y.applyUpdate(doc, part);
    const state = Y.encodeStateAsUpdate(doc);
    doc.destroy();
    await tx.db
      .updateTable('live_documents')
      .set({ state: toBase64(state), updated_at: nowIso(tx), ...(baseRevision ? { base_revision: baseRevision } : {}) })
      .where('name', '=', name.key)
      .execute();
    if (updates.length) await tx.db.deleteFrom('live_updates').where('id', 'in', updates.map((u) => u.id)).execute();
    return state.byteLength;
  });
}
