import * as Y from 'yjs';

/** The database's stores, as y-indexeddb made them: copies kept by earlier versions of Quire load the same way. */
const UPDATES = 'updates';
const CUSTOM = 'custom';

/** Rows past which the stored updates are replaced by the document's state in one row (y-indexeddb's figure). */
export const COMPACT_AFTER_ROWS = 500;

/**
 * Edits are gathered for GATHER_MS after the first one, then written once the browser is idle (within
 * IDLE_WITHIN_MS more on a page busy without a break): about one write for every few keys of typing, never
 * inside a key's task, and nothing left in memory for more than half a second. A page hidden, left or closed
 * writes what waits at once.
 */
export const GATHER_MS = 250;
export const IDLE_WITHIN_MS = 250;

function request<T>(req: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    req.onsuccess = () => resolve(req.result);
    req.onerror = () => reject(req.error);
  });
}

function done(transaction: IDBTransaction): Promise<void> {
  return new Promise((resolve, reject) => {
    transaction.oncomplete = () => resolve();
    transaction.onerror = () => reject(transaction.error);
    transaction.onabort = () => reject(transaction.error);
  });
}

function openDatabase(name: string): Promise<IDBDatabase> {
  const req = indexedDB.open(name);
  req.onupgradeneeded = () => {
    const db = req.result;
    if (!db.objectStoreNames.contains(UPDATES)) db.createObjectStore(UPDATES, { autoIncrement: true });
    if (!db.objectStoreNames.contains(CUSTOM)) db.createObjectStore(CUSTOM);
  };
  return request(req);
}

const whenIdle: (callback: () => void) => void =
  typeof requestIdleCallback === 'function' ? (callback) => requestIdleCallback(callback, { timeout: IDLE_WITHIN_MS }) : (callback) => setTimeout(callback, 0);

/** Runs `callback` once the browser is idle after GATHER_MS. */
const afterGathering = (callback: () => void): void => void setTimeout(() => whenIdle(callback), GATHER_MS);

/**
 * This browser's copy of a live document, in IndexedDB (database `name`, in y-indexeddb's format: an
 * auto-numbered store of Yjs updates): what a tab could not send survives its closing, and the page opened again
 * loads it first (then the provider sends it).
 *
 * y-indexeddb opened an IndexedDB transaction in every update, inside the key's own task. Here the updates
 * gather in memory and are written as one merged update after the frame, once the browser is idle (GATHER_MS,
 * IDLE_WITHIN_MS), in order, none dropped: each write takes every update gathered until then. `pagehide`
 * and a page turning hidden write at once, in the event itself (the browser finishes a transaction begun
 * there), and so do `flush` and `destroy`.
 *
 * Opening reads every stored row into the document, then, in the same transaction, stores the whole state as
 * one row and deletes the rows read (the state holds them): so do the writes past COMPACT_AFTER_ROWS. Another
 * tab's rows written meanwhile are read first, so nothing it stored is deleted unread.
 */
export class LocalCopy {
  private db: IDBDatabase | null = null;
  private readonly opened: Promise<IDBDatabase | null>;
  private pending: Uint8Array[] = [];
  private scheduled = false;
  private rows = 0;
  private compacting = false;
  private closed = false;
  /** Resolves once what the copy held is in the document (or it could not be opened). */
  readonly loaded: Promise<void>;

  constructor(
    readonly name: string,
    private readonly doc: Y.Doc,
  ) {
    doc.on('update', this.onUpdate);
    addEventListener('pagehide', this.flush);
    document.addEventListener('visibilitychange', this.onVisibility);
    this.opened = openDatabase(name).then(
      async (db) => {
        if (this.closed) {
          db.close();
          return null;
        }
        this.db = db;
        // A failed read leaves the document as the server gives it; later edits are still written.
        await this.compact().catch(() => undefined);
        return db;
      },
      () => {
        // No IndexedDB here (a private window may refuse it): the live document works on without a copy.
        this.stop();
        return null;
      },
    );
    this.loaded = this.opened.then(() => undefined);
  }

  private readonly onUpdate = (update: Uint8Array, origin: unknown): void => {
    if (origin === this) return;
    this.pending.push(update);
    if (this.scheduled || !this.db) return;
    this.scheduled = true;
    afterGathering(this.flush);
  };

  private readonly onVisibility = (): void => {
    if (document.visibilityState === 'hidden') this.flush();
  };

  /** Writes every update gathered so far, as one, in a transaction begun now. */
  readonly flush = (): void => {
    this.scheduled = false;
    const db = this.db;
    // Also while a compaction runs: a transaction begun now runs after it, and its row is numbered after the
    // rows the compaction deletes.
    if (!db || !this.pending.length) return;
    const merged = this.pending.length === 1 ? this.pending[0]! : Y.mergeUpdates(this.pending);
    this.pending = [];
    const transaction = db.transaction(UPDATES, 'readwrite');
    transaction.objectStore(UPDATES).add(merged);
    // Committed now, not once the page has had a turn to add more: a closing tab gets no such turn.
    transaction.commit?.();
    if (++this.rows >= COMPACT_AFTER_ROWS) this.compact().catch(() => undefined);
  };

  /**
   * Reads every stored row into the document, stores the document's state as one row and deletes the rows
   * read, in one transaction. What was gathered meanwhile is in that state: it is not written again.
   */
  private async compact(): Promise<void> {
    const db = this.db;
    if (!db || this.compacting) return;
    this.compacting = true;
    try {
      const transaction = db.transaction(UPDATES, 'readwrite');
      const store = transaction.objectStore(UPDATES);
      const [keys, stored] = await Promise.all([request(store.getAllKeys()), request(store.getAll())]);
      Y.transact(this.doc, () => {
        for (const update of stored as Uint8Array[]) Y.applyUpdate(this.doc, update);
      }, this, false);
      this.pending = [];
      store.add(Y.encodeStateAsUpdate(this.doc));
      if (keys.length) store.delete(IDBKeyRange.upperBound(keys[keys.length - 1]!));
      this.rows = 1;
      await done(transaction);
    } finally {
      this.compacting = false;
    }
    // Edits made before the database opened were in the state; the ones made since wait for the next write.
    if (this.pending.length && !this.scheduled) {
      this.scheduled = true;
      afterGathering(this.flush);
    }
  }

  private stop(): void {
    this.closed = true;
    this.pending = [];
    this.doc.off('update', this.onUpdate);
    removeEventListener('pagehide', this.flush);
    document.removeEventListener('visibilitychange', this.onVisibility);
  }

  /** Writes what waits, then closes the database (its transactions finish first). */
  async destroy(): Promise<void> {
    this.flush();
    this.stop();
    const db = await this.opened;
    db?.close();
  }

  /** Closes the copy and deletes its database: everything in it reached the server. */
  async clearData(): Promise<void> {
    await this.destroy();
    await new Promise<void>((resolve) => {
      const req = indexedDB.deleteDatabase(this.name);
      req.onsuccess = req.onerror = req.onblocked = () => resolve();
    });
  }
}
