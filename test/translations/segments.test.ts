import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { parseMarkdown, renderMarkdown } from '../../src/content/markdown/index.ts';
import { countWords, PageSegments } from '../../src/translations/segments.ts';
import { batches } from '../../src/translations/engine.ts';

/** The document ↔ segments conversion on its own, with hand-written "translations". */
describe('segments of a document', () => {
  const source = 'Read the **fine** [manual](https://example.com) and run `make`.\n\n```\nnever sent\n```\n\n$$x^2$$\n';

  it('sends text with placeholders, never code or math', () => {
    const { document } = parseMarkdown(source);
    const segments = new PageSegments();
    segments.addDocument(document);
    assert.deepEqual(segments.segments, ['Read the <x id="1">fine</x> <x id="2">manual</x> and run <x id="3"/>.']);
    assert.equal(countWords(segments.segments[0]), 6);
  });

  it('puts marks, links and code back where the engine moved them', () => {
    const { document } = parseMarkdown(source);
    const segments = new PageSegments();
    segments.addDocument(document);
    assert.equal(segments.apply(['Lee el <x id="2">manual</x> <x id="1">fino</x> y ejecuta <x id="3"/>.']), 0);
    // A paragraph that is only `$$…$$` is a block formula, written fenced when written anew (as GitBook writes it).
    assert.equal(renderMarkdown(document), 'Lee el [manual](https://example.com) **fino** y ejecuta `make`.\n\n```\nnever sent\n```\n\n$$\nx^2\n$$\n');
  });

  it('keeps the source text of a segment whose placeholders came back wrong', () => {
    const { document } = parseMarkdown(source);
    const segments = new PageSegments();
    segments.addDocument(document);
    assert.equal(segments.apply(['Lee el manual fino y ejecuta.']), 1);
    assert.match(renderMarkdown(document), /^Read the \*\*fine\*\* \[manual\]\(https:\/\/example\.com\) and run `make`\./);
  });

  it('turns glossary terms into placeholders that come back as the rendering', () => {
    const { document } = parseMarkdown('Open Quire Cloud, not Quire Clouds.\n');
    const segments = new PageSegments([{ source: 'Quire Cloud', target: 'Quire Nube' }]);
    segments.addDocument(document);
    assert.deepEqual(segments.segments, ['Open <x id="1"/>, not Quire Clouds.']);
    segments.apply(['Abre <x id="1"/>, no Quire Clouds.']);
    assert.equal(renderMarkdown(document), 'Abre Quire Nube, no Quire Clouds.\n');
  });

  it('cuts batches by count and size', () => {
    assert.deepEqual(batches(['aa', 'bb', 'cc', 'dd', 'ee'], { maxSegments: 2, maxCharacters: 100 }), [['aa', 'bb'], ['cc', 'dd'], ['ee']]);
    assert.deepEqual(batches(['aaaa', 'bbbb', 'c'], { maxSegments: 10, maxCharacters: 5 }), [['aaaa'], ['bbbb', 'c']]);
  });
});
