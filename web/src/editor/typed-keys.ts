import { Extension } from '@tiptap/core';
import { Plugin, PluginKey, TextSelection } from '@tiptap/pm/state';
import type { EditorView } from '@tiptap/pm/view';

/**
 * A character typed on a keyboard is inserted by the editor, not by the browser (decision 0149).
 *
 * ProseMirror lets the browser insert a typed character into the page's DOM and then reads the change back (its
 * DOM observer parses the changed text and turns it into `insertText`). In Chromium the browser's own insertion
 * is an editing command that lays out and walks the editable region: on a 1,000-block page it cost more than the
 * editor's whole transaction. ProseMirror already inserts the character itself, from the keypress, whenever the
 * selection is not a plain text selection in one textblock; this does the same for that case too, through the
 * same props (the input rules of `handleTextInput` first, then `insertText` with the stored marks), so the
 * document, the selection and the Markdown shortcuts are what the browser's path gives.
 *
 * Only a keypress carrying a character is taken: input methods (composition), dictation, autocorrect and the
 * virtual keyboards of phones send no such keypress (or a key code 229) and keep the browser's path.
 */
export function insertTypedCharacter(view: EditorView, event: KeyboardEvent): boolean {
  if (!view.editable || view.composing || event.isComposing || event.keyCode === 229 || justComposed(view, event)) return false;
  if (!event.charCode || (event.ctrlKey && !event.altKey) || event.metaKey) return false;
  const text = String.fromCharCode(event.charCode);
  if (/[\r\n]/.test(text)) return false;
  const { selection } = view.state;
  if (!(selection instanceof TextSelection) || !selection.$from.sameParent(selection.$to) || !selection.$from.parent.inlineContent) return false;
  const { from, to } = selection;
  const insert = () => view.state.tr.insertText(text, from, to).scrollIntoView();
  if (!view.someProp('handleTextInput', (handle) => handle(view, from, to, text, insert))) view.dispatch(insert());
  return true;
}

/** Safari sends the key that ends a composition after its compositionend: ProseMirror leaves such a key alone too. */
function justComposed(view: EditorView, event: KeyboardEvent): boolean {
  const ended = (view as unknown as { input?: { compositionEndedAt?: number } }).input?.compositionEndedAt ?? -2e8;
  return Math.abs(event.timeStamp - ended) < 500;
}

export const TypedKeys = Extension.create({
  name: 'typedKeys',
  addProseMirrorPlugins() {
    return [new Plugin({ key: new PluginKey('typedKeys'), props: { handleKeyPress: insertTypedCharacter } })];
  },
});
