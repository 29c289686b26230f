import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Document, OutgoingMessage, type Connection } from '@hocuspocus/server';
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from 'y-protocols/awareness';
import * as Y from 'yjs';
import { envelope, takeOverFanOut } from '../../src/live/fanout.ts';

/**
 * The live server's own fan-out (src/live/fanout.ts) sends what Hocuspocus's would: the same bytes for an
 * update and for presence, to every connection of the document, and it takes over this Hocuspocus's
 * Document (an upgrade that renamed its broadcast would otherwise silently keep the costly one).
 */

/** A connection that records what it is sent. */
function fakeConnection(document: Document, socket: object): { connection: Connection; sent: Uint8Array[] } {
  const sent: Uint8Array[] = [];
  const connection = { webSocket: socket, send: (message: Uint8Array) => sent.push(message) } as unknown as Connection;
  document.connections.set(socket as never, { clients: new Set(), connection });
  return { connection, sent };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe('live fan-out', () => {
  it('encodes an update and a presence change as Hocuspocus does', () => {
    const update = new Uint8Array(300).map((_, i) => i % 251);
    const name = 'org/space/cr/päge';
    assert.deepEqual(envelope(name, [0, 2], update), new OutgoingMessage(name).createSyncMessage().writeUpdate(update).toUint8Array());
    const doc = new Document(name);
    doc.awareness.setLocalState({ user: { name: 'Ada' } });
    const presence = new OutgoingMessage(name).createAwarenessUpdateMessage(doc.awareness, [doc.clientID]).toUint8Array();
    assert.deepEqual(envelope(name, [1], encodeAwarenessUpdate(doc.awareness, [doc.clientID])), presence);
    doc.destroy();
  });

  it('sends each update once to every connection, the same bytes, after the change hooks', async () => {
    const document = new Document('org/space/cr/page');
    const changes: Uint8Array[] = [];
    document.onUpdate((_document, _connection, update) => changes.push(update));
    assert.equal(takeOverFanOut(document), true);
    const a = fakeConnection(document, {});
    const b = fakeConnection(document, {});
    document.getText('t').insert(0, 'hello');
    assert.equal(changes.length, 1);
    assert.equal(a.sent.length, 1);
    assert.equal(b.sent.length, 1);
    assert.equal(a.sent[0], b.sent[0]);
    assert.deepEqual(a.sent[0], new OutgoingMessage(document.name).createSyncMessage().writeUpdate(changes[0]).toUint8Array());
    document.destroy();
  });

  it('gathers the presence changes of one turn into one message to everyone, keeping which clients a socket carries', async () => {
    const document = new Document('org/space/cr/page');
    assert.equal(takeOverFanOut(document), true);
    const socketA = {};
    const a = fakeConnection(document, socketA);
    const b = fakeConnection(document, {});
    const peers = [new Y.Doc(), new Y.Doc()].map((doc) => new Awareness(doc));
    peers.forEach((peer, i) => peer.setLocalState({ cursor: i }));
    for (const peer of peers) applyAwarenessUpdate(document.awareness, encodeAwarenessUpdate(peer, [peer.clientID]), socketA);
    assert.equal(a.sent.length, 0, 'presence waits for the end of the turn');
    assert.deepEqual([...document.connections.get(socketA as never)!.clients].sort(), peers.map((peer) => peer.clientID).sort());
    await turn();
    assert.equal(a.sent.length, 1);
    assert.equal(b.sent.length, 1);
    assert.deepEqual(a.sent[0], new OutgoingMessage(document.name).createAwarenessUpdateMessage(document.awareness, peers.map((peer) => peer.clientID)).toUint8Array());
    peers.forEach((peer) => peer.destroy());
    document.destroy();
  });
});
