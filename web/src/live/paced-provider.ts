import { HocuspocusProvider } from '@hocuspocus/provider';
import * as Y from 'yjs';
import { isKnownUpdate, updateOfMessage } from './known-update.ts';

/** How long edits gather before they go out as one message, and how often a caret's move is sent. */
export const UPDATE_PACE_MS = 50;
export const AWARENESS_PACE_MS = 100;

/**
 * The Hocuspocus provider, sending at a human pace: the edits made within 50 ms go out as one merged Yjs
 * update, and carets at most ten times a second. Typing as fast as a keyboard repeats (or a script types)
 * would otherwise send two messages a keystroke and meet the server's limit of messages a second
 * (`QUIRE_LIVE_MAX_UPDATES_PER_SECOND`), which closes the socket. Nothing waits longer than 50 ms, and
 * what has not gone out counts as unsynced, so the live document's `unsynced` (and "sending…", once edits wait
 * over a second) sees it.
 */
export class PacedProvider extends HocuspocusProvider {
  // Declared, not initialised: the base constructor may call the handlers before a subclass's fields exist.
  private declare pending: Uint8Array[] | undefined;
  private declare updateTimer: ReturnType<typeof setTimeout> | null | undefined;
  private declare awarenessClients: Set<number> | undefined;
  private declare awarenessTimer: ReturnType<typeof setTimeout> | null | undefined;

  /** Called before a message from the server is applied (the editor reads the selection on screen first). */
  declare beforeRemote: (() => void) | undefined;

  override onMessage(event: Parameters<HocuspocusProvider['onMessage']>[0]): void {
    // The server's echo of this browser's own edit (it sends each edit to every connection) changes nothing
    // here: applying it would still open a Yjs transaction, and the editor binding converts the selection to
    // relative positions at the start of every one (two walks of the page a message). Nothing else in such a
    // message is read: an update message has no reply, and acknowledgements come as their own messages.
    const update = event.data instanceof ArrayBuffer || event.data instanceof Uint8Array ? updateOfMessage(event.data) : null;
    if (update && isKnownUpdate(update, this.document)) return;
    this.beforeRemote?.();
    super.onMessage(event);
  }

  override documentUpdateHandler(update: Uint8Array, origin: unknown): void {
    if (origin === this) return;
    (this.pending ??= []).push(update);
    this.updateTimer ??= setTimeout(() => this.flushUpdates(), UPDATE_PACE_MS);
  }

  override awarenessUpdateHandler(changes: { added: number[]; updated: number[]; removed: number[] }, origin: unknown): void {
    const clients = (this.awarenessClients ??= new Set());
    for (const id of [...changes.added, ...changes.updated, ...changes.removed]) clients.add(id);
    // Leaving (a removed state) goes out at once: the socket may close right after.
    if (changes.removed.length) return this.flushAwareness(origin);
    this.awarenessTimer ??= setTimeout(() => this.flushAwareness(origin), AWARENESS_PACE_MS);
  }

  /** Whether edits wait to go out, or went out and the server has not acknowledged them. */
  override get hasUnsyncedChanges(): boolean {
    return (this.pending?.length ?? 0) > 0 || super.hasUnsyncedChanges;
  }

  /** Sends the gathered edits now, as one update. */
  flushUpdates(): void {
    if (this.updateTimer) clearTimeout(this.updateTimer);
    this.updateTimer = null;
    const pending = this.pending ?? [];
    if (!pending.length) return;
    const merged = pending.length === 1 ? pending[0]! : Y.mergeUpdates(pending);
    this.pending = [];
    super.documentUpdateHandler(merged, null);
  }

  private flushAwareness(origin: unknown): void {
    if (this.awarenessTimer) clearTimeout(this.awarenessTimer);
    this.awarenessTimer = null;
    const clients = [...(this.awarenessClients ?? [])];
    this.awarenessClients?.clear();
    if (clients.length) super.awarenessUpdateHandler({ added: [], updated: clients, removed: [] }, origin);
  }

  override destroy(): void {
    this.flushUpdates();
    this.flushAwareness(null);
    super.destroy();
  }
}
