import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { mergePageFields, threeWay } from '../../src/content/merge/fields.ts';
import { mergeOrder, reorderedKeys } from '../../src/content/merge/order.ts';
import { mergeText } from '../../src/content/merge/text.ts';

describe('merge of revisions: the pure parts', () => {
  it('merges texts line by line; overlapping and adjacent edits conflict, identical ones do not', () => {
    const base = 'one\ntwo\nthree\nfour\nfive';
    assert.deepEqual(mergeText(base, 'ONE\ntwo\nthree\nfour\nfive', 'one\ntwo\nthree\nfour\nFIVE'), { merged: true, text: 'ONE\ntwo\nthree\nfour\nFIVE' });
    assert.deepEqual(mergeText(base, 'one\ntwo\nTHREE\nfour\nfive', 'one\ntwo\nTHREE\nfour\nfive'), { merged: true, text: 'one\ntwo\nTHREE\nfour\nfive' });
    const overlap = mergeText(base, 'one\n2\nthree\nfour\nfive', 'one\nzwei\nthree\nfour\nfive');
    assert.equal(overlap.merged, false);
    assert.deepEqual(!overlap.merged && overlap.conflicts, [{ line: 2, lines: 1, ours: ['2'], theirs: ['zwei'] }]);
    assert.equal(mergeText(base, 'one\n2\nthree\nfour\nfive', 'one\ntwo\n3\nfour\nfive').merged, false, 'adjacent lines conflict');
    assert.deepEqual(mergeText('', 'added', ''), { merged: true, text: 'added' });
    assert.equal(mergeText('', 'ours', 'theirs').merged, false);
  });

  it('merges orders: insertions at different places, ours before theirs at the same place, moves kept', () => {
    const none = () => undefined;
    assert.deepEqual(mergeOrder(['a', 'b', 'c'], ['a', 'x', 'b', 'c'], ['a', 'b', 'c', 'y'], none), ['a', 'x', 'b', 'c', 'y']);
    assert.deepEqual(mergeOrder(['a', 'b'], ['a', 'x', 'b'], ['a', 'y', 'b'], none), ['a', 'x', 'y', 'b']);
    assert.deepEqual(mergeOrder(['a', 'b', 'c'], ['c', 'a', 'b'], ['a', 'b', 'c', 'y'], (key) => (key === 'c' ? 'ours' : undefined)), ['c', 'a', 'b', 'y']);
    assert.deepEqual([...reorderedKeys(['a', 'b', 'c', 'd'], ['a', 'c', 'd', 'b', 'new'])], ['b']);
    assert.deepEqual([...reorderedKeys(['a', 'b'], ['a', 'b'])], []);
  });

  it('three-way values and page settings', () => {
    assert.deepEqual(threeWay(1, 1, 2), { ok: true, value: 2 });
    assert.deepEqual(threeWay(1, 3, 1), { ok: true, value: 3 });
    assert.deepEqual(threeWay(1, 3, 3), { ok: true, value: 3 });
    assert.deepEqual(threeWay(1, 2, 3), { ok: false });
    assert.deepEqual(threeWay(1, undefined, 1), { ok: true, value: undefined }, 'removed on one side');
    assert.deepEqual(threeWay(undefined, 'x', undefined), { ok: true, value: 'x' }, 'added on one side');
    const base = { id: 'p', type: 'document' as const, title: 'T', git: { oid: '1', path: 'p.md' } };
    const merged = mergePageFields(base, { ...base, git: { oid: '2', path: 'p.md' }, emoji: '🚀' }, { ...base, git: { oid: '3', path: 'p.md' }, title: 'New' });
    assert.deepEqual(merged, { fields: { id: 'p', type: 'document', title: 'New', emoji: '🚀', git: { oid: '2', path: 'p.md' } }, conflicts: [] }, 'Git metadata: ours wins');
  });
});
