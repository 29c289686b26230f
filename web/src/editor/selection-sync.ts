import { Extension } from '@tiptap/core';
import { Plugin, PluginKey } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

/**
 * Brings the editor's selection up to the one on screen. The browser moves the selection itself (a click,
 * Shift+arrows) and tells the editor later, by a `selectionchange` event; Chromium runs input before such
 * events, so on a busy page a key pressed right after (Ctrl+B, Ctrl+Shift+↑, Enter) was handled on the
 * selection before the move: bold went to the wrong letters, a block moved with the caret at its start. A
 * change arriving from the live document meanwhile redrew the old selection over the new one. Reading the
 * DOM selection first (ProseMirror's own observer, which does nothing when they agree) closes both gaps.
 */
export function readSelectionFromScreen(view: EditorView): void {
  (view as unknown as { domObserver?: { flush(): void } }).domObserver?.flush();
}

/** First of every key handler (highest priority): the key acts on the selection the person sees. */
export const SelectionFromScreen = Extension.create({
  name: 'selectionFromScreen',
  priority: 10_000,
  addProseMirrorPlugins() {
    return [
      new Plugin({
        key: new PluginKey('selectionFromScreen'),
        props: {
          handleKeyDown: (view) => {
            readSelectionFromScreen(view);
            return false;
          },
        },
      }),
    ];
  },
});
