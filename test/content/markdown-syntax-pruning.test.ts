import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { withoutMarkdownMemo } from '../../src/content/markdown/memo.ts';
import { normalizeSource } from '../../src/content/markdown/parse.ts';
import { blockReader, constructNames, pageReader, pieceReader, PRUNABLE_CONSTRUCTS, readerSyntax, syntaxStats, withoutSyntaxPruning } from '../../src/content/markdown/processors.ts';
import { pageMarkdown } from '../../bench/seed.ts';
import { markdownFiles, random } from './markdown-edits.ts';

/**
 * The readers leave out of a text the syntax constructs it cannot hold (processors.ts, NEEDED_IF): a page
 * with no `$$` is read without math, one with no `|`, `:-` or `-:` without tables, and so on. The trees,
 * positions included, and the documents must be those read with every construct, for every fixture and
 * corpus page, texts made to sit just beside each construct's characters, and random texts written in the
 * characters the constructs start with.
 */

const ROOTS = [resolve(import.meta.dirname, '..', 'fixtures', 'gitbook'), resolve(import.meta.dirname, 'corpus')];
const PAGES = ROOTS.flatMap(markdownFiles).sort().map((file) => normalizeSource(readFileSync(file, 'utf8')));

/** Each construct written in the ways it can be, and near misses. */
const EDGES = [
  // tables: with and without pipes, a colon beside a dash
  'a b\n:-', 'a\n-:', 'ab | cd\n- | -', '| a |\n| - |\n| b |', 'a\n--', 'a: b\n- c', 'x\n: -', '> a b\n> :-:\n> c d', '* a\n  :-', 'a\t|\tb\n-\t|\t-',
  // math
  '$$\nx\n$$', '$x$ and $$y$$', 'costs $5 or $6', '$$', '> $$\n> a\n> $$', '  $$x$$',
  // tag lines
  '{% hint style="info" %}\nx\n{% endhint %}', '{%hint%}', '{ % hint %}', '<DETAILS>\n<Summary>s</SUMMARY>\nx\n</Details>', '<details open>', '<summaryx>', '</summary>', '<detailsx>', '<div>a</div>',
  // literal autolinks
  'WWW.EXAMPLE.COM', 'wWw.example.com/x', 'HtTpS://example.com', 'http:/x', 'a@b.c', 'mailto:a@b.co', 'xmpp:a@b.co/c', 'w w w.example', 'a @ b',
  // task lists
  '- [ ] a', '- [x] a', '- [X] b', '- [\t] c', '* [y] d', '1. [ ]', '- [ ]', '- [\n] e', '[ ] not in a list',
  // footnotes
  'a[^1]\n\n[^1]: n', '![ ^1]\n\n[^1]: n', '[ ^1]\n\n[^1]: n', '[^x]', 'a ^ [b]', '[^\nx]: y', '[link][^1]\n\n[^1]: n',
  // strikethrough
  '~a~', '~~a~~', 'a~b', '~~~\ncode\n~~~', '\\~a~',
  // front matter and the rest
  '---\ntitle: x\n---\n\na', ' ---\na: b\n---', 'a\n---\n', '***', '# H', '```\n| a |\n```', '    $$ indented',
];

/** Random texts in the characters the constructs are made of (and a few letters), each kept short. */
function randomTexts(count: number): string[] {
  const next = random(29);
  const pieces = ['a', 'b', ' ', ' ', '\n', '\n\n', '\t', '|', ':', '-', '$', '$$', '[', ']', '^', '~', '@', 'www', 'http', '://', 'x', 'X', '{%', '%}', '<', '>', '/', 'details', 'summary', '*', '`', '#', '1.', '.', '(', ')', '!', '\\', '> '];
  return Array.from({ length: count }, () => Array.from({ length: 1 + Math.floor(next() * 40) }, () => pieces[Math.floor(next() * pieces.length)]).join(''));
}

const TEXTS = [...PAGES, ...EDGES, EDGES.join('\n\n'), ...randomTexts(2000), pageMarkdown(7)];

describe('Markdown readers leave out constructs a text cannot hold', () => {
  it('still find every construct they may leave out, by its name (else a renamed one would be tried everywhere)', () => {
    for (const reader of [pageReader, blockReader, pieceReader]) {
      const names = constructNames(readerSyntax.get(reader)!);
      for (const name of PRUNABLE_CONSTRUCTS) if (name !== 'tagLine' || reader !== pieceReader) assert.ok(names.has(name), `${name} is not a construct of the reader`);
    }
  });

  it('read every text as with every construct, positions included', () => {
    for (const text of TEXTS) {
      for (const reader of [pageReader, blockReader, pieceReader]) {
        assert.deepEqual(reader.parse(text), withoutSyntaxPruning(() => reader.parse(text)), `read differently:\n${JSON.stringify(text)}`);
      }
    }
  });

  it('give the same documents, front matter and refusals', () => {
    const outcome = (text: string) => {
      try {
        return withoutMarkdownMemo(() => parseMarkdown(text));
      } catch (error) {
        return { refused: String(error) };
      }
    };
    for (const text of TEXTS) assert.deepEqual(outcome(text), withoutSyntaxPruning(() => outcome(text)), `read differently:\n${JSON.stringify(text)}`);
  });

  it('leave constructs out of the import bench page (the fast path is taken)', () => {
    const before = syntaxStats.pruned;
    pageReader.parse(pageMarkdown(3));
    assert.equal(syntaxStats.pruned, before + 1);
  });
});
