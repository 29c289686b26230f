import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { convert } from './convert.ts';

/** Lines an author might write, good and broken, that random pages are assembled from. */
const LINES = [
  '# Head', '## Sub *it*', '#### deep', 'plain text', 'text with **bold** and _it_', '`code` span', '~~strike~~', '[link](https://a.b)', '![img](a.png)',
  '* item', '  * nested', '1. one', '2. two', '- [ ] task', '- [x] done', '> quote', '> > deep quote', '```js', 'code();', '```', '$$', 'x^2', '$$y$$ inline',
  '{% hint style="info" %}', '{% endhint %}', '{% tabs %}', '{% tab title="A" %}', '{% endtab %}', '{% endtabs %}', '{% code title="t" %}', '{% endcode %}',
  '<details>', '<summary>Sum</summary>', '</details>', '{% embed url="https://e.x" %}', '{% endembed %}', '{% file src="files/f1" %}', '{% endfile %}',
  '{% content-ref url="p.md" %}', '{% endcontent-ref %}', '{% foo %}', '| a | b |', '| - | - |', '| 1 | 2 |', '---', '***', '', '', '',
  '<figure><img src="a.png" alt="x"><figcaption><p>cap</p></figcaption></figure>', '<img src="i.png" alt="">', 'H<sub>2</sub>O', '<kbd>k</kbd>', '<div>html</div>',
  'line  ', 'trailing\\', '    indented code', '[ref][r]', '[r]: https://r.example', 'term https://auto.example here', '<!-- comment -->', '   {% hint style="warning" %}',
  '  text in item', '\t tab', '* {% hint style="info" %}', '> {% endhint %}', 'a | b', '{%', '%}', '<summary>', '$', '\\{% hint %}', '  | c | d |', '  | - | - |',
  '   ```', '   x = 1', '  > q in item', '  1. sub', '    - deeper', '<div align="center"><figure><img src="b.png" alt="" width="50%"></figure></div>',
  '{% hint style="info" %} same line {% endhint %}', '{% content-ref url="x.md" %}[X](x.md){% endcontent-ref %}', '**bold *nest `c`***', '<mark style="color:blue;">m</mark>',
  '[![b](i.png)](https://l.x)', '[^1]', '[^1]: note', '<p align="center">c</p>', '## H <a href="#h" id="h"></a>', 'a\\', '<br>', '$$a$$ $$b$$',
  '**a<br>**b', 'a<br><kbd>k</kbd>', 'x<br><img src="q.png">', '*it<br>*', '<sup>s<br></sup>',
];

/** A small deterministic generator, so that a failure can be replayed. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state * 1103515245 + 12345) % 2147483648;
    return state / 2147483648;
  };
}

describe('random pages', () => {
  it('round-trip whatever lines they are made of', () => {
    const random = generator(20240601);
    for (let page = 0; page < 400; page++) {
      const length = 1 + Math.floor(random() * 30);
      const lines = Array.from({ length }, () => LINES[Math.floor(random() * LINES.length)]);
      // A first line of text, so that a `---` line never starts front matter.
      const source = ['Start', '', ...lines].join('\n');
      assert.doesNotThrow(() => convert(source), `page ${page}:\n${source}`);
    }
  });
});
