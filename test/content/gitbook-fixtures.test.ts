import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseMarkdown, renderMarkdown, writePage, type ParseOptions, type RenderOptions } from '../../src/content/markdown/index.ts';
import { assertValid } from './convert.ts';

/**
 * GitBook's format, file by file (test/fixtures/gitbook/, sources in SOURCES.md): real pages GitBook wrote
 * come back byte for byte, the constructs Quire writes are GitBook's own form, and hand-written Markdown
 * is normalised once to that form and then stays put.
 */
const root = new URL('../fixtures/gitbook/', import.meta.url);
const files = (folder: string) => readdirSync(new URL(folder, root)).filter((name) => name.endsWith('.md')).sort();
const read = (folder: string, name: string) => readFileSync(new URL(`${folder}/${name}`, root), 'utf8');

/** Files under `.gitbook/assets` are the space's files, named back as written; includes keep their relative path. */
function hooks(): { parse: ParseOptions; render: RenderOptions } {
  const ids = new Map<string, string>();
  const paths = new Map<string, string>();
  const includes = new Map<string, string>();
  return {
    parse: {
      resolveFile: (src) => {
        if (!src.includes('.gitbook/assets/')) return undefined;
        if (!ids.has(src)) {
          ids.set(src, `file${ids.size}`);
          paths.set(`file${ids.size - 1}`, src);
        }
        return ids.get(src);
      },
      resolveReusableContent: (path) => {
        const id = path.split('/').pop()!.replace(/\.md$/, '');
        includes.set(id, path);
        return id;
      },
    },
    render: { fileUrl: (id) => paths.get(id), reusableContentUrl: (id) => includes.get(id) },
  };
}

describe('GitBook pages from public repositories', () => {
  for (const name of files('real')) {
    const source = read('real', name);
    it(`${name}: parse then write gives the same bytes`, () => {
      const { parse, render } = hooks();
      const page = parseMarkdown(source, parse);
      assertValid(page.document);
      assert.equal(writePage(page.document, { ...render, frontmatter: page.frontmatter, previous: source, parse }), source);
    });

    it(`${name}: its document survives document → Markdown → document, and the canonical form is a fixed point`, () => {
      const { parse, render } = hooks();
      const page = parseMarkdown(source, parse);
      const written = renderMarkdown(page.document, { ...render, frontmatter: page.frontmatter });
      const again = parseMarkdown(written, parse);
      assert.deepEqual(again.document, page.document);
      assert.equal(renderMarkdown(again.document, { ...render, frontmatter: again.frontmatter }), written);
    });
  }

  it('an edit of one paragraph changes that paragraph only', () => {
    const source = read('real', 'beefree-other-customizations-appearance-themes.md');
    const { parse, render } = hooks();
    const page = parseMarkdown(source, parse);
    const index = page.document.nodes.findIndex((node) => node.type === 'paragraph');
    const nodes = page.document.nodes.map((node, at) => (at === index && node.type === 'paragraph' ? { ...node, nodes: [...node.nodes, { object: 'text' as const, leaves: [{ object: 'leaf' as const, text: ' (edited)', marks: [] }] }] } : node));
    const written = writePage({ ...page.document, nodes }, { ...render, frontmatter: page.frontmatter, previous: source, parse });
    const before = source.split('\n');
    const after = written.split('\n');
    assert.equal(after.length, before.length);
    assert.deepEqual(after.filter((line, at) => line !== before[at]).length, 1);
    assert.ok(after.some((line) => line.endsWith('(edited)')));
  });
});

describe('GitBook constructs, one page each', () => {
  for (const name of files('constructs')) {
    it(`${name}: written back exactly as GitBook writes it`, () => {
      const source = read('constructs', name);
      const { parse, render } = hooks();
      const page = parseMarkdown(source, parse);
      assertValid(page.document);
      assert.equal(renderMarkdown(page.document, { ...render, frontmatter: page.frontmatter }), source);
      assert.deepEqual(parseMarkdown(source, parse).document, page.document);
    });
  }
});

describe('hand-written Markdown', () => {
  for (const name of files('hand-written').filter((file) => !file.endsWith('.canonical.md'))) {
    it(`${name}: normalised once to the canonical form, which is then a fixed point`, () => {
      const canonical = read('hand-written', name.replace(/\.md$/, '.canonical.md'));
      const page = parseMarkdown(read('hand-written', name));
      assert.equal(renderMarkdown(page.document, { frontmatter: page.frontmatter }), canonical);
      const again = parseMarkdown(canonical);
      assert.deepEqual(again.document, page.document);
      assert.equal(renderMarkdown(again.document, { frontmatter: again.frontmatter }), canonical);
    });
  }
});
