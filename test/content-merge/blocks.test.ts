import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { applyBlockChoices, mergeBlocks, splitBlocks } from '../../src/content/merge/blocks.ts';
import { mergeText } from '../../src/content/merge/text.ts';

/** A page's body aligned by block for the conflicts screen (src/content/merge/blocks.ts). */
describe('merge by block', () => {
  it('cuts a page into top-level blocks, a tag block with all it holds being one', () => {
    const page = '# Title\n\nA paragraph\non two lines.\n\n{% hint style="info" %}\nInside.\n\n- a list\n{% endhint %}\n\n{% tabs %}\n{% tab title="One" %}\nx\n{% endtab %}\n{% endtabs %}\n\n```js\nlet a;\n\nlet b;\n```\n';
    assert.deepEqual(splitBlocks(page), ['# Title', 'A paragraph\non two lines.', '{% hint style="info" %}\nInside.\n\n- a list\n{% endhint %}', '{% tabs %}\n{% tab title="One" %}\nx\n{% endtab %}\n{% endtabs %}', '```js\nlet a;\n\nlet b;\n```']);
    assert.deepEqual(splitBlocks(''), []);
  });

  it('takes one-sided changes, merges what the line merge merges, and leaves only real conflicts', () => {
    const base = 'A\n\nB\n\nC\n\n- one\n- two\n- three';
    const mine = 'A mine\n\nB\n\nC mine\n\n- one, mine\n- two\n- three';
    const space = 'A space\n\nB space\n\nC\n\n- one\n- two\n- three, space';
    const runs = mergeBlocks(base, mine, space);
    assert.deepEqual(runs.map((run) => run.status), ['conflict', 'space', 'change-request', 'merged']);
    assert.deepEqual(runs[3].result, ['- one, mine\n- two\n- three, space'], 'two items of one list merge as lines do');
    assert.equal(applyBlockChoices(runs, [{ take: 'both' }]), 'A mine\n\nA space\n\nB space\n\nC mine\n\n- one, mine\n- two\n- three, space');
    assert.equal(applyBlockChoices(runs, [{ take: 'edited', markdown: '' }]), 'B space\n\nC mine\n\n- one, mine\n- two\n- three, space');
  });

  it('calls a run a conflict only where the engine’s line merge refuses it', () => {
    const base = 'One.\n\nTwo.';
    const mine = 'One, mine.\n\nTwo.';
    const space = 'One, space.\n\nTwo.';
    assert.equal(mergeText(base, mine, space).merged, false);
    assert.deepEqual(mergeBlocks(base, mine, space).map((run) => run.status), ['conflict', 'unchanged']);
    assert.deepEqual(mergeBlocks(base, mine, mine).map((run) => run.status), ['merged', 'unchanged'], 'the same change on both sides');
  });
});
