import { callOrReturn, Extension, getExtensionField, mergeAttributes, Node, type Editor, type JSONContent } from '@tiptap/core';
import { addColumnAfter, addRowAfter, deleteColumn, deleteRow, goToNextCell, isInTable, selectedRect, tableEditing, toggleHeader } from '@tiptap/pm/tables';
import type { DocumentBlockTable, DocumentFragment, DocumentTableDefinition, DocumentTableDefinitionText, DocumentTableRecord } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { inlinesToDocument, inlinesToEditor } from '../inline.ts';
import { plainText } from '../plain-text.ts';
import { editCard, type TableMeta } from './table-card.ts';
import { cellNodeView, columnsKept, focusTypedCellAtSelection } from './table-cells.ts';
import { fitsColumn, isTyped, readColumn, readValue, writeValue } from './table-values.ts';

declare module '@tiptap/core' {
  interface NodeConfig {
    /** The node's part in a table, as prosemirror-tables reads it from the schema. */
    tableRole?: string;
  }
  interface Commands<ReturnType> {
    table: { insertTable: (options?: { rows?: number; columns?: number; cards?: boolean }) => ReturnType; alignColumn: (align: 'left' | 'center' | 'right') => ReturnType };
  }
}

/** Gives each node's `tableRole` to its ProseMirror schema, where prosemirror-tables looks for it. */
const TableRoles = Extension.create({
  name: 'tableRoles',
  extendNodeSchema(extension) {
    const context = { name: extension.name, options: extension.options, storage: extension.storage };
    return { tableRole: callOrReturn(getExtensionField(extension, 'tableRole', context)) };
  },
});

type Align = DocumentTableDefinitionText['textAlignment'];


/**
 * A cell's attributes: its column's definition (id, type, alignment) so a column keeps them through edits, and
 * in a typed column its value (table-values.ts).
 */
const cellAttributes = {
  colspan: { default: 1 },
  rowspan: { default: 1 },
  colwidth: { default: null },
  align: { default: 'left', renderHTML: () => ({}) },
  column: { default: '', renderHTML: () => ({}) },
  value: { default: '', renderHTML: () => ({}) },
};

const cell = (name: string, tag: string, role: string, typed: boolean) =>
  Node.create({
    name,
    content: 'inline*',
    tableRole: role,
    isolating: true,
    addAttributes: () => cellAttributes,
    parseHTML: () => [{ tag, getAttrs: (element) => ({ align: ['center', 'right'].includes((element as HTMLElement).getAttribute('align') ?? '') ? (element as HTMLElement).getAttribute('align') : 'left' }) }],
    renderHTML: ({ node, HTMLAttributes }) => [tag, mergeAttributes(HTMLAttributes, { class: `align-${node.attrs.align}` }), 0],
    ...(typed ? { addNodeView: () => cellNodeView } : {}),
  });

const TableCell = cell('tableCell', 'td', 'cell', true);
const TableHeader = cell('tableHeader', 'th', 'header_cell', false);

const TableRow = Node.create({
  name: 'tableRow',
  content: '(tableCell | tableHeader)+',
  tableRole: 'row',
  addAttributes() {
    // The record's values in columns the view does not show (a card's link and cover), as JSON.
    return { hidden: { default: '{}', renderHTML: () => ({}) } };
  },
  parseHTML: () => [{ tag: 'tr' }],
  renderHTML: () => ['tr', 0],
});

function runOn(editor: Editor, command: (state: Editor['state'], dispatch: Editor['view']['dispatch']) => boolean): boolean {
  return command(editor.state, editor.view.dispatch);
}

const TableNode = Node.create({
  name: 'table',
  group: 'block',
  content: 'tableRow+',
  tableRole: 'table',
  isolating: true,
  addAttributes() {
    // The view and width settings, kept as read (the columns' order is the cells').
    return { meta: { default: '{"view":{"type":"grid"}}', renderHTML: () => ({}) } };
  },
  parseHTML: () => [{ tag: 'table' }],
  renderHTML: ({ HTMLAttributes }) => ['table', mergeAttributes(HTMLAttributes, { class: 'table' }), ['tbody', 0]],
  addProseMirrorPlugins() {
    return [tableEditing(), columnsKept];
  },
  addKeyboardShortcuts() {
    return {
      // Tab goes to the next cell, and adds a row after the last; Shift-Tab goes back.
      // A typed cell reached so hands the focus to its control.
      Tab: ({ editor }) => {
        if (!isInTable(editor.state)) return false;
        const moved = runOn(editor, goToNextCell(1)) || (runOn(editor, addRowAfter) && runOn(editor, goToNextCell(1)));
        if (moved) focusTypedCellAtSelection(editor, 1);
        return moved;
      },
      'Shift-Tab': ({ editor }) => {
        const moved = isInTable(editor.state) && runOn(editor, goToNextCell(-1));
        if (moved) focusTypedCellAtSelection(editor, -1);
        return moved;
      },
    };
  },
  addCommands() {
    return {
      insertTable:
        ({ rows = 3, columns = 3, cards = false } = {}) =>
        ({ commands }) => {
          const header = { type: 'tableRow', content: Array.from({ length: columns }, (_, index) => ({ type: 'tableHeader', content: [{ type: 'text', text: cards ? ['Title', 'Description', 'More'][index] ?? `Column ${index + 1}` : `Column ${index + 1}` }] })) };
          const body = Array.from({ length: rows - 1 }, () => ({ type: 'tableRow', content: Array.from({ length: columns }, () => ({ type: 'tableCell' })) }));
          const meta = cards ? { view: { type: 'cards', cardSize: 'medium' } } : { view: { type: 'grid' } };
          return commands.insertContent({ type: 'table', attrs: { meta: JSON.stringify(meta) }, content: [header, ...body] });
        },
      alignColumn:
        (align) =>
        ({ state, dispatch }) => {
          if (!isInTable(state)) return false;
          const rect = selectedRect(state);
          if (dispatch) {
            const { tr } = state;
            for (let row = 0; row < rect.map.height; row++)
              for (let column = rect.left; column < rect.right; column++) {
                const position = rect.tableStart + rect.map.map[row * rect.map.width + column];
                tr.setNodeAttribute(position, 'align', align);
              }
            dispatch(tr);
          }
          return true;
        },
    };
  },
  addNodeView() {
    return ({ editor, node }) => {
      const dom = document.createElement('div');
      dom.className = 'table-block';
      const meta = JSON.parse(node.attrs.meta) as { view: { type: string } };
      if (editor.isEditable) {
        const toolbar = document.createElement('div');
        toolbar.className = 'table-toolbar';
        toolbar.contentEditable = 'false';
        toolbar.setAttribute('role', 'toolbar');
        toolbar.setAttribute('aria-label', meta.view.type === 'cards' ? 'Cards' : 'Table');
        const button = (label: string, run: () => boolean) => {
          const element = document.createElement('button');
          element.type = 'button';
          element.textContent = label;
          // The selection stays in the cell the person is in.
          element.addEventListener('mousedown', (event) => event.preventDefault());
          element.addEventListener('click', () => {
            run();
            editor.commands.focus();
          });
          toolbar.append(element);
        };
        button('Add row', () => runOn(editor, addRowAfter));
        button('Delete row', () => runOn(editor, deleteRow));
        button('Add column', () => runOn(editor, addColumnAfter));
        button('Delete column', () => runOn(editor, deleteColumn));
        button('Header row', () => runOn(editor, toggleHeader('row')));
        button('Align left', () => editor.commands.alignColumn('left'));
        button('Align center', () => editor.commands.alignColumn('center'));
        button('Align right', () => editor.commands.alignColumn('right'));
        if (meta.view.type === 'cards') button('Card link and cover', () => editCard(editor));
        dom.append(toolbar);
      }
      const table = document.createElement('table');
      table.className = meta.view.type === 'cards' ? 'table table-cards' : 'table';
      const contentDOM = document.createElement('tbody');
      table.append(contentDOM);
      dom.append(table);
      return {
        dom,
        contentDOM,
        stopEvent: (event) => event.target instanceof HTMLElement && event.target.closest('.table-toolbar') !== null,
        ignoreMutation: (mutation) => !contentDOM.contains(mutation.target) && mutation.target !== contentDOM,
        update: (updated) => updated.type.name === 'table' && updated.attrs.meta === node.attrs.meta,
      };
    };
  },
});

/** Row `row` of `rows` as an order index that sorts as text (as the Markdown import numbers them). */
function orderIndex(row: number, rows: number): string {
  return `a${String(row).padStart(Math.max(4, String(rows).length), '0')}`;
}

/** A column the editor shows: text, or a type it has a control for (a rating of 1 to 10 stars). */
function editableColumn(column: DocumentTableDefinition | undefined): boolean {
  if (!column) return false;
  if (column.type === 'rating') return Number.isInteger(column.max) && column.max >= 1 && column.max <= 10;
  return column.type === 'text' || isTyped(column);
}

/** Whether the editor can hold the table as a table (else it is kept whole, read-only, and written back as read). */
export function editableTable(block: DocumentBlockTable): boolean {
  const { view, definition, records } = block.data;
  if (view.type !== 'grid' && view.type !== 'cards') return false;
  // The columns shown are text or of a type the editor has a control for; a column the view hides (a card's
  // link, its cover) may be of any type.
  if (view.columns.length === 0 || new Set(view.columns).size !== view.columns.length || view.columns.some((id) => !editableColumn(definition[id]))) return false;
  if (view.type === 'grid' && Object.keys(definition).length !== view.columns.length) return false;
  const fragments = new Map(block.fragments.map((item) => [item.fragment, item]));
  const used = new Set<string>();
  for (const record of Object.values(records))
    for (const [column, value] of Object.entries(record.values)) {
      if (!(column in definition)) return false;
      if (!view.columns.includes(column)) continue;
      const typed = definition[column];
      if (isTyped(typed)) {
        if (!fitsColumn(typed, value)) return false;
        continue;
      }
      if (typeof value !== 'string') return false;
      const found = fragments.get(value);
      if (!found || found.nodes.length !== 1 || found.nodes[0].type !== 'paragraph' || used.has(value)) return false;
      used.add(value);
    }
  return used.size === block.fragments.length;
}

/**
 * `table` (a grid or cards view) ↔ a ProseMirror table: a header row of the column titles (absent when the
 * view hides it), a row per record in order. A text column's cells hold one paragraph (marks and links); a
 * typed column's cells (number, checkbox, rating, people, files, options, a link) hold the value in their
 * `value` attribute, edited with a control (table-cells.ts). A table beyond that (a cell holding a list, a
 * value of the wrong kind) is kept whole.
 */
export const table: BlockSpec = {
  documentTypes: ['table'],
  nodeNames: ['table'],
  extensions: [TableRoles, TableNode, TableRow, TableCell, TableHeader],
  toEditor(document) {
    const block = document as DocumentBlockTable;
    if (!editableTable(block)) return null;
    const { view, definition, records, fullWidth } = block.data;
    const hideHeader = view.type === 'grid' && view.hideHeader;
    const ordered = Object.entries(records).sort(([idA, a], [idB, b]) => (a.orderIndex < b.orderIndex ? -1 : a.orderIndex > b.orderIndex ? 1 : idA < idB ? -1 : idA > idB ? 1 : 0));
    if (hideHeader && ordered.length === 0) return null;
    const attrsOf = (id: string) => ({ align: definition[id].type === 'text' ? definition[id].textAlignment : 'left', column: JSON.stringify(definition[id]) });
    const fragments = new Map(block.fragments.map((item) => [item.fragment, item]));
    const rows: JSONContent[] = [];
    if (!hideHeader) rows.push({ type: 'tableRow', content: view.columns.map((id) => ({ type: 'tableHeader', attrs: attrsOf(id), content: definition[id].title ? [{ type: 'text', text: definition[id].title }] : [] })) });
    const hiddenIds = Object.keys(definition).filter((id) => !view.columns.includes(id));
    for (const [, record] of ordered) {
      const hidden = Object.fromEntries(hiddenIds.filter((id) => record.values[id] !== undefined).map((id) => [id, record.values[id]]));
      rows.push({
        type: 'tableRow',
        attrs: { hidden: JSON.stringify(hidden) },
        content: view.columns.map((id) => {
          const value = record.values[id];
          if (isTyped(definition[id])) return { type: 'tableCell', attrs: { ...attrsOf(id), value: writeValue(value) } };
          const paragraph = typeof value === 'string' ? fragments.get(value)?.nodes[0] : undefined;
          const content = paragraph && paragraph.type === 'paragraph' ? inlinesToEditor(paragraph.nodes) : [];
          return { type: 'tableCell', attrs: attrsOf(id), content };
        }),
      });
    }
    const { columns: _columns, ...viewRest } = view;
    const meta: Record<string, unknown> = { view: viewRest };
    if (hiddenIds.length) meta.hidden = hiddenIds.map((id) => definition[id]);
    if (fullWidth !== undefined) meta.fullWidth = fullWidth;
    return { type: 'table', attrs: { meta: JSON.stringify(meta) }, content: rows };
  },
  toDocument(node) {
    const meta = JSON.parse(String(node.attrs?.meta ?? '{}')) as TableMeta;
    const hiddenDefinitions = meta.hidden ?? [];
    const rows = node.content ?? [];
    const headerRow = rows[0] && (rows[0].content ?? []).every((cell) => cell.type === 'tableHeader') ? rows[0] : null;
    const bodyRows = headerRow ? rows.slice(1) : rows;
    const width = Math.max(0, ...rows.map((row) => row.content?.length ?? 0));
    const definition: DocumentBlockTable['data']['definition'] = {};
    const columns: string[] = [];
    for (let index = 0; index < width; index++) {
      const cells = rows.map((row) => row.content?.[index]).filter((cell): cell is JSONContent => cell !== undefined);
      const kept = cells.map((cell) => String(cell.attrs?.column ?? '')).find(Boolean);
      const before = readColumn(kept);
      const taken = (id: string) => columns.includes(id) || hiddenDefinitions.some((hidden) => hidden.id === id);
      let id = before && !taken(before.id) ? before.id : `c${index}`;
      for (let n = width; taken(id); n++) id = `c${n}`;
      const headerCell = headerRow?.content?.[index];
      const title = headerCell ? plainText(inlinesToDocument(headerCell.content)) : (before?.title ?? '');
      columns.push(id);
      if (isTyped(before)) {
        definition[id] = { ...before, id, title };
        continue;
      }
      const align = (cells[0]?.attrs?.align ?? 'left') as Align;
      const column: DocumentTableDefinitionText = { id, title, type: 'text', textAlignment: align };
      if (before?.type === 'text' && before.verticalAlignment) column.verticalAlignment = before.verticalAlignment;
      definition[id] = column;
    }
    for (const hidden of hiddenDefinitions) definition[hidden.id] = hidden;
    const records: Record<string, DocumentTableRecord> = {};
    const fragments: DocumentFragment[] = [];
    bodyRows.forEach((row, rowIndex) => {
      const values: DocumentTableRecord['values'] = {};
      const hidden = JSON.parse(String(row.attrs?.hidden ?? '{}')) as DocumentTableRecord['values'];
      for (const definitionOf of hiddenDefinitions) if (hidden[definitionOf.id] !== undefined) values[definitionOf.id] = hidden[definitionOf.id];
      (row.content ?? []).forEach((cellNode, columnIndex) => {
        if (isTyped(definition[columns[columnIndex]])) {
          const value = readValue(cellNode.attrs?.value);
          if (value !== undefined) values[columns[columnIndex]] = value;
          return;
        }
        const nodes = inlinesToDocument(cellNode.content);
        if (plainText(nodes) === '' && nodes.every((item) => item.object === 'text')) return;
        const name = `r${rowIndex}c${columnIndex}`;
        values[columns[columnIndex]] = name;
        fragments.push({ object: 'fragment', fragment: name, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes }] });
      });
      records[`r${rowIndex}`] = { orderIndex: orderIndex(rowIndex, bodyRows.length), values };
    });
    const titles = columns.map((id) => definition[id].title);
    const view =
      meta.view.type === 'cards'
        ? ({ ...meta.view, type: 'cards', columns } as DocumentBlockTable['data']['view'])
        : ({ ...meta.view, type: 'grid', columns, hideHeader: !headerRow || titles.every((title) => title === '') } as DocumentBlockTable['data']['view']);
    const data: DocumentBlockTable['data'] = { view, records, definition };
    if (meta.fullWidth !== undefined) data.fullWidth = meta.fullWidth;
    return { object: 'block', type: 'table', data, fragments, isVoid: true };
  },
};
