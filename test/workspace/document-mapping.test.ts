import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { getSchema, type JSONContent } from '@tiptap/core';
import { parseMarkdown, renderMarkdown } from '../../src/content/markdown/index.ts';
import type { Document } from '../../src/content/markdown/types.ts';
import { documentToEditor, editorToDocument } from '../../web/src/editor/convert.ts';
import { schemaExtensions } from '../../web/src/editor/schema.ts';
import { conditionProblem } from '../../web/src/editor/blocks/if.ts';

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

/** The nodes of an editor document kept whole (read-only), blocks and inlines, by their document type. */
function keptWhole(node: JSONContent): string[] {
  const own = node.type === 'opaqueBlock' || node.type === 'opaqueInline' ? [JSON.parse(node.attrs!.json).type as string] : [];
  return [...own, ...(node.content ?? []).flatMap(keptWhole)];
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
    // A table whose column of numbers holds text is beyond the editor's table (typed-tables-mapping.test.ts): kept as read.
    const { document } = parseMarkdown(['Before', '', '| A | B |', '| - | - |', '| 1 | 2 |', '', 'After', ''].join('\n'), {});
    const table = document.nodes[1] as Extract<Document['nodes'][number], { type: 'table' }>;
    table.data.definition.c1 = { id: 'c1', title: 'B', type: 'number' };
    table.data.records.r0.values.c1 = 'two';
    table.fragments = table.fragments.filter((item) => item.fragment !== 'r0c1');
    assert.deepEqual(opaqueTypes(document), ['table']);
    assert.deepEqual(throughEditor(document).nodes, JSON.parse(JSON.stringify(document.nodes)));
  });

  // Every construct of the GitBook fixtures is an editable node: no block and no inline is kept whole (but an
  // HTML table whose cells hold lists, html-table.md, which the editor's one-paragraph cells cannot hold).
  for (const name of ['stepper', 'columns', 'if', 'updates', 'openapi-blocks', 'openapi', 'classic-blocks', 'include', 'images', 'inlines', 'annotations', 'cards']) {
    it(`edits every construct of ${name}.md`, () => {
      const { document, frontmatter } = parseMarkdown(readFileSync(join(import.meta.dirname, '..', 'fixtures', 'gitbook', 'constructs', `${name}.md`), 'utf8'), {});
      assert.deepEqual(keptWhole(documentToEditor(document)), [], 'nodes kept whole');
      assert.equal(renderMarkdown(throughEditor(document), { frontmatter }), renderMarkdown(document, { frontmatter }));
    });
  }

  // Each block and inline, written in Markdown, to the editor node it becomes and back.
  const CASES: Array<[string, string, string]> = [
    ['table', 'table', ['| Name | Size |', '| :-- | --: |', '| **bold** a | `1` |', '| b |  |', ''].join('\n')],
    ['table without a header', 'table', ['|  |  |', '| - | - |', '| a | b |', ''].join('\n')],
    ['stepper', 'stepper', ['{% stepper %}', '{% step %}', '### One', 'Do this.', '{% endstep %}', '', '{% step %}', '### Two', '{% endstep %}', '{% endstepper %}', ''].join('\n')],
    ['columns', 'columns', ['{% columns %}', '{% column width="50%" %}', 'Left', '{% endcolumn %}', '', '{% column %}', 'Right', '{% endcolumn %}', '{% endcolumns %}', ''].join('\n')],
    ['if', 'ifBlock', ['{% if visitor.claims.plan == "pro" %}', 'Pro only.', '{% endif %}', ''].join('\n')],
    ['embed', 'embed', ['{% embed url="https://www.youtube.com/watch?v=abc" %}', 'A caption', '{% endembed %}', ''].join('\n')],
    ['content-ref', 'contentRef', ['{% content-ref url="https://example.com/docs" %}', '[https://example.com/docs](https://example.com/docs)', '{% endcontent-ref %}', ''].join('\n')],
    ['openapi-operation', 'openapiOperation', ['{% openapi-operation spec="petstore" path="/pets" method="get" %}', '[OpenAPI petstore](https://example.com/petstore.json)', '{% endopenapi-operation %}', ''].join('\n')],
    ['inline math', 'inlineItem', ['The formula $$a^2$$ inline.', ''].join('\n')],
    ['emoji', 'inlineItem', ['Wave :wave: hello.', ''].join('\n')],
    ['annotation', 'inlineItem', ['A word[^1] with a note.', '', '[^1]: The note.', ''].join('\n')],
  ];
  for (const [title, nodeName, markdown] of CASES) {
    it(`maps ${title} to a ${nodeName} node and back`, () => {
      const { document } = parseMarkdown(markdown, {});
      const json = documentToEditor(document);
      assert.ok(JSON.stringify(json).includes(`"type":"${nodeName}"`), JSON.stringify(json));
      assert.deepEqual(keptWhole(json), []);
      assert.equal(renderMarkdown(throughEditor(document), {}), renderMarkdown(document, {}));
    });
  }

  it('saves a table edited in the editor as the Markdown of its cells', () => {
    const { document } = parseMarkdown(['| A | B |', '| - | - |', '| 1 | 2 |', ''].join('\n'), {});
    const json = documentToEditor(document);
    const table = json.content![0];
    // A column added at the end (as prosemirror-tables adds it: cells with default attributes), a row added, the second column centred.
    for (const row of table.content!) row.content!.push({ type: row === table.content![0] ? 'tableHeader' : 'tableCell', content: [{ type: 'text', text: row === table.content![0] ? 'C' : '3', marks: [{ type: 'bold' }] }] });
    table.content!.push({ type: 'tableRow', content: [{ type: 'tableCell', content: [{ type: 'text', text: 'x' }] }, { type: 'tableCell' }, { type: 'tableCell' }] });
    for (const row of table.content!) row.content![1].attrs = { ...row.content![1].attrs, align: 'center' };
    schema.nodeFromJSON(json).check();
    assert.equal(renderMarkdown(editorToDocument(json), {}), ['| A |  B  | C     |', '| - | :-: | ----- |', '| 1 |  2  | **3** |', '| x |     |       |', ''].join('\n'));
  });

  it('saves a block changed through its fields', () => {
    const { document } = parseMarkdown(['{% embed url="https://example.com/a" %}', ''].join('\n'), {});
    const json = documentToEditor(document);
    const block = JSON.parse(json.content![0].attrs!.block);
    block.data.url = 'https://example.com/b';
    json.content![0].attrs!.block = JSON.stringify(block);
    assert.equal(renderMarkdown(editorToDocument(json), {}), '{% embed url="https://example.com/b" %}\n');
  });

  it('checks an if block\'s condition as the server reads it', () => {
    assert.equal(conditionProblem('visitor.claims.plan == "pro"'), null);
    assert.match(conditionProblem('visitor.claims.plan ==') ?? '', /column/);
    assert.match(conditionProblem('foo.bar') ?? '', /foo/);
  });

  it('saves an emptied page as an empty document', () => {
    assert.deepEqual(editorToDocument({ type: 'doc', content: [{ type: 'paragraph' }] }).nodes, []);
  });
});
