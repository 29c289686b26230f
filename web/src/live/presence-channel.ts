import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import * as Y from 'yjs';
import { colourOf, type Person } from './live-document.ts';

interface PresenceState {
  user?: { id: string; name: string; photoURL?: string; colour: number };
  pageId?: string | null;
}

/**
 * Who is on which page of a change request, for the avatars in its page tree: the change request's presence
 * channel on /v1/live (the document `organization/space/changeRequest`, with no content and read-only for
 * everyone, src/live/names.ts), where each browser's awareness says the page it has open. One light channel
 * per change request rather than every page's document: the tree shows all pages without opening each.
 */
export class ChangeRequestPresence {
  private readonly doc = new Y.Doc();
  private readonly socket: HocuspocusProviderWebsocket;
  private readonly provider: HocuspocusProvider;
  private readonly listeners = new Set<() => void>();
  private readonly treeListeners = new Set<() => void>();

  constructor(name: string, user: { id: string; displayName: string; photoURL?: string }) {
    const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
    this.socket = new HocuspocusProviderWebsocket({ url: `${scheme}://${location.host}/v1/live`, delay: 500, minDelay: 250, factor: 1.5, maxDelay: 10_000 });
    this.provider = new HocuspocusProvider({
      websocketProvider: this.socket,
      name,
      document: this.doc,
      token: '',
      onAwarenessChange: () => this.changed(),
      // The server's word that the change request's tree changed (a page added, deleted, renamed or moved by
      // anyone, through the API, Git Sync or another browser: src/live/trees.ts).
      onStateless: ({ payload }) => {
        let message: { type?: string };
        try {
          message = JSON.parse(payload) as { type?: string };
        } catch {
          return;
        }
        if (message.type === 'tree') this.treeChanged();
      },
      // Joined (decision 0140): from now on the server tells this channel of every change of the tree, but not of
      // one made before, since the tree on the screen was read (the screen reads it before the channel joins), nor
      // while the socket was down (joined again after a drop). The tree is read again once, after each join: a
      // change before it is in what is read, a change after it is told.
      onSynced: () => this.treeChanged(),
    });
    this.provider.attach();
    this.provider.setAwarenessField('user', { id: user.id, name: user.displayName, photoURL: user.photoURL, colour: colourOf(user.id) });
  }

  /** Says which page this browser has open (null: none). */
  setPage(pageId: string | null): void {
    this.provider.setAwarenessField('pageId', pageId);
  }

  /** The other people of the change request, by the page they have open. */
  byPage(): Map<string, Person[]> {
    const pages = new Map<string, Person[]>();
    const awareness = this.provider.awareness;
    if (!awareness) return pages;
    for (const [clientId, state] of awareness.getStates()) {
      const { user, pageId } = state as PresenceState;
      if (!user || !pageId || clientId === awareness.clientID) continue;
      const people = pages.get(pageId) ?? [];
      people.push({ clientId, id: user.id, name: user.name, photoURL: user.photoURL, colour: user.colour, self: false });
      pages.set(pageId, people);
    }
    for (const people of pages.values()) people.sort((a, b) => a.name.localeCompare(b.name));
    return pages;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Calls `listener` whenever the change request's tree may have changed (read it again). */
  onTreeChanged(listener: () => void): () => void {
    this.treeListeners.add(listener);
    return () => this.treeListeners.delete(listener);
  }

  private treeChanged(): void {
    for (const listener of this.treeListeners) listener();
  }

  private changed(): void {
    for (const listener of this.listeners) listener();
  }

  destroy(): void {
    this.listeners.clear();
    this.treeListeners.clear();
    this.provider.destroy();
    this.socket.destroy();
    this.doc.destroy();
  }
}
