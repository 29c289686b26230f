import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { alignBlocks } from '../../web/src/change-requests/align.ts';

const p = (text: string) => ({ type: 'paragraph', content: [{ type: 'text', text }] });

/** The workspace's rendered diffs pair the blocks of two versions of a page (web/src/change-requests/align.ts). */
describe('aligning the blocks of two versions of a page', () => {
  it('keeps common blocks in order and marks what went and came, the removed before what replaced it', () => {
    const aligned = alignBlocks([p('a'), p('b'), p('c')], [p('a'), p('B'), p('c'), p('d')]);
    assert.deepEqual(
      aligned.map((entry) => [entry.kind, entry.node.content?.[0].text, entry.beforeIndex, entry.afterIndex]),
      [
        ['same', 'a', 0, 0],
        ['removed', 'b', 1, undefined],
        ['added', 'B', undefined, 1],
        ['same', 'c', 2, 2],
        ['added', 'd', undefined, 3],
      ],
    );
  });

  it('marks every block of a page that exists on one side only', () => {
    assert.deepEqual(alignBlocks([], [p('x'), p('y')]).map((entry) => entry.kind), ['added', 'added']);
    assert.deepEqual(alignBlocks([p('x')], []).map((entry) => entry.kind), ['removed']);
    assert.deepEqual(alignBlocks([p('x')], [p('x')]).map((entry) => entry.kind), ['same']);
  });
});
