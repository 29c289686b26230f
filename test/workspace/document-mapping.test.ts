import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { getSchema } from '@tiptap/core';
import { parseMarkdown, renderMarkdown } from '../../src/content/markdown/index.ts';
import type { Document } from '../../src/content/markdown/types.ts';
import { documentToEditor, editorToDocument } from '../../web/src/editor/convert.ts';
import { schemaExtensions } from '../../web/src/editor/schema.ts';

/**
 * The editor's schema mirrors the document model: a page opened in the editor and saved back without an edit
 * gives the same Markdown, for every page of the GitBook fixtures (blocks the editor models and blocks it
 * keeps whole alike), and every editor document is valid in the editor's own schema.
 */
const schema = getSchema(schemaExtensions());

function markdownFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownFiles(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

function throughEditor(document: Document): Document {
  const json = documentToEditor(document);
  schema.nodeFromJSON(json).check();
  return editorToDocument(json, document);
}

function opaqueTypes(document: Document): string[] {
  return (documentToEditor(document).content ?? []).filter((node) => node.type === 'opaqueBlock').map((node) => JSON.parse(node.attrs!.json).type);
}

describe('the editor schema and the document model', () => {
  const files = markdownFiles(join(import.meta.dirname, '..', 'fixtures'));

  it('finds the fixtures', () => assert.ok(files.length > 20, `only ${files.length} Markdown fixtures`));

  for (const file of files) {
    it(`opens and saves ${file.split('/fixtures/')[1]} without changing its Markdown`, () => {
      const { document, frontmatter } = parseMarkdown(readFileSync(file, 'utf8'), {});
      const before = renderMarkdown(document, { frontmatter });
      const after = renderMarkdown(throughEditor(document), { frontmatter });
      assert.equal(after, before);
    });
  }

  it('maps each block it models to an editable node, not a kept one', () => {
    const markdown = [
      '## One', '', '### Two', '', '#### Three', '',
      'Text with **bold**, _italic_, ~~struck~~, `code`, <kbd>K</kbd>, <sup>up</sup>, <sub>down</sub> and [a link](https://example.com).', '',
      '* a', '* b', '', '1. first', '2. second', '', '- [x] done', '- [ ] to do', '',
      '> quoted', '', '```js', 'let x = 1;', '```', '',
      '{% hint style="warning" %}', 'Careful', '{% endhint %}', '',
      '$$', 'e = mc^2', '$$', '', '***', '',
      '<details>', '', '<summary>More</summary>', '', 'Hidden', '', '</details>', '',
      '{% tabs %}', '{% tab title="A" %}', 'in A', '{% endtab %}', '', '{% tab title="Empty" %}', '{% endtab %}', '{% endtabs %}', '',
      '<figure><img src="https://example.com/a.png" alt="A"><figcaption><p>cap</p></figcaption></figure>', '',
    ].join('\n');
    const { document } = parseMarkdown(markdown, {});
    assert.deepEqual(opaqueTypes(document), []);
    assert.equal(renderMarkdown(throughEditor(document), {}), renderMarkdown(document, {}));
  });

  it('keeps what it does not model whole, in place', () => {
    const { document } = parseMarkdown(['Before', '', '{% embed url="https://example.com/video" %}', '', '| A | B |', '| - | - |', '| 1 | 2 |', '', 'After', ''].join('\n'), {});
    assert.deepEqual(opaqueTypes(document), ['embed', 'table']);
    assert.deepEqual(throughEditor(document).nodes, JSON.parse(JSON.stringify(document.nodes)));
  });

  it('saves an emptied page as an empty document', () => {
    assert.deepEqual(editorToDocument({ type: 'doc', content: [{ type: 'paragraph' }] }).nodes, []);
  });
});
