import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseMarkdown, renderMarkdown, writePage } from '../../src/content/markdown/index.ts';
import type { RenderOptions } from '../../src/content/markdown/refs.ts';
import { withoutMarkdownMemo } from '../../src/content/markdown/memo.ts';
import { readPage } from '../../src/content/markdown/parse-pieces.ts';
import { normalizeSource } from '../../src/content/markdown/parse.ts';
import { pageReader } from '../../src/content/markdown/processors.ts';
import { benchPage, edit, markdownFiles, random } from './markdown-edits.ts';

/**
 * The remembering reader and writer (parse-pieces.ts, render-memo.ts; decision record 0117) against the
 * plain whole-page path, for random edits: the bench's 1,000-block page, every GitBook fixture page and
 * corpus page, and all of them put together as one long page. The bytes written (writePage over the
 * previous Markdown) and the documents read must be the same with the memos on and off; and the tree read
 * piece by piece must be micromark's tree of the whole page, also after random lines that open fences,
 * lists, HTML blocks, math and definitions are dropped into the text.
 */

const ROOTS = [resolve(import.meta.dirname, '..', 'fixtures', 'gitbook'), resolve(import.meta.dirname, 'corpus')];

const FILES = ROOTS.flatMap(markdownFiles).sort();

/** Every fixture page as one page (front matter dropped from all but the first). */
const allTogether = FILES.map((file, index) => {
  const text = normalizeSource(readFileSync(file, 'utf8'));
  return index === 0 ? text : text.replace(/^---\n[\s\S]*?\n---\n/, '');
}).join('\n\n');

/** A tree without positions (the only thing a piece's tree may have differently). */
function positionless(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value, (key, inner) => (key === 'position' ? undefined : inner)));
}

/** Lines that open or close something that may run on past a blank line. */
const RISKY = ['```', '```js', '~~~', '$$', '<!-- open comment', '-->', '<pre>', '</pre>', '<div>', '* an item', '1. an item', '    indented', '> quoted', '[label]: /somewhere', '[^1]: a note', '{% hint style="info" %}', '{% endhint %}', '---', '| a | b |\n| - | - |', '<details>', '</details>', 'Setext\n===', ''];

const palette: unknown[] = FILES.flatMap((file) => parseMarkdown(readFileSync(file, 'utf8')).document.nodes);

describe('the remembering Markdown reader and writer', () => {
  const pages: Array<[string, string]> = [['the bench page', benchPage], ['all fixtures as one page', allTogether], ...FILES.map((file): [string, string] => [file.split('/').slice(-2).join('/'), readFileSync(file, 'utf8')])];

  for (const [name, source] of pages) {
    it(`writes the same bytes as the plain path over random edits: ${name}`, () => {
      const next = random(name.length * 7919 + source.length);
      let previous = source;
      let document = parseMarkdown(previous).document;
      const rounds = source.length > 20_000 ? 15 : 10;
      for (let round = 0; round < rounds; round++) {
        document = edit(document, palette, next);
        const cached = writePage(document, { previous });
        const plain = withoutMarkdownMemo(() => writePage(document, { previous }));
        assert.equal(cached, plain, `${name}, round ${round}: the bytes written differ`);
        const read = parseMarkdown(cached);
        assert.deepEqual(read, withoutMarkdownMemo(() => parseMarkdown(cached)), `${name}, round ${round}: the documents read differ`);
        previous = cached;
        document = read.document;
      }
    });
  }

  it("writes the same bytes as the plain path when the writer's hooks answer differently from page to page", () => {
    // The same blocks written for pages whose links, files and includes are named differently: a block is
    // found again only where every hook it asked answers as before.
    const document = parseMarkdown(allTogether).document;
    const hooked = (variant: number): RenderOptions => {
      const answer = (kind: string) => (value: unknown) => (variant === 0 ? undefined : `${kind}-${variant}-${JSON.stringify(value).length % (variant + 1)}`);
      return { refUrl: answer('ref'), fileUrl: answer('file'), refTitle: answer('title'), openApiSource: answer('spec'), reusableContentUrl: answer('include') };
    };
    for (const variant of [1, 2, 1, 0, 3, 2]) {
      const options = hooked(variant);
      assert.equal(renderMarkdown(document, options), withoutMarkdownMemo(() => renderMarkdown(document, options)), `hooks of variant ${variant}: the bytes written differ`);
      assert.equal(renderMarkdown(document, {}), withoutMarkdownMemo(() => renderMarkdown(document, {})), `no hooks after variant ${variant}: the bytes written differ`);
    }
  });

  it('reads a page piece by piece as micromark reads it whole, whatever lines are dropped in', () => {
    const next = random(26);
    for (const [name, source] of [['the bench page', benchPage], ['all fixtures', allTogether]]) {
      let lines = normalizeSource(source).split('\n');
      for (let round = 0; round < 40; round++) {
        const at = Math.floor(next() * lines.length);
        const snippet = RISKY[Math.floor(next() * RISKY.length)];
        if (next() < 0.7) lines = [...lines.slice(0, at), '', snippet, '', ...lines.slice(at)];
        else lines = [...lines.slice(0, at), ...lines.slice(at + 1 + Math.floor(next() * 3))];
        const text = lines.join('\n');
        assert.deepEqual(positionless(readPage(text)), positionless(pageReader.parse(text)), `${name}, round ${round}: "${snippet}" at line ${at}`);
        // Undo half of the riskier lines now and then, so the page does not stay one unclosed block.
        if (round % 10 === 9) lines = normalizeSource(source).split('\n');
      }
    }
  });

  it('cuts a long page into pieces (the memo is used at all)', () => {
    const edited = benchPage.replace('Paragraph 500 of Large.', 'Paragraph 500 of Large, edited.');
    readPage(benchPage);
    // A tree read again shares the unchanged top-level nodes with the first read.
    const first = readPage(benchPage);
    const second = readPage(edited);
    assert.equal(second.children.length, first.children.length);
    assert.equal(second.children[10], first.children[10], 'an unchanged piece is read from the memo');
    assert.notEqual(second.children[499], first.children[499]);
    assert.ok(Object.isFrozen(first.children[10]), 'remembered trees are frozen: a reader that changed one would fail here, not corrupt the memo');
  });
});
