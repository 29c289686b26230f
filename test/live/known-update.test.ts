import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import * as Y from 'yjs';
import { isKnownUpdate, updateOfMessage } from '../../web/src/live/known-update.ts';
import { envelope } from '../../src/live/fanout.ts';

/**
 * The server's echo of a browser's own edit (web/src/live/known-update.ts): recognised as changing nothing, so the
 * provider does not apply it; anything that could change the document is never taken for one.
 */
describe('an update the document already holds', () => {
  function typed(doc: Y.Doc, at: number, text: string): Uint8Array {
    const updates: Uint8Array[] = [];
    const listener = (update: Uint8Array) => updates.push(update);
    doc.on('update', listener);
    ((doc.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText).insert(at, text);
    doc.off('update', listener);
    return Y.mergeUpdates(updates);
  }

  function page(): Y.Doc {
    const doc = new Y.Doc();
    const paragraph = new Y.XmlElement('paragraph');
    paragraph.insert(0, [new Y.XmlText('hello')]);
    doc.getXmlFragment('default').insert(0, [paragraph]);
    return doc;
  }

  it('reads the update out of the server\'s sync message, and nothing out of other messages', () => {
    const update = Y.encodeStateAsUpdate(page());
    const message = envelope('org/space/cr/page', [0, 2], update);
    assert.deepEqual(updateOfMessage(message), update);
    assert.deepEqual(updateOfMessage(message.buffer.slice(message.byteOffset, message.byteOffset + message.byteLength) as ArrayBuffer), update);
    // Sync step 2 (0, 1) and awareness (1) are applied as always.
    assert.equal(updateOfMessage(envelope('org/space/cr/page', [0, 1], update)), null);
    assert.equal(updateOfMessage(envelope('org/space/cr/page', [1], update)), null);
    assert.equal(updateOfMessage(new Uint8Array([5])), null);
  });

  it('knows the echo of its own edit, and not someone else\'s edit nor one it has only in part', () => {
    const mine = page();
    const theirs = new Y.Doc();
    Y.applyUpdate(theirs, Y.encodeStateAsUpdate(mine));
    const own = typed(mine, 5, ' world');
    assert.equal(isKnownUpdate(own, mine), true);
    assert.equal(isKnownUpdate(own, theirs), false);
    Y.applyUpdate(theirs, own);
    assert.equal(isKnownUpdate(own, theirs), true);
    // Two edits merged, the second not yet here.
    const more = typed(mine, 0, '> ');
    const merged = Y.mergeUpdates([own, more]);
    assert.equal(isKnownUpdate(merged, theirs), false);
    Y.applyUpdate(theirs, merged);
    assert.equal(isKnownUpdate(merged, theirs), true);
    assert.equal(theirs.getXmlFragment('default').toString(), mine.getXmlFragment('default').toString());
  });

  it('never skips an update that deletes, even one whose deletion is already done here', () => {
    const mine = page();
    const updates: Uint8Array[] = [];
    mine.on('update', (update: Uint8Array) => updates.push(update));
    ((mine.getXmlFragment('default').get(0) as Y.XmlElement).get(0) as Y.XmlText).delete(0, 2);
    assert.equal(updates.length, 1);
    assert.equal(isKnownUpdate(updates[0]!, mine), false);
  });

  it('never skips while the document waits for items an earlier update lacked', () => {
    const source = page();
    const doc = new Y.Doc();
    Y.applyUpdate(doc, Y.encodeStateAsUpdate(source));
    const first = typed(source, 5, '!');
    const second = typed(source, 6, '?');
    // `second` arrives before `first`: its items wait (pending) until the ones they follow arrive.
    Y.applyUpdate(doc, second);
    assert.notEqual(doc.store.pendingStructs, null);
    assert.equal(isKnownUpdate(second, doc), false);
    Y.applyUpdate(doc, first);
    assert.equal(doc.store.pendingStructs, null);
    assert.equal(isKnownUpdate(second, doc), true);
  });
});
