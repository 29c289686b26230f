import type { Node as PMNode } from '@tiptap/pm/model';
import { closeHistory } from '@tiptap/pm/history';
import { NodeSelection, Selection, TextSelection, type EditorState, type Transaction } from '@tiptap/pm/state';

/**
 * What the block handle and its shortcuts do (decision 0129): each acts on a top-level block of the page, the
 * container with everything in it (a tab set, columns, an expandable, a list, a read-only block the editor cannot
 * change), in one transaction, so one step of undo takes it back and live co-editing sends it as one delete and
 * one insert. The transaction closes the history group on both sides: typing just before or after is its own step.
 */

/** The position before the top-level block at `index` (the document's size for the end). */
export function blockStart(doc: PMNode, index: number): number {
  return doc.resolve(0).posAtIndex(index, 0);
}

/** The top-level block the selection starts in. */
export function selectedBlock(state: EditorState): number {
  return Math.min(state.selection.$from.index(0), state.doc.childCount - 1);
}

/** A selection in the block now at `start`: where the caret was in it when it was inside, else its start. */
function selectionAfter(tr: Transaction, node: PMNode, start: number, before: Selection | null, oldStart: number): Selection {
  if (before instanceof NodeSelection && before.from === oldStart) return NodeSelection.create(tr.doc, start);
  if (before instanceof TextSelection) {
    const anchor = before.anchor - oldStart + start;
    const head = before.head - oldStart + start;
    return TextSelection.create(tr.doc, anchor, head);
  }
  if (node.isAtom || !node.isTextblock && node.firstChild === null) return NodeSelection.create(tr.doc, start);
  return Selection.near(tr.doc.resolve(start + 1));
}

/** Whether the selection lies wholly inside the block from `from` to `to`. */
function inside(selection: Selection, from: number, to: number): boolean {
  return selection.from > from && selection.to < to || (selection instanceof NodeSelection && selection.from === from);
}

/**
 * A new copy of the block, down to its text. Live co-editing's binding (y-prosemirror) pairs the shared
 * document's elements with the editor's nodes by identity: the same node objects put back at another place
 * are taken for the ones already there, and what they hold is lost in the shared document. New nodes are
 * written as new elements: one delete and one insert.
 */
function fresh(state: EditorState, node: PMNode): PMNode {
  return state.schema.nodeFromJSON(node.toJSON());
}

function finish(tr: Transaction): Transaction {
  closeHistory(tr);
  tr.setMeta('blockMove', true);
  return tr.scrollIntoView();
}

/**
 * Moves the top-level block at `index` to the gap `gap` (0: before the first block; the block count: after the
 * last). Null when it would not move.
 */
export function moveBlock(state: EditorState, index: number, gap: number): Transaction | null {
  const { doc } = state;
  if (index < 0 || index >= doc.childCount || gap < 0 || gap > doc.childCount || gap === index || gap === index + 1) return null;
  const node = doc.child(index);
  const from = blockStart(doc, index);
  const to = from + node.nodeSize;
  const keep = inside(state.selection, from, to) ? state.selection : null;
  const target = gap > index ? blockStart(doc, gap) - node.nodeSize : blockStart(doc, gap);
  const tr = state.tr.delete(from, to).insert(target, fresh(state, node));
  tr.setSelection(selectionAfter(tr, node, target, keep, from));
  return finish(tr);
}

/** One place up (-1) or down (+1). */
export function moveBlockBy(state: EditorState, index: number, by: -1 | 1): Transaction | null {
  return moveBlock(state, index, by < 0 ? index - 1 : index + 2);
}

/** A copy of the block right after it, the selection in the copy. */
export function duplicateBlock(state: EditorState, index: number): Transaction | null {
  const { doc } = state;
  if (index < 0 || index >= doc.childCount) return null;
  const node = doc.child(index);
  const from = blockStart(doc, index);
  const target = from + node.nodeSize;
  const tr = state.tr.insert(target, fresh(state, node));
  tr.setSelection(selectionAfter(tr, node, target, null, from));
  return finish(tr);
}

/** The block removed whole; the page's only block gives way to an empty paragraph. */
export function deleteBlock(state: EditorState, index: number): Transaction | null {
  const { doc, schema } = state;
  if (index < 0 || index >= doc.childCount) return null;
  const from = blockStart(doc, index);
  const to = from + doc.child(index).nodeSize;
  const tr = doc.childCount === 1 ? state.tr.replaceWith(from, to, schema.nodes.paragraph.create()) : state.tr.delete(from, to);
  tr.setSelection(Selection.near(tr.doc.resolve(Math.min(from, tr.doc.content.size)), index === doc.childCount - 1 && doc.childCount > 1 ? -1 : 1));
  return finish(tr);
}
