import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { documentToPlainText, extractSections, parseMarkdown, slugify, UniqueSlugs } from '../../src/content/markdown/index.ts';

const page = parseMarkdown(`Intro text with a [link](https://x.example).

## Install

Run **this**:

\`\`\`sh
npm i quire
\`\`\`

### Options <a href="#opts" id="opts"></a>

| Name | Default |
| --- | --- |
| port | 3000 |

### Install

{% tabs %}
{% tab title="Linux" %}
#### Not a section

Use apt.
{% endtab %}
{% endtabs %}

<details>

<summary>More</summary>

Hidden $$x^2$$ text.

</details>

<figure><img src="a.png" alt="Diagram"><figcaption><p>The flow</p></figcaption></figure>

## 日本語
`).document;

describe('documentToPlainText', () => {
  it('gives the text of every block, headings included, one block per line', () => {
    assert.equal(
      documentToPlainText(page),
      ['Intro text with a link.', 'Install', 'Run this:', 'npm i quire', 'Options', 'Name Default', 'port 3000', 'Install', 'Linux', 'Not a section', 'Use apt.', 'More', 'Hidden x^2 text.', 'Diagram', 'The flow', '日本語'].join('\n'),
    );
  });

  it('gives nothing for an empty page', () => {
    assert.equal(documentToPlainText(parseMarkdown('').document), '');
  });
});

describe('extractSections', () => {
  it('cuts the page at its top-level headings, with unique ids', () => {
    assert.deepEqual(extractSections(page), [
      { id: '', title: '', depth: 0, text: 'Intro text with a link.' },
      { id: 'install', title: 'Install', depth: 1, text: 'Run this:\nnpm i quire' },
      { id: 'opts', title: 'Options', depth: 2, text: 'Name Default\nport 3000' },
      { id: 'install-1', title: 'Install', depth: 2, text: 'Linux\nNot a section\nUse apt.\nMore\nHidden x^2 text.\nDiagram\nThe flow' },
      { id: 'section', title: '日本語', depth: 1, text: '' },
    ]);
  });

  it('gives no part for a page without text before its first heading', () => {
    assert.deepEqual(extractSections(parseMarkdown('# Only\n\nBody').document), [{ id: 'only', title: 'Only', depth: 1, text: 'Body' }]);
  });
});

describe('slugify', () => {
  it('lower-cases, folds to ASCII and joins words with hyphens', () => {
    assert.equal(slugify('Getting Started!'), 'getting-started');
    assert.equal(slugify('Über die Brücke'), 'uber-die-brucke');
    assert.equal(slugify('Crème brûlée & Ærø Straße'), 'creme-brulee-and-aero-strasse');
    assert.equal(slugify('  --API v2.0 (beta)--  '), 'api-v2-0-beta');
    assert.equal(slugify('ﬁle Ⅻ'), 'file-xii');
  });

  it('falls back when nothing is left', () => {
    assert.equal(slugify(''), 'untitled');
    assert.equal(slugify('日本語'), 'untitled');
    assert.equal(slugify('!!!', 'page'), 'page');
  });

  it('hands out unique slugs', () => {
    const slugs = new UniqueSlugs();
    assert.deepEqual(['a', 'a', 'b', 'a'].map((slug) => slugs.claim(slug)), ['a', 'a-1', 'b', 'a-2']);
  });
});
