import type { Editor } from '@tiptap/core';

/**
 * Gives the editor the focus back after one of its dialogs, at once: called by askForm (dialog.ts) in the very
 * event that closes the dialog, after the dialog has left the page (while it is open the editor is inert and
 * cannot take the focus). `view.focus()` focuses the editable element and writes the editor's own selection
 * into the page's selection, so the next key lands at the caret.
 *
 * TipTap's `focus()` command waits for the next animation frame instead; a key typed before that frame went to
 * the element the platform gave the focus back to (the block's Edit button, or nothing after Escape) and was
 * lost. Calling `view.focus()` later, in the dialog's `close` event (queued a task after the dialog closed), is
 * too late for the same reason and wrong besides: closing a modal dialog has the platform focus the element
 * that opened it, the editable element itself when it was the editor, which puts the page's caret at the start
 * of the editable element; ProseMirror reads that caret at its next `selectionchange` and moves its own
 * selection there, and what the dialog then inserts "at the selection" lands at the top of the page. Writing
 * the editor's selection to the page in the same event, before any `selectionchange` is delivered, leaves
 * ProseMirror nothing different to read.
 */
export function focusEditor(editor: Editor): void {
  if (editor.isDestroyed) return;
  editor.view.focus();
}
