import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { parseMarkdown, renderMarkdown, type DocumentBlock } from '../../src/content/markdown/index.ts';
import { assetHooks, convert } from './convert.ts';

const directory = new URL('./corpus/', import.meta.url);
const pages = readdirSync(directory).filter((name) => name.endsWith('.md')).sort();

/** Every block type that occurs in a list of blocks, nested ones included. */
function blockTypes(blocks: DocumentBlock[], into = new Set<string>()): Set<string> {
  for (const block of blocks) {
    into.add(block.type);
    if ('nodes' in block && Array.isArray(block.nodes)) blockTypes(block.nodes.filter((node): node is DocumentBlock => typeof node === 'object' && node !== null && !Array.isArray(node) && node.object === 'block'), into);
    if ('fragments' in block && Array.isArray(block.fragments)) for (const fragment of block.fragments) if (typeof fragment === 'object' && fragment && !Array.isArray(fragment) && Array.isArray(fragment.nodes)) blockTypes(fragment.nodes as DocumentBlock[], into);
  }
  return into;
}

/** Ways to nest a page's body in a container, as an author would write them. */
const containers: Record<string, (body: string) => string> = {
  hint: (body) => `{% hint style="info" %}\n${body}\n{% endhint %}`,
  tab: (body) => `{% tabs %}\n{% tab title="Tab" %}\n${body}\n{% endtab %}\n{% endtabs %}`,
  expandable: (body) => `<details>\n\n<summary>More</summary>\n\n${body}\n\n</details>`,
  quote: (body) => body.split('\n').map((line) => `> ${line}`).join('\n'),
  item: (body) => `* ${body.split('\n').join('\n  ')}`,
  ordered: (body) => `3. ${body.split('\n').join('\n   ')}`,
};
const nestings = [['hint'], ['tab'], ['expandable'], ['quote'], ['item'], ['ordered'], ['hint', 'tab'], ['tab', 'item'], ['item', 'quote'], ['expandable', 'tab', 'item'], ['quote', 'expandable']];

describe('markdown corpus', () => {
  it('has at least eight pages', () => {
    assert.ok(pages.length >= 8, `${pages.length} pages`);
  });

  for (const name of pages) {
    const source = readFileSync(new URL(name, directory), 'utf8');

    it(`${name}: round-trips with the file hooks (schema-valid, identity, stable)`, () => {
      const { nodes } = convert(source, assetHooks);
      assert.ok(nodes.length > 0);
    });

    it(`${name}: round-trips without hooks`, () => {
      convert(source);
    });

    it(`${name}: reads the same with Windows line endings`, () => {
      assert.deepEqual(parseMarkdown(source.replace(/\n/g, '\r\n'), assetHooks.parse), parseMarkdown(source, assetHooks.parse));
    });

    it(`${name}: keeps every word of the source`, () => {
      const written = renderMarkdown(parseMarkdown(source, assetHooks.parse).document, assetHooks.render);
      const words = (text: string) => new Set(text.match(/[A-Za-z]{4,}/g) ?? []);
      // Front matter keys and values are not in the body; the link text of content references is rewritten from
      // their URL; a tag on a line of its own is syntax, not words (an include is written back from its reference).
      const body = source
        .replace(/^---\n[\s\S]*?\n---\n/, '')
        .replace(/\{% content-ref [^\n]*\n\[[^\]]*\]/g, '')
        .replace(/^\{%[^\n]*%\}$/gm, '');
      const missing = [...words(body)].filter((word) => !words(written).has(word) && !['strong', 'code'].includes(word));
      assert.deepEqual(missing, []);
    });
  }

  it('round-trips every page nested in containers, split where the document does not allow the nesting', () => {
    for (const name of pages) {
      const body = readFileSync(new URL(name, directory), 'utf8').replace(/^---\n[\s\S]*?\n---\n/, '');
      for (const nesting of nestings) {
        const source = nesting.reduce((inner, container) => containers[container](inner), body);
        assert.doesNotThrow(() => convert(source, assetHooks), `${name} in ${nesting.join(' in ')}`);
      }
    }
  });

  it('uses every block type the conversion supports', () => {
    const types = new Set<string>();
    for (const name of pages) blockTypes(parseMarkdown(readFileSync(new URL(name, directory), 'utf8'), assetHooks.parse).document.nodes, types);
    for (const type of ['paragraph', 'heading-1', 'heading-2', 'heading-3', 'list-ordered', 'list-unordered', 'list-tasks', 'list-item', 'blockquote', 'code', 'code-line', 'table', 'images', 'image', 'file', 'hint', 'tabs', 'tabs-item', 'expandable', 'embed', 'content-ref', 'math', 'divider']) {
      assert.ok(types.has(type), `the corpus uses ${type}`);
    }
  });
});
