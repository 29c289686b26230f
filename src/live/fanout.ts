import type { Socket } from 'node:net';
import type { Document } from '@hocuspocus/server';
import type WebSocket from 'ws';
import { encodeAwarenessUpdate } from 'y-protocols/awareness';

/**
 * The live server's fan-out, made cheap for a page many people are in (decision 0118). With 50 people typing,
 * every update is sent to 50 sockets: Hocuspocus encoded the message once per recipient, encoded presence
 * (awareness) once per recipient and per change, and wrote each message with its own system call. Here an
 * update is encoded once and the same bytes go to every connection; presence changes are gathered for the
 * rest of the event-loop turn and sent as one message to everyone; and the writes of one turn to a socket
 * leave in one system call (the socket is corked on its first write of the turn and uncorked after the
 * turn's I/O). What is sent, to whom and in what order is unchanged.
 */

/** Hocuspocus's message types (the outer envelope of its protocol), and y-protocols' sync update. */
const MESSAGE_SYNC = 0;
const MESSAGE_AWARENESS = 1;
const SYNC_UPDATE = 2;

function varUint(value: number): number[] {
  const bytes: number[] = [];
  while (value > 0x7f) {
    bytes.push(0x80 | (value & 0x7f));
    value = Math.floor(value / 128);
  }
  bytes.push(value);
  return bytes;
}

/** One Hocuspocus message: the document's name, the type, the sync type when there is one, then the payload with its length. */
export function envelope(documentName: string, types: number[], payload: Uint8Array): Uint8Array {
  const name = Buffer.from(documentName, 'utf8');
  const head = [...varUint(name.byteLength)];
  const tail = [...types.flatMap(varUint), ...varUint(payload.byteLength)];
  const message = new Uint8Array(head.length + name.byteLength + tail.length + payload.byteLength);
  message.set(head, 0);
  message.set(name, head.length);
  message.set(tail, head.length + name.byteLength);
  message.set(payload, head.length + name.byteLength + tail.length);
  return message;
}

/** Corks a socket on its first write of an event-loop turn and uncorks every one after the turn's I/O. */
export class WriteCoalescer {
  private readonly corked = new Set<Socket>();
  private scheduled = false;

  hold(ws: WebSocket): void {
    const socket = (ws as unknown as { _socket?: Socket })._socket;
    if (!socket || socket.destroyed || this.corked.has(socket)) return;
    socket.cork();
    this.corked.add(socket);
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(this.flush);
    }
  }

  readonly flush = (): void => {
    this.scheduled = false;
    const sockets = [...this.corked];
    this.corked.clear();
    for (const socket of sockets) if (socket.writableCorked > 0) socket.uncork();
  };
}

type Listener = (...args: never[]) => void;
interface Observable {
  _observers: Map<string, Set<Listener>>;
}

interface AwarenessChange {
  added: number[];
  updated: number[];
  removed: number[];
}

/** The listener Hocuspocus's Document registered for `event` on `target` (a bound method called `method`). */
function ownListener(target: unknown, event: string, method: string): Listener | undefined {
  const observers = (target as Observable)._observers?.get(event);
  return observers ? [...observers].find((listener) => listener.name === `bound ${method}`) : undefined;
}

/**
 * Replaces the document's own broadcast of updates and presence with the cheaper one above. Answers false
 * (and changes nothing) when this Hocuspocus's Document is not the one this was written against.
 */
export function takeOverFanOut(document: Document): boolean {
  const update = ownListener(document, 'update', 'handleUpdate');
  const awareness = ownListener(document.awareness, 'update', 'handleAwarenessUpdate');
  if (!update || !awareness || typeof document.callbacks?.onUpdate !== 'function' || !(document.connections instanceof Map)) return false;
  document.off('update', update as never);
  document.awareness.off('update', awareness as never);

  document.on('update', (bytes: Uint8Array, origin: unknown) => {
    // What Hocuspocus does first: its onChange hooks and the debounced store (origin: the connection, or an extension's).
    document.callbacks.onUpdate(document, origin as never, bytes);
    const message = envelope(document.name, [MESSAGE_SYNC, SYNC_UPDATE], bytes);
    for (const { connection } of document.connections.values()) connection.send(message);
  });

  const changed = new Set<number>();
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (document.isDestroyed || changed.size === 0) return changed.clear();
    const clients = [...changed];
    changed.clear();
    const message = envelope(document.name, [MESSAGE_AWARENESS], encodeAwarenessUpdate(document.awareness, clients));
    for (const { connection } of document.connections.values()) connection.send(message);
  };
  document.awareness.on('update', ({ added, updated, removed }: AwarenessChange, origin: unknown) => {
    // Which Yjs clients a socket carries, kept at once (closing a connection removes its clients' presence).
    const entry = origin != null ? document.connections.get(origin as WebSocket) : undefined;
    if (entry) {
      for (const id of added) entry.clients.add(id);
      for (const id of removed) entry.clients.delete(id);
    }
    for (const id of added) changed.add(id);
    for (const id of updated) changed.add(id);
    for (const id of removed) changed.add(id);
    if (!scheduled) {
      scheduled = true;
      setImmediate(flush);
    }
  });
  return true;
}
