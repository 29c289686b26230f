import { HocuspocusProvider, HocuspocusProviderWebsocket } from '@hocuspocus/provider';
import WebSocket from 'ws';
import * as Y from 'yjs';

/**
 * Live clients in Node, as a browser's editor is one: a Hocuspocus provider on a Yjs document, whose text
 * is edited in the fragment the editor binds ("default"), paragraph by paragraph.
 */
export interface LiveClient {
  doc: Y.Doc;
  provider: HocuspocusProvider;
  socket: HocuspocusProviderWebsocket;
  closes: string[];
  denied: string[];
  /** The text of each paragraph (top-level element). */
  paragraphs(): string[];
  /** Inserts `text` at `index` of paragraph `n`. */
  type(n: number, index: number, text: string): void;
  destroy(): void;
}

export function liveClient(options: { url: string; name: string; token?: string; headers?: Record<string, string> }): LiveClient {
  const doc = new Y.Doc();
  const closes: string[] = [];
  const denied: string[] = [];
  // The cookie and Origin a browser sends with the upgrade, for session-authenticated clients.
  // A socket closed while it connects (a client destroyed while its server is down) reports an error event:
  // that is the client going away, not a failure.
  const Socket = class extends WebSocket {
    constructor(address: string, protocols?: string | string[]) {
      super(address, protocols, options.headers ? { headers: options.headers } : {});
      this.on('error', () => undefined);
    }
  };
  const socket = new HocuspocusProviderWebsocket({ url: options.url, WebSocketPolyfill: Socket, delay: 100, factor: 1.5, maxDelay: 1000, minDelay: 50 });
  const provider = new HocuspocusProvider({
    websocketProvider: socket,
    name: options.name,
    document: doc,
    token: options.token ?? '',
    onClose: ({ event }) => closes.push(event.reason),
    onAuthenticationFailed: ({ reason }) => denied.push(reason),
  });
  provider.attach();
  const fragment = doc.getXmlFragment('default');
  return {
    doc,
    provider,
    socket,
    closes,
    denied,
    paragraphs: () => fragment.toArray().map((node) => (node instanceof Y.XmlElement ? node.toArray().map((child) => (child instanceof Y.XmlText ? child.toString() : '')).join('') : '')),
    type(n, index, text) {
      const paragraph = fragment.get(n) as Y.XmlElement;
      let textNode = paragraph.get(0) as Y.XmlText | undefined;
      if (!textNode) {
        textNode = new Y.XmlText();
        paragraph.insert(0, [textNode]);
      }
      textNode.insert(index, text);
    },
    destroy() {
      provider.destroy();
      socket.destroy();
    },
  };
}

export { until } from '../helpers/until.ts';
