import { Editor, type AnyExtension } from '@tiptap/core';
import type { Document } from '../api/types.ts';
import { documentToEditor, editorToDocument } from './convert.ts';
import { LinkPicker } from './inlines/link-picker.ts';
import { PasteConversion } from './paste.ts';
import { Place, type EditorPlace } from './place.ts';
import { schemaExtensions } from './schema.ts';
import { SlashMenu } from './slash-menu.ts';
import { CaretBlock } from './caret-block.ts';
import { SelectionFromScreen } from './selection-sync.ts';
import { BlockHandle } from './block-handle.ts';
import { FindInPage } from '../find/editor-find.ts';
import './editor.css';
import './blocks/table-typed.css';

/**
 * The page editor: TipTap 3 with Quire's schema only (schema.ts). TipTap's own <style> element is not injected: the
 * Content-Security-Policy forbids it, and editor.css carries those rules. `place` (the space and change request)
 * is what the pickers list: pages, files, people, OpenAPI operations. `className` replaces the body's `page-body`
 * (the typing warm-up's hidden editor, warm-typing.ts, is not a page body to the page's styles or to what looks
 * for one).
 */
export function createPageEditor(options: { element: HTMLElement; document: Document | undefined; editable: boolean; label: string; onChange?: () => void; place?: EditorPlace; live?: AnyExtension[]; extensions?: AnyExtension[]; className?: string }): Editor {
  const editor = new Editor({
    element: options.element,
    editable: options.editable,
    injectCSS: false,
    // TipTap's "delete" core extension only reports deletions to `editor.on('delete')` listeners, and Quire has
    // none; it still queued a task after every transaction (each keystroke) to combine its steps and look for
    // deleted ranges (issue 26: that task ran between a key and its frame).
    enableCoreExtensions: { delete: false },
    extensions: [
      // Before every key handler: the selection on screen, not one the browser has not reported yet.
      SelectionFromScreen,
      ...(options.live ? liveSchema(options.live) : schemaExtensions()),
      Place.configure({ place: options.place ?? null }),
      // The screen's own (uploads by paste and drop, web/src/files/): before the paste conversion, so a pasted picture is a file.
      ...(options.extensions ?? []),
      ...(options.editable ? [SlashMenu, LinkPicker, PasteConversion] : []),
      // The handle beside each top-level block, and Ctrl/⌘ Shift ↑ / ↓ (decision 0129).
      ...(options.editable ? [BlockHandle] : []),
      // Ctrl/⌘-F (web/src/find/): matches drawn as decorations, the document untouched.
      FindInPage,
      // The block being written in is kept out of editor.css's content-visibility (decision 0120).
      CaretBlock,
    ],
    // Live (web/src/live/): the content is the shared document's, not the page as loaded.
    ...(options.live ? {} : { content: documentToEditor(options.document) }),
    editorProps: { attributes: { class: options.className ?? 'page-body', 'aria-label': options.label, 'aria-multiline': 'true', role: 'textbox' } },
    onUpdate: () => options.onChange?.(),
  });
  return editor;
}

export function documentOf(editor: Editor, original?: Document): Document {
  return editorToDocument(editor.getJSON(), original);
}

export { insertFile } from './files.ts';
export type { EditorPlace } from './place.ts';

/** Live co-editing: the schema with the shared document's own undo instead of StarterKit's (web/src/live/). */
function liveSchema(live: AnyExtension[]): AnyExtension[] {
  return [...schemaExtensions().map((extension) => (extension.name === 'starterKit' ? extension.configure({ undoRedo: false }) : extension)), ...live];
}
