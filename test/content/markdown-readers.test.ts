import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, it } from 'node:test';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkMath from 'remark-math';
import remarkParse from 'remark-parse';
import { unified } from 'unified';
import { normalizeSource } from '../../src/content/markdown/parse.ts';
import { blockReader, LITERAL_LINK_TRANSFORM, pageReader, pieceReader } from '../../src/content/markdown/processors.ts';
import { remarkTagLines } from '../../src/content/markdown/syntax.ts';
import { markdownFiles } from './markdown-edits.ts';

/**
 * The readers of processors.ts set up once what remark-parse sets up on every call (one combined syntax
 * extension; no literal-autolink walk over a text that cannot hold one). Their trees, positions included,
 * must be those of remark-parse with the same plugins, for every fixture and corpus page and for texts made
 * to hold literal autolinks in every way one can be written.
 */

const math = { singleDollarTextMath: false };
const plainPage = unified().use(remarkParse).use(remarkFrontmatter, ['yaml']).use(remarkGfm).use(remarkMath, math).use(remarkTagLines);
const plainBlocks = unified().use(remarkParse).use(remarkGfm).use(remarkMath, math).use(remarkTagLines);
const plainPieces = unified().use(remarkParse).use(remarkGfm).use(remarkMath, math);

const ROOTS = [resolve(import.meta.dirname, '..', 'fixtures', 'gitbook'), resolve(import.meta.dirname, 'corpus')];
const PAGES = ROOTS.flatMap(markdownFiles).sort().map((file) => normalizeSource(readFileSync(file, 'utf8')));

const LINKS = [
  'See https://example.com/a?b=c, HTTP://EXAMPLE.COM and www.example.org/x.',
  'Mail me@example.com, mailto:a.b@example.co.uk or xmpp:someone@example.net/home.',
  'Written with a reference: w&#119;w.example.com',
  'Written with a reference: a&#64;example.com',
  'Written with a reference: &#x68;ttps://example.com',
  'Escaped: http\\://example.com and www\\.example.com, in `https://code.example` and [https://link.example](https://x.example).',
  '* https://in.a.list\n* [ref]\n\n[ref]: https://example.com\n\n| a | b |\n|---|---|\n| www.table.example | c@d.ef |',
  '{% hint style="info" %}\nhttps://inside.a.tag\n{% endhint %}\n\n> a quote with www.example.com',
  'No link here at all: plain words, a list and `code`.\n\n1. one\n2. two',
];

describe('Markdown readers set up once', () => {
  it('still find remark-gfm’s literal-autolink step by its name (else every text would be walked for links)', () => {
    const names = (plainPage.freeze().data().fromMarkdownExtensions ?? []).flat(Infinity as 1).flatMap((extension) => (extension.transforms ?? []).map((transform) => transform.name));
    assert.deepEqual(names, [LITERAL_LINK_TRANSFORM]);
  });

  it('read every page, and texts holding literal autolinks, as remark-parse does', () => {
    for (const text of [...PAGES, ...LINKS, LINKS.join('\n\n')]) {
      assert.deepEqual(pageReader.parse(text), plainPage.parse(text));
      assert.deepEqual(blockReader.parse(text), plainBlocks.parse(text));
      assert.deepEqual(pieceReader.parse(text), plainPieces.parse(text));
    }
  });

  it('turn literal autolinks into links', () => {
    const links: string[] = [];
    const walk = (node: { type: string; url?: string; children?: unknown[] }) => {
      if (node.type === 'link' && node.url) links.push(node.url);
      for (const child of node.children ?? []) walk(child as typeof node);
    };
    walk(pageReader.parse(LINKS[0]) as never);
    walk(pageReader.parse(LINKS[1]) as never);
    assert.deepEqual(links, ['https://example.com/a?b=c', 'HTTP://EXAMPLE.COM', 'http://www.example.org/x', 'mailto:me@example.com', 'mailto:a.b@example.co.uk', 'mailto:someone@example.net']);
  });
});
