import { Extension, type Editor } from '@tiptap/core';
import { Plugin, PluginKey, type EditorState } from '@tiptap/pm/state';
import type { RevisionFile } from '../api/operations.ts';
import { fileNode } from '../editor/files.ts';
import { placeData } from '../editor/place.ts';
import type { UploadQueue } from './upload-queue.ts';

/**
 * Files pasted into the page or dropped onto it are uploaded (UploadQueue) and, once they arrive, become an
 * image block (a picture) or a file block (anything else) where they were pasted or dropped. That place is
 * kept as a position mapped through every edit made meanwhile (by this person or, live, by others), so the
 * block lands where it was put even when the page changed above it.
 */

type Places = Map<number, number>;
type Meta = { add?: Array<[number, number]>; remove?: number };

const key = new PluginKey<Places>('upload-places');

/** Where an upload's block goes, as the page is now; undefined once placed. */
function placeOf(state: EditorState, id: number): number | undefined {
  return key.getState(state)?.get(id);
}

/** Starts uploading `files` into the page at `pos`. */
export function uploadInto(editor: Editor, queue: UploadQueue, files: File[], pos: number): void {
  if (!files.length) return;
  const uploads = queue.add(files);
  editor.view.dispatch(editor.state.tr.setMeta(key, { add: uploads.map((upload) => [upload.id, pos]) } satisfies Meta));
}

/** Puts an uploaded file into the page at its upload's place (or at the cursor when the place is unknown). */
export async function placeUpload(editor: Editor, file: RevisionFile, uploadId: number): Promise<void> {
  // The pickers and the image view read the files once: this one is new.
  await placeData(editor)?.files(true).catch(() => undefined);
  if (editor.isDestroyed) return;
  const pos = placeOf(editor.state, uploadId);
  const at = Math.min(pos ?? editor.state.selection.to, editor.state.doc.content.size);
  editor.chain().insertContentAt(at, fileNode(file)).setMeta(key, { remove: uploadId } satisfies Meta).run();
}

/** Files on a clipboard that holds no text besides them (a copied picture; not a Word or Excel selection, which brings a picture of itself too). */
function pastedFiles(data: DataTransfer | null): File[] {
  if (!data || data.files.length === 0 || data.getData('text/plain').trim()) return [];
  return [...data.files];
}

export const UploadDrop = Extension.create<{ queue: UploadQueue | null }>({
  name: 'uploadDrop',
  addOptions: () => ({ queue: null }),
  addProseMirrorPlugins() {
    const editor = this.editor;
    const queue = this.options.queue;
    if (!queue) return [];
    return [
      new Plugin<Places>({
        key,
        state: {
          init: () => new Map(),
          apply(tr, places) {
            const meta = tr.getMeta(key) as Meta | undefined;
            if (!meta && !tr.docChanged) return places;
            const next = new Map<number, number>();
            for (const [id, pos] of places) next.set(id, tr.mapping.map(pos));
            for (const [id, pos] of meta?.add ?? []) next.set(id, pos);
            if (meta?.remove !== undefined) next.delete(meta.remove);
            return next;
          },
        },
        props: {
          handlePaste: (view, event) => {
            const files = pastedFiles(event.clipboardData);
            if (!files.length || view.state.selection.$from.parent.type.spec.code) return false;
            event.preventDefault();
            uploadInto(editor, queue, files, view.state.selection.to);
            return true;
          },
          handleDrop: (view, event) => {
            const files = [...(event.dataTransfer?.files ?? [])];
            if (!files.length) return false;
            event.preventDefault();
            const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
            uploadInto(editor, queue, files, at?.pos ?? view.state.selection.to);
            return true;
          },
        },
      }),
    ];
  },
});

/**
 * A file dropped beside the editor and the files panel would make the browser leave the page to show it:
 * while a page is open, such a drop does nothing instead. Returns the function that stops guarding.
 */
export function guardWindowDrops(): () => void {
  const carriesFiles = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  const refuse = (event: DragEvent) => {
    if (carriesFiles(event) && !event.defaultPrevented) event.preventDefault();
  };
  window.addEventListener('dragover', refuse);
  window.addEventListener('drop', refuse);
  return () => {
    window.removeEventListener('dragover', refuse);
    window.removeEventListener('drop', refuse);
  };
}
