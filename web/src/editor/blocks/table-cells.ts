import type { Editor } from '@tiptap/core';
import type { Node as PMNode } from '@tiptap/pm/model';
import { Plugin, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';
import type { EditorView, NodeView } from '@tiptap/pm/view';
import { placeData } from '../place.ts';
import { cellControl } from './table-controls.ts';
import { isTyped, readColumn, readValue, writeValue } from './table-values.ts';

/**
 * The cells of a table in the editor. A cell of a text column holds its text (inline content); a cell of a
 * typed column holds no content: its value is in its `value` attribute and shown by a control fitting the
 * column's type (table-controls.ts). Tab and Shift-Tab go from cell to cell, through a typed cell's controls.
 */

type GetPos = () => number | undefined;

const CONTROLS = 'input, select, button';

/** The position of the cell after (or before) the one at `cellPos` in its table, reading rows in order. */
function neighbourCell(doc: PMNode, cellPos: number, direction: 1 | -1): number | null {
  const $cell = doc.resolve(cellPos);
  const table = $cell.node($cell.depth - 1);
  const tableStart = $cell.start($cell.depth - 1);
  const cells: number[] = [];
  table.forEach((row, rowOffset) => row.forEach((_, cellOffset) => cells.push(tableStart + rowOffset + 1 + cellOffset)));
  const index = cells.indexOf(cellPos) + direction;
  return index >= 0 && index < cells.length ? cells[index] : null;
}

/** Puts the person in the cell at `cellPos`: its control's first (or last) field, or its text. */
export function enterCell(editor: Editor, cellPos: number, direction: 1 | -1): boolean {
  const cell = editor.state.doc.nodeAt(cellPos);
  if (!cell) return false;
  if (isTyped(readColumn(cell.attrs.column)) && cell.type.name === 'tableCell') {
    const dom = editor.view.nodeDOM(cellPos) as HTMLElement | null;
    const controls = [...(dom?.querySelectorAll<HTMLElement>(CONTROLS) ?? [])].filter((control) => !(control as HTMLButtonElement).disabled);
    const target = direction === 1 ? controls[0] : controls[controls.length - 1];
    if (!target) return false;
    editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, cellPos + 1)));
    target.focus();
    return true;
  }
  // The cell's text selected, as Tab between text cells does.
  editor.view.dispatch(editor.state.tr.setSelection(TextSelection.create(editor.state.doc, cellPos + 1, cellPos + cell.nodeSize - 1)).scrollIntoView());
  editor.view.focus();
  return true;
}

/** After the cursor moved into a cell (Tab), a typed cell hands the focus to its control. */
export function focusTypedCellAtSelection(editor: Editor, direction: 1 | -1): void {
  const { $from } = editor.state.selection;
  for (let depth = $from.depth; depth > 0; depth--) {
    const node = $from.node(depth);
    if (node.type.name === 'tableCell') {
      if (isTyped(readColumn(node.attrs.column))) enterCell(editor, $from.before(depth), direction);
      return;
    }
  }
}

const editableWatchers = new WeakMap<Editor, Set<(editable: boolean) => void>>();

/**
 * Calls `callback` when the editor becomes editable or read-only (a live page is read-only until it is in
 * step): ProseMirror redraws no node view then, but sets the body's `contenteditable`, which one observer per
 * editor watches. Answers the function that stops the watch.
 */
function watchEditable(editor: Editor, view: EditorView, callback: (editable: boolean) => void): () => void {
  let watchers = editableWatchers.get(editor);
  if (!watchers) {
    const all = new Set<(editable: boolean) => void>();
    new MutationObserver(() => all.forEach((watcher) => watcher(view.editable))).observe(view.dom, { attributes: true, attributeFilter: ['contenteditable'] });
    editableWatchers.set(editor, all);
    watchers = all;
  }
  watchers.add(callback);
  const set = watchers;
  return () => void set.delete(callback);
}

function setCellAttributes(dom: HTMLElement, node: PMNode): void {
  for (const name of ['colspan', 'rowspan'] as const) {
    if (node.attrs[name] !== 1) dom.setAttribute(name, String(node.attrs[name]));
    else dom.removeAttribute(name);
  }
}

/** The label of a typed cell: its column's title and its row (as "Count, row 2"). */
function labelOf(view: EditorView, getPos: GetPos, title: string): string {
  const pos = getPos();
  if (typeof pos !== 'number') return title;
  const $cell = view.state.doc.resolve(pos);
  // Rows count from the first record: a header row is not one.
  const headed = $cell.node($cell.depth - 1).firstChild?.firstChild?.type.name === 'tableHeader';
  return `${title}, row ${$cell.index($cell.depth - 1) + (headed ? 0 : 1)}`;
}

/** The node view of `tableCell`: a text cell as before, a typed cell with its control. */
export function cellNodeView({ editor, view, node: first, getPos }: { editor: Editor; view: EditorView; node: PMNode; getPos: GetPos }): NodeView {
  let node = first;
  const dom = document.createElement('td');
  setCellAttributes(dom, node);
  const column = readColumn(node.attrs.column);
  if (!isTyped(column)) {
    dom.className = `align-${node.attrs.align}`;
    return {
      dom,
      contentDOM: dom,
      update(updated) {
        if (updated.type !== node.type || isTyped(readColumn(updated.attrs.column))) return false;
        node = updated;
        dom.className = `align-${node.attrs.align}`;
        setCellAttributes(dom, node);
        return true;
      },
    };
  }
  dom.className = `typed-cell typed-cell-${column.type}`;
  dom.contentEditable = 'false';
  const title = column.title || column.type;
  const control = cellControl({
    column,
    data: placeData(editor),
    editable: () => view.editable,
    commit(value) {
      const pos = getPos();
      if (typeof pos !== 'number' || !view.editable) return;
      view.dispatch(view.state.tr.setNodeAttribute(pos, 'value', writeValue(value)));
    },
  });
  dom.append(control.dom);
  const stopWatching = watchEditable(editor, view, (editable) => {
    for (const item of dom.querySelectorAll<HTMLInputElement>(CONTROLS)) item.disabled = !editable;
  });
  control.set(readValue(node.attrs.value), labelOf(view, getPos, title));
  // The cursor follows the focus into the cell, so the table's toolbar acts on its row and column.
  dom.addEventListener('focusin', () => {
    // Rows added or deleted above leave this cell's view as it was: its label is brought up to date.
    control.set(readValue(node.attrs.value), labelOf(view, getPos, title));
    const pos = getPos();
    if (typeof pos !== 'number' || !view.editable) return;
    if (view.state.selection.$from.pos === pos + 1) return;
    view.dispatch(view.state.tr.setSelection(TextSelection.create(view.state.doc, pos + 1)));
  });
  // Tab from the cell's last field goes to the next cell (Shift-Tab from its first, to the previous one).
  dom.addEventListener('keydown', (event) => {
    if (event.key !== 'Tab' || event.altKey || event.ctrlKey || event.metaKey) return;
    const controls = [...dom.querySelectorAll<HTMLElement>(CONTROLS)].filter((item) => !(item as HTMLButtonElement).disabled);
    const at = controls.indexOf(event.target as HTMLElement);
    const direction = event.shiftKey ? -1 : 1;
    if (at + direction >= 0 && at + direction < controls.length) return;
    const pos = getPos();
    if (typeof pos !== 'number') return;
    const next = neighbourCell(view.state.doc, pos, direction);
    if (next !== null && enterCell(editor, next, direction)) event.preventDefault();
  });
  return {
    dom,
    update(updated) {
      if (updated.type !== node.type || updated.attrs.column !== node.attrs.column) return false;
      node = updated;
      setCellAttributes(dom, node);
      control.set(readValue(node.attrs.value), labelOf(view, getPos, title));
      return true;
    },
    stopEvent: () => true,
    ignoreMutation: () => true,
    destroy: stopWatching,
  };
}

/**
 * The ranges of the last state's document the transactions changed: each step's changed range, mapped
 * through the steps after it (of its transaction and the next ones). A deletion leaves an empty range.
 */
export function changedRanges(transactions: readonly Transaction[]): Array<[number, number]> {
  const maps = transactions.flatMap((transaction) => transaction.mapping.maps);
  const ranges: Array<[number, number]> = [];
  maps.forEach((map, index) =>
    map.forEach((_oldStart, _oldEnd, newStart, newEnd) => {
      let from = newStart;
      let to = newEnd;
      for (let next = index + 1; next < maps.length; next++) {
        from = maps[next]!.map(from, -1);
        to = maps[next]!.map(to, 1);
      }
      ranges.push([from, Math.max(from, to)]);
    }),
  );
  return ranges;
}

/**
 * Cells added by the table's commands (a row, a column) have no column definition: a cell in a column that
 * has one takes it (its type, alignment, id), so a new row's cells get the column's control. Only the tables
 * the transactions touched are read (those overlapping or holding a changed range): a keystroke elsewhere on
 * a long page reads no table and walks no other block.
 */
export const columnsKept = new Plugin({
  appendTransaction(transactions: readonly Transaction[], _old: EditorState, state: EditorState) {
    if (!transactions.some((transaction) => transaction.docChanged)) return null;
    let tr: Transaction | null = null;
    const seen = new Set<number>();
    const size = state.doc.content.size;
    const keep = (table: PMNode, tablePos: number): boolean => {
      if (table.type.name !== 'table') return !table.inlineContent;
      if (seen.has(tablePos)) return false;
      seen.add(tablePos);
      const columns: Array<{ column: string; align: string } | undefined> = [];
      table.forEach((row) =>
        row.forEach((cell, _, index) => {
          if (!columns[index] && cell.attrs.column) columns[index] = { column: cell.attrs.column, align: cell.attrs.align };
        }),
      );
      table.forEach((row, rowOffset) =>
        row.forEach((cell, cellOffset, index) => {
          const kept = columns[index];
          if (cell.attrs.column || !kept) return;
          tr ??= state.tr;
          tr.setNodeMarkup(tablePos + 1 + rowOffset + 1 + cellOffset, undefined, { ...cell.attrs, column: kept.column, align: kept.align });
        }),
      );
      return false;
    };
    // A range's nodes and the nodes holding it: an empty range (a deletion) still reaches the table around it.
    for (const [from, to] of changedRanges(transactions)) state.doc.nodesBetween(Math.max(0, Math.min(from, size)), Math.max(0, Math.min(to, size)), keep);
    return tr;
  },
});
