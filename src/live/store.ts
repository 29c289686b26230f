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
  /** The compacted state, then every update stored since, in order: applied one by one, the document's state. */
  parts: Uint8Array[];
  baseRevision: string;
  /** The user of the most recent stored update, if any is pending compaction. */
  lastEditor?: string;
  /** Bytes of the state and the pending updates. */
  size: number;
  /** The stored state as stored (`parts[0]`, base64): what a writer compares with the state it knows it holds. */
  stateText: string;
  /** The ids of the pending updates (`parts[1…]`), in order. */
  updateIds: string[];
}

/** What a compaction folded: the stored state it started from and the updates it deleted, and what it stored. */
export interface Folded {
  over: { state: string; updateIds: string[] };
  /** The state stored (base64). */
  state: string;
}

/** The stored document, or undefined when none was made yet. */
export async function loadLive(ctx: Context, name: LiveName): Promise<StoredLive | undefined> {
  const row = await ctx.db.selectFrom('live_documents').select(['state', 'base_revision']).where('name', '=', name.key).executeTakeFirst();
  if (!row) return undefined;
  const updates = await ctx.db.selectFrom('live_updates').select(['id', 'update', 'user_id']).where('document', '=', name.key).orderBy('created_at').orderBy('id').execute();
  const parts = [fromBase64(row.state), ...updates.map((u) => fromBase64(u.update))];
  return {
    parts,
    baseRevision: row.base_revision,
    ...(updates.length ? { lastEditor: updates[updates.length - 1].user_id } : {}),
    size: parts.reduce((n, part) => n + part.byteLength, 0),
    stateText: row.state,
    updateIds: updates.map((u) => u.id),
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

/** An update a client sent, to be stored before it is applied and acknowledged. */
export interface UpdateToStore {
  name: LiveName;
  update: Uint8Array;
  userId: string;
}

/**
 * Rows per insert statement: a batch is cut greedily into these sizes, so the statements' SQL texts are few
 * (SQLite's prepared statements are cached by text) and none nears a database's limit of parameters.
 */
const CHUNKS = [128, 32, 8, 1];

/**
 * Stores updates clients sent (before they are applied and acknowledged), in their order: all of them or,
 * on an error, none (one transaction when more than one statement is needed; one statement is atomic).
 */
export async function appendUpdates(ctx: Context, updates: UpdateToStore[]): Promise<void> {
  const now = nowIso(ctx);
  const rows = updates.map(({ name, update, userId }) => ({ id: ctx.ids.next(), document: name.key, update: toBase64(update), user_id: userId, created_at: now }));
  const statements: (typeof rows)[] = [];
  for (let at = 0; at < rows.length; ) {
    const size = CHUNKS.find((chunk) => chunk <= rows.length - at)!;
    statements.push(rows.slice(at, at + size));
    at += size;
  }
  if (statements.length === 1) {
    await ctx.db.insertInto('live_updates').values(statements[0]).execute();
    return;
  }
  await inTransaction(ctx, async (tx) => {
    for (const values of statements) await tx.db.insertInto('live_updates').values(values).execute();
  });
}

/**
 * Updates merged or applied per step of the work below, between which the event loop serves the live
 * connections: 30 s of 50 people typing is ~7,000 stored updates, and merging or applying them at once held
 * the server's loop for seconds (decision 0118), every keystroke of the page waiting behind it.
 */
const STEP = 500;

const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Applies `parts` to `doc` in order, a step at a time (the server opening a document, the writer catching up
 * with what other processes stored): the same document as applying them at once.
 */
export async function applyInSteps(doc: Y.Doc, parts: Uint8Array[], origin?: unknown): Promise<void> {
  for (let at = 0; at < parts.length; at++) {
    Y.applyUpdate(doc, parts[at], origin);
    if ((at + 1) % STEP === 0 && at + 1 < parts.length) await nextTurn();
  }
}

interface StoredParts {
  /** The stored state as stored (base64): a compaction commits only over the state it read. */
  state: string;
  updates: Array<{ id: string; update: string }>;
}

async function readParts(ctx: Context, name: LiveName): Promise<StoredParts | undefined> {
  const row = await ctx.db.selectFrom('live_documents').select(['state']).where('name', '=', name.key).executeTakeFirst();
  if (!row) return undefined;
  const updates = await ctx.db.selectFrom('live_updates').select(['id', 'update']).where('document', '=', name.key).execute();
  return { state: row.state, updates };
}

/**
 * The compacted state: the parts applied to a new document (merging re-encodes the items; applying also
 * drops what deletions made garbage), a step at a time when `stepwise`.
 */
async function compacted(parts: StoredParts, extra: Uint8Array | null, stepwise: boolean): Promise<Uint8Array> {
  const all = [fromBase64(parts.state), ...parts.updates.map((u) => fromBase64(u.update)), ...(extra ? [extra] : [])];
  const doc = new Y.Doc();
  for (let at = 0; at < all.length; at += STEP) {
    doc.transact(() => {
      for (const part of all.slice(at, at + STEP)) Y.applyUpdate(doc, part);
    });
    if (stepwise && at + STEP < all.length) await nextTurn();
  }
  const state = Y.encodeStateAsUpdate(doc);
  doc.destroy();
  return state;
}

/**
 * Stores `state` over the stored state `over` and deletes the updates folded into it, in one transaction;
 * false (nothing changed) when the stored state is no longer `over` (another compaction committed first).
 */
async function commitCompaction(ctx: Context, name: LiveName, over: StoredParts, state: Uint8Array, baseRevision: string | undefined): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const result = await tx.db
      .updateTable('live_documents')
      .set({ state: toBase64(state), updated_at: nowIso(tx), ...(baseRevision ? { base_revision: baseRevision } : {}) })
      .where('name', '=', name.key)
      .where('state', '=', over.state)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    if (over.updates.length) await tx.db.deleteFrom('live_updates').where('id', 'in', over.updates.map((u) => u.id)).execute();
    return true;
  });
}

/**
 * Folds the stored updates and `extra` (the server's own changes, such as an API edit merged in) into the
 * state, optionally moving the base revision; answers the compacted size. The folding is done outside any
 * transaction, a step at a time, and committed only over the state it started from (updates stored
 * meanwhile are not among those deleted, so they are kept); should another compaction have committed
 * first, it is done again inside one transaction.
 */
export async function compactLive(ctx: Context, name: LiveName, extra: Uint8Array | null, baseRevision?: string, folded?: (what: Folded) => void): Promise<number> {
  const parts = await readParts(ctx, name);
  if (!parts) return 0;
  const tell = (over: StoredParts, state: Uint8Array) => folded?.({ over: { state: over.state, updateIds: over.updates.map((u) => u.id) }, state: toBase64(state) });
  const state = await compacted(parts, extra, true);
  if (await commitCompaction(ctx, name, parts, state, baseRevision)) {
    tell(parts, state);
    return state.byteLength;
  }
  return inTransaction(ctx, async (tx) => {
    const again = await readParts(tx, name);
    if (!again) return 0;
    const state = await compacted(again, extra, false);
    await commitCompaction(tx, name, again, state, baseRevision);
    tell(again, state);
    return state.byteLength;
  });
}
