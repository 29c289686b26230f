import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';

/** One y-protocols client of the live bench: a document, its provider and its socket. */
export interface Client {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
}

/** Connects to a live document and answers once it is in sync. */
export function connect(url: string, name: string, token: string): Promise<Client> {
  const doc = new Y.Doc();
  const socket = new HocuspocusProviderWebsocket({ url, WebSocketPolyfill: WebSocket });
  return new Promise((resolve) => {
    const provider = new HocuspocusProvider({ websocketProvider: socket, name, document: doc, token, onSynced: () => resolve({ doc, provider, socket }) });
    provider.attach();
  });
}

export function close(client: Client): void {
  client.provider.destroy();
  client.socket.destroy();
}
