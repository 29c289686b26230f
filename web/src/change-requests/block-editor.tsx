import type { Editor } from '@tiptap/core';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Document } from '../api/types.ts';
import type { EditorPlace } from '../editor/editor.ts';
import './block-editor.css';

/**
 * The page editor (web/src/editor/, its schema and its toolbar keys) over one conflicting run of blocks,
 * prefilled with the change request's side. Loaded on demand, like the page editor. Each change gives the
 * run as the editor's document; the server writes it as Markdown with the page writer. Escape leaves the
 * editor for `onLeave` (the "Edit" choice), unless a menu of the editor is open (then it closes the menu).
 */
export function BlockEditor(props: { document: Document; label: string; place: EditorPlace; onChange: (document: Document) => void; onLeave: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const latest = useRef(props);
  latest.current = props;
  const [failed, setFailed] = useState<Error | null>(null);
  useEffect(() => {
    let editor: Editor | undefined;
    let gone = false;
    import('../editor/editor.ts').then(
      ({ createPageEditor, documentOf }) => {
        if (gone || !host.current) return;
        const original = latest.current.document;
        const made = createPageEditor({ element: host.current, document: original, editable: true, label: latest.current.label, place: latest.current.place, onChange: () => latest.current.onChange(documentOf(made, original)) });
        editor = made;
      },
      (error: Error) => setFailed(error),
    );
    return () => {
      gone = true;
      editor?.destroy();
    };
  }, []);
  // Before the editor's own keys (ProseMirror takes every Escape): unless a menu of the editor is open (it
  // says so with aria-controls, and closes on this Escape), Escape leaves the editor.
  const onKeyDownCapture = (event: KeyboardEvent) => {
    if (event.key !== 'Escape' || !(event.target instanceof HTMLElement) || event.target.hasAttribute('aria-controls')) return;
    event.preventDefault();
    event.stopPropagation();
    latest.current.onLeave();
  };
  if (failed) return <p role="alert">The editor could not be loaded ({failed.message}): choose "Markdown" to edit the text instead.</p>;
  return <div ref={host} class="block-editor" onKeyDownCapture={onKeyDownCapture} />;
}
