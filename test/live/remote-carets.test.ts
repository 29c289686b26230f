import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import * as Y from 'yjs';
import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate, removeAwarenessStates } from 'y-protocols/awareness';
import { awarenessForCarets } from '../../web/src/live/remote-carets.ts';

/**
 * The awareness the caret plugin listens to (web/src/live/remote-carets.ts): this person's own caret moves
 * reach it only when someone else's caret is drawn, so typing alone costs one editor transaction a key.
 */
describe('the awareness the caret plugin listens to', () => {
  const made: Awareness[] = [];
  // An awareness keeps a timer (its states' renewal) until destroyed.
  afterEach(() => made.splice(0).forEach((awareness) => awareness.destroy()));

  function people(): { mine: Awareness; theirs: Awareness; share: () => void } {
    const mine = new Awareness(new Y.Doc());
    const theirs = new Awareness(new Y.Doc());
    made.push(mine, theirs);
    const share = () => applyAwarenessUpdate(mine, encodeAwarenessUpdate(theirs, [theirs.clientID]), 'remote');
    return { mine, theirs, share };
  }

  it('passes on no move of one\'s own caret while nobody else has a caret, and every other change', () => {
    const { mine, theirs, share } = people();
    const heard: unknown[] = [];
    const listener = (changes: unknown) => heard.push(changes);
    const carets = awarenessForCarets(mine);
    carets.on('change', listener);

    mine.setLocalStateField('cursor', { anchor: 1, head: 1 });
    mine.setLocalStateField('cursor', { anchor: 2, head: 2 });
    assert.equal(heard.length, 0);

    // Someone else arrives without a caret, then places it: both can change what is drawn.
    theirs.setLocalStateField('user', { name: 'Ada' });
    share();
    assert.equal(heard.length, 1);
    theirs.setLocalStateField('cursor', { anchor: 5, head: 5 });
    share();
    assert.equal(heard.length, 2);

    // While their caret is drawn, one's own moves are passed on as before.
    mine.setLocalStateField('cursor', { anchor: 3, head: 3 });
    assert.equal(heard.length, 3);

    // They leave: passed on; alone again, one's own moves are not.
    removeAwarenessStates(mine, [theirs.clientID], 'remote');
    assert.equal(heard.length, 4);
    mine.setLocalStateField('cursor', { anchor: 4, head: 4 });
    assert.equal(heard.length, 4);

    // Removed by the same function it was added with; the awareness itself is the same object underneath.
    carets.off('change', listener);
    theirs.setLocalStateField('cursor', { anchor: 6, head: 6 });
    share();
    assert.equal(heard.length, 4);
    assert.equal(carets.clientID, mine.clientID);
    carets.setLocalStateField('cursor', null);
    assert.equal(mine.getLocalState()?.cursor, null);
  });

  it('leaves the other events and the awareness\'s own listeners alone', () => {
    const { mine } = people();
    let updates = 0;
    let changes = 0;
    const carets = awarenessForCarets(mine);
    carets.on('update', () => updates++);
    mine.on('change', () => changes++);
    mine.setLocalStateField('cursor', { anchor: 1, head: 1 });
    assert.equal(updates, 1);
    assert.equal(changes, 1);
  });
});
