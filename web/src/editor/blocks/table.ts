import { callOrReturn, Extension, getExtensionField, mergeAttributes, Node, type Editor, type JSONContent } from '@tiptap/core';
import { addColumnAfter, addRowAfter, deleteColumn, deleteRow, goToNextCell, isInTable, selectedRect, tableEditing, toggleHeader } from '@tiptap/pm/tables';
import type { ContentRef, DocumentBlockTable, DocumentFragment, DocumentTableDefinition, DocumentTableDefinitionText, DocumentTableRecord } from '../../../../src/content/markdown/types.ts';
import type { BlockSpec } from '../block-spec.ts';
import { inlinesToDocument, inlinesToEditor } from '../inline.ts';
import { plainText } from '../plain-text.ts';
import { askForm } from '../dialog.ts';
import { focusEditor } from '../editor-focus.ts';
import { placeData } from '../place.ts';

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

/** What the table node keeps beside its cells: the view's settings, the width, the hidden columns' definitions. */
interface TableMeta {
  view: Record<string, unknown> & { type: string; targetDefinition?: string; coverDefinition?: string };
  fullWidth?: boolean;
  hidden?: DocumentTableDefinition[];
}

/** A cell's attributes: its column's definition (id, alignment) so a column keeps them through edits. */
const cellAttributes = {
  colspan: { default: 1 },
  rowspan: { default: 1 },
  colwidth: { default: null },
  align: { default: 'left', renderHTML: () => ({}) },
  column: { default: '', renderHTML: () => ({}) },
};

const cell = (name: string, tag: string, role: string) =>
  Node.create({
    name,
    content: 'inline*',
    tableRole: role,
    isolating: true,
    addAttributes: () => cellAttributes,
    parseHTML: () => [{ tag, getAttrs: (element) => ({ align: ['center', 'right'].includes((element as HTMLElement).getAttribute('align') ?? '') ? (element as HTMLElement).getAttribute('align') : 'left' }) }],
    renderHTML: ({ node, HTMLAttributes }) => [tag, mergeAttributes(HTMLAttributes, { class: `align-${node.attrs.align}` }), 0],
  });

const TableCell = cell('tableCell', 'td', 'cell');
const TableHeader = cell('tableHeader', 'th', 'header_cell');

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
    return [tableEditing()];
  },
  addKeyboardShortcuts() {
    return {
      // Tab goes to the next cell, and adds a row after the last; Shift-Tab goes back.
      Tab: ({ editor }) => {
        if (!isInTable(editor.state)) return false;
        if (runOn(editor, goToNextCell(1))) return true;
        return runOn(editor, addRowAfter) && runOn(editor, goToNextCell(1));
      },
      'Shift-Tab': ({ editor }) => isInTable(editor.state) && runOn(editor, goToNextCell(-1)),
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

/**
 * The card the cursor is in: its link (a page of the space, or an address) and its cover (a picture of the
 * space's files), the cards view's target and cover columns, made when first used.
 */
function editCard(editor: Editor): boolean {
  const { $from } = editor.state.selection;
  let depth = $from.depth;
  while (depth > 0 && $from.node(depth).type.name !== 'tableRow') depth--;
  if (depth === 0) return false;
  const rowPosition = $from.before(depth);
  const tablePosition = $from.before(depth - 1);
  const row = $from.node(depth);
  const tableNode = $from.node(depth - 1);
  const meta = JSON.parse(tableNode.attrs.meta) as TableMeta;
  const values = JSON.parse(row.attrs.hidden) as DocumentTableRecord['values'];
  const target = meta.view.targetDefinition ? (values[meta.view.targetDefinition] as ContentRef | undefined) : undefined;
  const cover = meta.view.coverDefinition ? (values[meta.view.coverDefinition] as string[] | undefined) : undefined;
  const data = placeData(editor);
  void askForm(
    'Card',
    [
      { name: 'page', label: 'Link to page', kind: 'select', value: target?.kind === 'page' ? target.page : '', choices: async () => [{ label: '(an address, or none)', value: '' }, ...(data ? await data.pages() : [])] },
      { name: 'url', label: 'Or an address', kind: 'url', value: target?.kind === 'url' ? target.url : '' },
      {
        name: 'cover',
        label: 'Cover picture',
        kind: 'select',
        value: cover?.[0] ?? '',
        choices: async () => [{ label: '(none)', value: '' }, ...(data ? (await data.files()).filter((file) => file.contentType.startsWith('image/')).map((file) => ({ label: file.name, value: file.id })) : cover?.[0] ? [{ label: cover[0], value: cover[0] }] : [])],
      },
    ],
    'Apply',
    () => focusEditor(editor),
  ).then((answer) => {
    if (!answer) return void editor.commands.focus();
    const hidden = [...(meta.hidden ?? [])];
    const view = { ...meta.view };
    if (!view.targetDefinition) {
      view.targetDefinition = 'target';
      hidden.push({ id: 'target', title: '', type: 'content-ref' });
    }
    if (!view.coverDefinition) {
      view.coverDefinition = 'cover';
      hidden.push({ id: 'cover', title: '', type: 'files' });
    }
    const next = { ...values };
    const link: ContentRef | null = answer.page ? { kind: 'page', page: String(answer.page) } : String(answer.url ?? '').trim() ? { kind: 'url', url: String(answer.url).trim() } : null;
    if (link) next[view.targetDefinition] = link;
    else delete next[view.targetDefinition];
    if (answer.cover) next[view.coverDefinition] = [String(answer.cover)];
    else delete next[view.coverDefinition];
    editor.view.dispatch(
      editor.state.tr.setNodeAttribute(rowPosition, 'hidden', JSON.stringify(next)).setNodeAttribute(tablePosition, 'meta', JSON.stringify({ ...meta, view, hidden })),
    );
    editor.commands.focus();
  });
  return true;
}

/** Row `row` of `rows` as an order index that sorts as text (as the Markdown import numbers them). */
function orderIndex(row: number, rows: number): string {
  return `a${String(row).padStart(Math.max(4, String(rows).length), '0')}`;
}

function editableTable(block: DocumentBlockTable): boolean {
  const { view, definition, records } = block.data;
  if (view.type !== 'grid' && view.type !== 'cards') return false;
  // The columns shown are text; a column the view hides (a card's link, its cover) may be of any type.
  if (view.columns.length === 0 || new Set(view.columns).size !== view.columns.length || view.columns.some((id) => definition[id]?.type !== 'text')) return false;
  if (view.type === 'grid' && Object.keys(definition).length !== view.columns.length) return false;
  const fragments = new Map(block.fragments.map((item) => [item.fragment, item]));
  const used = new Set<string>();
  for (const record of Object.values(records))
    for (const [column, value] of Object.entries(record.values)) {
      if (!(column in definition)) return false;
      if (!view.columns.includes(column)) continue;
      if (typeof value !== 'string') return false;
      const found = fragments.get(value);
      if (!found || found.nodes.length !== 1 || found.nodes[0].type !== 'paragraph' || used.has(value)) return false;
      used.add(value);
    }
  return used.size === block.fragments.length;
}

/**
 * `table` (a grid or cards view of text columns, each cell a paragraph) ↔ a ProseMirror table: a header row of
 * the column titles (absent when the view hides it), a row per record in order, cells with marks and links.
 * A table with other columns (numbers, files, people…) is kept whole.
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
    const attrsOf = (id: string) => ({ align: (definition[id] as DocumentTableDefinitionText).textAlignment, column: JSON.stringify(definition[id]) });
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
      const before = kept ? (JSON.parse(kept) as DocumentTableDefinitionText) : null;
      const taken = (id: string) => columns.includes(id) || hiddenDefinitions.some((hidden) => hidden.id === id);
      let id = before && !taken(before.id) ? before.id : `c${index}`;
      for (let n = width; taken(id); n++) id = `c${n}`;
      const headerCell = headerRow?.content?.[index];
      const title = headerCell ? plainText(inlinesToDocument(headerCell.content)) : (before?.title ?? '');
      const align = (cells[0]?.attrs?.align ?? 'left') as Align;
      const column: DocumentTableDefinitionText = { id, title, type: 'text', textAlignment: align };
      if (before?.verticalAlignment) column.verticalAlignment = before.verticalAlignment;
      definition[id] = column;
      columns.push(id);
    }
    for (const hidden of hiddenDefinitions) definition[hidden.id] = hidden;
    const records: Record<string, DocumentTableRecord> = {};
    const fragments: DocumentFragment[] = [];
    bodyRows.forEach((row, rowIndex) => {
      const values: DocumentTableRecord['values'] = {};
      const hidden = JSON.parse(String(row.attrs?.hidden ?? '{}')) as DocumentTableRecord['values'];
      for (const definitionOf of hiddenDefinitions) if (hidden[definitionOf.id] !== undefined) values[definitionOf.id] = hidden[definitionOf.id];
      (row.content ?? []).forEach((cellNode, columnIndex) => {
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
