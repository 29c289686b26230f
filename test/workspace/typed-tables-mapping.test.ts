import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { getSchema, type JSONContent } from '@tiptap/core';
import { parseMarkdown, renderMarkdown } from '../../src/content/markdown/index.ts';
import type { Document } from '../../src/content/markdown/types.ts';
import { documentToEditor, editorToDocument } from '../../web/src/editor/convert.ts';
import { schemaExtensions } from '../../web/src/editor/schema.ts';
import { columnsKept } from '../../web/src/editor/blocks/table-cells.ts';
import { EditorState } from '@tiptap/pm/state';
import type { Node as PMNode } from '@tiptap/pm/model';

/**
 * Tables with typed columns (numbers, checkboxes, ratings, people, files, options, links) in the editor:
 * `toEditor` gives a table whose typed cells hold their value, `toDocument` gives the document back, so an
 * untouched table writes the same Markdown, an edited one writes what importing that Markdown gives, and a
 * table the editor cannot hold is kept whole.
 */
const schema = getSchema(schemaExtensions());

const HEAD =
  '<th>Name</th><th data-type="number">Count</th><th data-type="checkbox">Done</th><th data-type="rating" data-max="5">Score</th>' +
  '<th data-type="users">Owner</th><th data-type="files">Attachment</th>' +
  '<th data-type="select">Stage<select><option value="a1" label="Alpha" color="blue"></option><option value="b2" label="Beta" color="red"></option></select></th>' +
  '<th data-type="content-ref">Link</th>';
const ROWS =
  '<tr><td>First <strong>one</strong></td><td>3</td><td>true</td><td>4</td><td>u1, u2</td><td><a href="files/f1">f1</a></td><td><span data-option="a1">Alpha</span></td><td><a href="https://example.com">example.com</a></td></tr>' +
  '<tr><td>Second</td><td></td><td>false</td><td></td><td></td><td></td><td></td><td></td></tr>';
const TYPED = `Before\n\n<table><thead><tr>${HEAD}</tr></thead><tbody>${ROWS}</tbody></table>\n\nAfter\n`;

const read = (markdown: string) => parseMarkdown(markdown, {}).document;
const write = (document: Document) => renderMarkdown(document, {});

function tableNode(json: JSONContent): JSONContent {
  const found = (json.content ?? []).find((node) => node.type === 'table' || node.type === 'opaqueBlock');
  assert.ok(found, JSON.stringify(json));
  return found;
}

function cellsOf(table: JSONContent): JSONContent[][] {
  return (table.content ?? []).map((row) => row.content ?? []);
}

describe('typed table columns in the editor', () => {
  it('opens a table of every column type as an editable table, each typed cell holding its value', () => {
    const json = documentToEditor(read(TYPED));
    schema.nodeFromJSON(json).check();
    const table = tableNode(json);
    assert.equal(table.type, 'table');
    const [header, first, second] = cellsOf(table);
    assert.deepEqual(header.map((cell) => JSON.parse(cell.attrs!.column).type), ['text', 'number', 'checkbox', 'rating', 'users', 'files', 'select', 'content-ref']);
    assert.deepEqual(first.slice(1).map((cell) => cell.attrs!.value), ['3', 'true', '4', '["u1","u2"]', '["f1"]', '["a1"]', '{"kind":"url","url":"https://example.com"}']);
    assert.deepEqual(second.slice(1).map((cell) => cell.attrs!.value), ['', 'false', '', '', '', '', '']);
    // A typed cell has no text of its own; a text cell keeps its marks.
    assert.ok(first.slice(1).every((cell) => (cell.content ?? []).length === 0));
    assert.deepEqual(first[0].content?.[1], { type: 'text', text: 'one', marks: [{ type: 'bold' }] });
  });

  it('saves an untouched typed table as the same Markdown', () => {
    const document = read(TYPED);
    assert.equal(write(editorToDocument(documentToEditor(document), document)), write(document));
  });

  it('saves edited values of each type, a row added and a row deleted, as what importing that Markdown gives', () => {
    const document = read(TYPED);
    const json = documentToEditor(document);
    const table = tableNode(json);
    const [, first, second] = cellsOf(table);
    const set = (cells: JSONContent[], index: number, value: string) => (cells[index].attrs = { ...cells[index].attrs, value });
    set(first, 1, '12.5');
    set(first, 2, 'false');
    set(first, 3, '2');
    set(first, 4, '["u2"]');
    set(first, 5, '["f1","f2"]');
    set(first, 6, '["b2"]');
    set(first, 7, '{"kind":"page","page":"p1"}');
    // A row added by the table's commands: cells without their column's definition (the column gives it).
    table.content!.push({ type: 'tableRow', content: [{ type: 'tableCell', content: [{ type: 'text', text: 'Third' }] }, { type: 'tableCell', attrs: { value: '7' } }, { type: 'tableCell', attrs: { value: 'true' } }, ...Array.from({ length: 5 }, () => ({ type: 'tableCell' }))] });
    // The second row deleted.
    table.content!.splice(table.content!.indexOf(table.content!.find((row) => row.content === second)!), 1);
    schema.nodeFromJSON(json).check();
    const markdown = write(editorToDocument(json, document));
    const rows =
      '<tr><td>First <strong>one</strong></td><td>12.5</td><td>false</td><td>2</td><td>u2</td><td><a href="files/f1">f1</a><a href="files/f2">f2</a></td><td><span data-option="b2">Beta</span></td><td><a href="pages/p1">p1</a></td></tr>' +
      '<tr><td>Third</td><td>7</td><td>true</td><td></td><td></td><td></td><td></td><td></td></tr>';
    assert.equal(markdown, `Before\n\n<table><thead><tr>${HEAD}</tr></thead><tbody>${rows}</tbody></table>\n\nAfter\n`);
    assert.equal(write(read(markdown)), markdown);
  });

  it('clears a value emptied in the editor, and keeps a column title edited', () => {
    const document = read(TYPED);
    const json = documentToEditor(document);
    const [header, first] = cellsOf(tableNode(json));
    for (const cell of first.slice(1)) cell.attrs = { ...cell.attrs, value: '' };
    header[1].content = [{ type: 'text', text: 'Total' }];
    const saved = editorToDocument(json, document);
    const table = saved.nodes[1] as Extract<Document['nodes'][number], { type: 'table' }>;
    assert.deepEqual(Object.keys(table.data.records.r0.values), ['c0']);
    assert.deepEqual(table.data.definition.c1, { id: 'c1', title: 'Total', type: 'number' });
    assert.equal(write(read(write(saved))), write(saved));
  });

  it('keeps a cards view with a typed column and its hidden link and cover', () => {
    const markdown = '<table data-view="cards"><thead><tr><th></th><th data-type="number">Price</th><th data-hidden data-card-target data-type="content-ref"></th><th data-hidden data-card-cover data-type="files"></th></tr></thead><tbody><tr><td><strong>Plan</strong></td><td>10</td><td><a href="https://example.com">example.com</a></td><td><a href="files/f1">f1</a></td></tr></tbody></table>\n';
    const document = read(markdown);
    const json = documentToEditor(document);
    assert.equal(tableNode(json).type, 'table');
    const [, row] = cellsOf(tableNode(json));
    row[1].attrs = { ...row[1].attrs, value: '12' };
    assert.equal(write(editorToDocument(json, document)), markdown.replace('<td>10</td>', '<td>12</td>'));
  });

  for (const [name, markdown] of [
    ['a text cell holding a list', '<table><thead><tr><th>A</th><th data-type="number">N</th></tr></thead><tbody><tr><td><ul><li>one</li><li>two</li></ul></td><td>1</td></tr></tbody></table>\n'],
    ['a rating of more than ten stars', '<table><thead><tr><th>A</th><th data-type="rating" data-max="20">R</th></tr></thead><tbody><tr><td>a</td><td>15</td></tr></tbody></table>\n'],
  ] as const) {
    it(`keeps a table with ${name} whole, and writes it back as read`, () => {
      const document = read(markdown);
      const json = documentToEditor(document);
      assert.equal(tableNode(json).type, 'opaqueBlock');
      assert.equal(write(editorToDocument(json, document)), markdown);
    });
  }

  it('keeps a typed column holding a value of another kind whole', () => {
    const document = read('<table><thead><tr><th>A</th><th data-type="number">N</th></tr></thead><tbody><tr><td>a</td><td>1</td></tr></tbody></table>\n');
    const table = document.nodes[0] as Extract<Document['nodes'][number], { type: 'table' }>;
    table.data.records.r0.values.c1 = 'not a number';
    assert.equal(tableNode(documentToEditor(document)).type, 'opaqueBlock');
  });

  it('gives the cells of a row added far down the page their column, the table shifted by a later step', () => {
    const paragraphs = Array.from({ length: 50 }, (_, index) => `Paragraph ${index}`).join('\n\n');
    const doc = schema.nodeFromJSON(documentToEditor(read(`${paragraphs}\n\n${TYPED}`)));
    let state = EditorState.create({ schema, doc, plugins: [columnsKept] });
    let tablePos = -1;
    state.doc.forEach((node, offset) => {
      if (node.type.name === 'table') tablePos = offset;
    });
    const table = state.doc.nodeAt(tablePos)!;
    const header = table.child(0);
    const columns = (row: PMNode) => Array.from({ length: row.childCount }, (_, index) => row.child(index).attrs.column as string);
    // A row of cells without their column's definition, as the table's commands add it, at the table's end;
    // then text typed in the first paragraph, which moves the table: the row's range is mapped through it.
    // The text is longer than the page before the table: a range left unmapped would miss the table.
    const typed = 'x'.repeat(tablePos + table.nodeSize);
    const row = schema.nodes.tableRow!.create(null, Array.from({ length: header.childCount }, () => schema.nodes.tableCell!.create()));
    const tr = state.tr.insert(tablePos + table.nodeSize - 1, row).insertText(typed, 1);
    assert.deepEqual(columns(tr.doc.nodeAt(tablePos + typed.length)!.lastChild!), Array(header.childCount).fill(''));
    state = state.applyTransaction(tr).state;
    const after = state.doc.nodeAt(tablePos + typed.length)!;
    assert.equal(after.type.name, 'table');
    assert.deepEqual(columns(after.lastChild!), columns(header));
    assert.ok(columns(header).filter(Boolean).length >= 7, JSON.stringify(columns(header)));
  });
});

