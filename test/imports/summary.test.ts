import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseSummary, summaryPieces } from '../../src/imports/summary.ts';

/** A reference definition makes parseSummary read the file as one piece: the whole-file parse to compare with. */
const asOnePiece = (source: string) => parseSummary(`${source}\n\n[quire-test-unused]: https://example.com\n`);

const CASES: Record<string, string> = {
  'groups, anchors and nesting': [
    '# Table of contents',
    '',
    '* [Introduction](README.md)',
    '',
    '## Guides <a href="#guides" id="guides"></a>',
    '',
    '* [Install](guides/install.md)',
    '  * [On Linux](guides/linux.md)',
    '    * [Debian](guides/debian.md)',
    '* [External](https://example.com)',
    '* Not a link',
    '',
    '## Reference',
    '',
    '- [API](api.md)',
    '+ [CLI](cli.md)',
    '1. [Ordered](ordered.md)',
    '2. [Second](second.md)',
  ].join('\n'),
  'entries commented out in an HTML comment': ['* [A](a.md)', '<!--', '* [Hidden](hidden.md)', '## Hidden group', '-->', '* [B](b.md)'].join('\n'),
  'a one-line comment': ['* [A](a.md)', '<!-- a note -->', '* [B](b.md)'].join('\n'),
  'an HTML block that ends at a blank line': ['<details>', '* [Inside](inside.md)', '', '* [After](after.md)'].join('\n'),
  'a fenced code block holding list lines': ['* [A](a.md)', '```', '* [Code](code.md)', '# not a heading', '```', '* [B](b.md)'].join('\n'),
  'a longer fence not closed by a shorter one': ['````', '* [Code](code.md)', '```', '* [Still code](code2.md)', '````', '* [B](b.md)'].join('\n'),
  'a fence inside an item': ['* [A](a.md)', '  ```', '* [B](b.md)', '  ```', '* [C](c.md)'].join('\n'),
  'lazy continuation and loose lists': ['* [A](a.md)', 'lazy text', '', '  * [A1](a1.md)', '', '* [B](b.md)', 'Paragraph', '* [C](c.md)'].join('\n'),
  'thematic breaks and setext headings': ['* [A](a.md)', '- - -', 'Group', '-----', '* [B](b.md)', '* * *', '* [C](c.md)'].join('\n'),
  'script and style blocks': ['<script>', '* [No](no.md)', '</script>', '* [Yes](yes.md)', '<style>', '# no', '</style>', '* [Also](also.md)'].join('\n'),
  'headings without a list': ['# Title', '# Second title', '## Empty group', '### Deeper', '* [Under deeper](d.md)'].join('\n'),
  'emphasis and code in titles': ['* [**Bold** `code`](bold.md)', '* [A \\[bracket\\]](b.md)', '* *[Emphasised link](e.md)*'].join('\n'),
};

describe('SUMMARY.md parsed piece by piece', () => {
  for (const [name, source] of Object.entries(CASES)) {
    it(`gives the same groups as the whole file: ${name}`, () => {
      assert.ok(summaryPieces(source).length >= 1);
      assert.deepEqual(parseSummary(source), asOnePiece(source));
    });
  }

  it('cuts a GitBook table of contents at each top-level item and heading', () => {
    const source = ['# Table of contents', '', '* [A](a.md)', '  * [A1](a1.md)', '* [B](b.md)', '', '## Group', '', '* [C](c.md)'].join('\n');
    assert.deepEqual(summaryPieces(source).map((piece) => piece.split('\n')[0]), ['# Table of contents', '* [A](a.md)', '* [B](b.md)', '## Group', '* [C](c.md)']);
  });

  it('reads a file with a reference definition as one piece', () => {
    const source = '* [A][a]\n* [B](b.md)\n\n[a]: a.md\n';
    assert.equal(summaryPieces(source).length, 1);
    assert.deepEqual(parseSummary(source)[0].items.map((item) => item.title), ['A', 'B']);
  });

  it('reads 5,000 entries with every one in place', () => {
    const lines = ['# Table of contents', ''];
    for (let part = 0; part < 100; part++) {
      lines.push(`* [Part ${part}](part-${part}/README.md)`);
      for (let n = 0; n < 49; n++) lines.push(`  * [Topic ${part}.${n}](part-${part}/topic-${n}.md)`);
    }
    const [group] = parseSummary(lines.join('\n'));
    assert.equal(group.items.length, 100);
    assert.equal(group.items.reduce((sum, item) => sum + 1 + item.items.length, 0), 5_000);
    assert.deepEqual(group.items[99].items[48], { title: 'Topic 99.48', href: 'part-99/topic-48.md', items: [] });
  });
});
