import { HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import { LocalCopy } from './local-copy.ts';
import { MODEL_PARAMETER } from './model-version.ts';
import { PacedProvider } from './paced-provider.ts';
import * as Y from 'yjs';

/** Someone in the page, as their awareness state says. */
export interface Person {
  clientId: number;
  id: string;
  name: string;
  photoURL?: string;
  colour: number;
  self: boolean;
}

export type LiveState = 'connecting' | 'live' | 'offline';

/**
 * How long edits stay unsent before the status line says "sending…". Typing sends and has acknowledged each
 * edit within a few tenths of a second: a line that flipped at every key would lay the page out again above the
 * editor and have its status region announce at every key. Edits held longer than this are shown.
 */
export const SENDING_SHOWN_AFTER_MS = 1_000;

/** The reason the server gives when a person's access to an open page changed (src/live/server.ts's recheck). */
const RECONNECT_REASON = 'permissions changed: reconnect';

/** The number of caret colours (live.css has a class for each). */
export const COLOURS = 8;

/** A person's colour, the same in every browser: from their id. */
export function colourOf(id: string): number {
  let hash = 0;
  for (const char of id) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return hash % COLOURS;
}

/**
 * One page of a change request opened live: its Yjs document on Quire's /v1/live socket, signed in by the
 * session cookie the browser sends with the upgrade. While the socket is down the document keeps every
 * edit; on reconnect the provider sends what the server lacks and receives what it missed (Yjs merges both).
 * The document is also kept in this browser's IndexedDB (local-copy.ts, one database per document name, written
 * after the frame), so edits made offline survive a closed tab: the page opened again loads them and the
 * provider sends them.
 */
export class LiveDocument {
  readonly doc = new Y.Doc();
  readonly provider: PacedProvider;
  private readonly socket: HocuspocusProviderWebsocket;
  private readonly local: LocalCopy | null;
  state: LiveState = 'connecting';
  /** The person whose caret this view follows (their awareness client id), until this person types or scrolls. */
  following: number | null = null;
  readOnly = false;
  refusal: string | null = null;
  /** Edits made here have stayed unsent (or unacknowledged) for SENDING_SHOWN_AFTER_MS: "sending…" is shown. */
  sending = false;
  private sendingTimer: ReturnType<typeof setTimeout> | null = null;
  private listeners = new Set<() => void>();
  /** How far this browser's own edits reached the change request, by the server's last "written" message. */
  private writtenClock = 0;

  constructor(
    readonly name: string,
    user: { id: string; displayName: string; photoURL?: string },
    model?: string,
  ) {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    // The page's document model version (web/src/live/model-version.ts): a server of another version refuses.
    const query = model ? `?${MODEL_PARAMETER}=${encodeURIComponent(model)}` : '';
    this.socket = new HocuspocusProviderWebsocket({ url: `${scheme}://${location.host}/v1/live${query}`, delay: 500, minDelay: 250, factor: 1.5, maxDelay: 10_000 });
    this.provider = new PacedProvider({
      websocketProvider: this.socket,
      name,
      document: this.doc,
      token: '',
      onAuthenticated: ({ scope }) => {
        this.readOnly = scope === 'readonly';
        this.changed();
      },
      onAuthenticationFailed: ({ reason }) => {
        this.refusal = reason;
        this.changed();
      },
      onClose: ({ event }) => {
        // The socket still open: the server closed this page alone (Hocuspocus sends its reason in a message and
        // the provider reports it as code 1000, whatever code the server gave).
        if (this.socket.status === 'connected') return this.closedByServer(event.reason);
        if (event.reason && event.code !== 1000 && event.code !== 1006) this.refusal = event.reason;
        this.changed();
      },
      onStatus: ({ status }) => {
        this.state = status === 'connected' ? 'live' : status === 'connecting' ? 'connecting' : 'offline';
        this.changed();
      },
      onSynced: () => this.changed(),
      // The server's acknowledgements: "sending…" ends when the last one arrives, not at the next event, and
      // starts when edits stay unacknowledged (watchSending).
      onUnsyncedChanges: () => this.changed(),
      onAwarenessChange: () => this.changed(),
      onStateless: ({ payload }) => {
        const message = JSON.parse(payload) as { type?: string; stateVector?: string };
        if (message.type !== 'written' || !message.stateVector) return;
        const vector = Y.decodeStateVector(Uint8Array.from(atob(message.stateVector), (c) => c.charCodeAt(0)));
        this.writtenClock = Math.max(this.writtenClock, vector.get(this.doc.clientID) ?? 0);
        this.changed();
      },
    });
    // Before the socket: what an earlier tab kept here (edits it could not send) joins the document first.
    this.local = typeof indexedDB === 'undefined' ? null : new LocalCopy(`quire-live:${name}`, this.doc);
    // This browser's own edits change whether everything is saved.
    this.doc.on('update', (_update: Uint8Array, origin: unknown) => {
      if (origin !== this.provider) this.changed();
    });
    this.provider.attach();
    this.provider.setAwarenessField('user', { id: user.id, name: user.displayName, photoURL: user.photoURL, colour: colourOf(user.id) });
  }

  /**
   * The server closed this page's connection and kept the socket: the change request can no longer be written
   * (archived, merged, the page deleted, access taken away), said with the reason, or the person's access changed
   * ("permissions changed: reconnect", src/live/server.ts): the page is opened again on the same socket and the
   * server's answer says whether it is read-only now.
   */
  private closedByServer(reason: string): void {
    if (reason === RECONNECT_REASON) {
      // Authenticates the page again on the open socket (what the provider does when a socket opens); a
      // detach and attach would send a close of its own, which the server answers as one more close.
      void this.provider.onOpen(new Event('open') as unknown as Parameters<PacedProvider['onOpen']>[0]);
    } else {
      this.refusal = reason || 'the server closed this page.';
    }
    this.changed();
  }

  /** Whether edits made here have not reached the server yet (kept meanwhile). */
  get unsynced(): boolean {
    return this.provider.hasUnsyncedChanges;
  }

  /** Whether every edit made in this browser is in the change request (written as a revision). */
  get saved(): boolean {
    return (Y.decodeStateVector(Y.encodeStateVector(this.doc)).get(this.doc.clientID) ?? 0) <= this.writtenClock;
  }

  /** Everyone in the page, this browser first. */
  people(): Person[] {
    const awareness = this.provider.awareness;
    if (!awareness) return [];
    const people: Person[] = [];
    for (const [clientId, state] of awareness.getStates()) {
      const user = (state as { user?: { id: string; name: string; photoURL?: string; colour: number } }).user;
      if (!user) continue;
      people.push({ clientId, id: user.id, name: user.name, photoURL: user.photoURL, colour: user.colour, self: clientId === awareness.clientID });
    }
    return people.sort((a, b) => Number(b.self) - Number(a.self) || a.name.localeCompare(b.name));
  }

  /** Follows `clientId`'s caret (null: stops following). */
  follow(clientId: number | null): void {
    if (this.following === clientId) return;
    this.following = clientId;
    this.changed();
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  private changed(): void {
    this.watchSending();
    for (const listener of this.listeners) listener();
  }

  /**
   * `sending` turns true once edits have been unsynced without a break for SENDING_SHOWN_AFTER_MS, and false
   * as soon as everything is acknowledged. Every change of `unsynced` comes here: the provider tells of each
   * acknowledgement (onUnsyncedChanges), and of each change of the connection.
   */
  private watchSending(): void {
    // The provider's constructor may tell of its status before `provider` is set: nothing is unsent yet.
    if (!this.provider) return;
    if (!this.unsynced) {
      if (this.sendingTimer) clearTimeout(this.sendingTimer);
      this.sendingTimer = null;
      this.sending = false;
      return;
    }
    if (this.sending || this.sendingTimer) return;
    this.sendingTimer = setTimeout(() => {
      this.sendingTimer = null;
      if (!this.unsynced) return;
      this.sending = true;
      this.changed();
    }, SENDING_SHOWN_AFTER_MS);
  }

  destroy(): void {
    this.listeners.clear();
    if (this.sendingTimer) clearTimeout(this.sendingTimer);
    this.sendingTimer = null;
    const sent = !this.unsynced;
    this.provider.destroy();
    this.socket.destroy();
    // Left with everything acknowledged: the server has it all, the browser's copy is not needed. Left with
    // edits unsent (offline), the copy stays for the next opening. A closed tab runs none of this: its copy
    // stays and merges (Yjs ignores what the server already has).
    const local = this.local;
    if (local) void (sent ? local.clearData() : local.destroy()).catch(() => undefined);
    this.doc.destroy();
  }
}
