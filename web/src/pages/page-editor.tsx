import type { Editor } from '@tiptap/core';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { invalidate } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import type { DocumentPage } from '../api/types.ts';
import { addNavigationGuard } from '../app/router.ts';
import { createPageEditor, documentOf, insertFile } from '../editor/editor.ts';
import { FilesPanel } from '../files/files-panel.tsx';
import { PageSaver, type SaveStatus } from './page-saver.ts';
import { PageProperties } from './page-properties.tsx';
import { SaveIndicator } from './save-indicator.tsx';
// Live co-editing (web/src/live/, decision 0100): the body goes through the shared document, not the saver.
import { useSession } from '../account/session.ts';
import { liveExtensions } from '../live/collaboration.ts';
import type { LiveDocument } from '../live/live-document.ts';
import { openLivePage } from '../live/open.ts';
import { editorModelVersion } from '../live/editor-model.ts';
import { liveSaveStatus, liveSaving, Presence, useLive } from '../live/presence.tsx';
// Uploads by paste, drop and the files panel (web/src/files/).
import { UploadQueue } from '../files/upload-queue.ts';
import { guardWindowDrops, placeUpload, UploadDrop, uploadInto } from '../files/upload-drop.ts';
import { UploadsView } from '../files/uploads-view.tsx';
// Comments on blocks (web/src/comments/block-anchors.ts).
import { blockComments } from '../comments/block-anchors.ts';
import { BlockCommentMarks } from '../comments/block-comment-marks.ts';
import { BlockCommentButton } from '../comments/block-comment-button.tsx';

// Find in page (web/src/find/).
import { FindInPage } from '../find/find-bar.tsx';
import { editorFindTarget } from '../find/editor-find.ts';
// The first keys as fast as later ones: the typing path warmed once per load of the app (decision 0154).
import { warmTypingPath } from '../editor/warm-typing.ts';

const UNSAVED = 'This page has changes that are not saved yet. Leave anyway?';

/**
 * One page of a change request, open for writing: its title and settings, its body in the editor, and the
 * saver that sends both (with the revision they were loaded from) and says where saving stands.
 */
/**
 * `canComment`: whether the person may comment on the page's blocks (the "Comment on block" bar is shown);
 * `title`: the page's title in the change request's tree now (it follows renames by others); `closed`: why
 * nothing can be added to the change request any more (merged, archived, access lost: the files panel says so
 * and offers no upload; `list: false`, not even the list).
 */
export function PageEditor(props: { spaceId: string; changeRequestId: string; page: DocumentPage; revision: string; title?: string; canComment: boolean; closed?: { reason: string; list: boolean }; onReload: () => void }) {
  const host = useRef<HTMLDivElement>(null);
  const editorRef = useRef<Editor | null>(null);
  const saverRef = useRef<PageSaver | null>(null);
  const [status, setStatus] = useState<SaveStatus>({ state: 'saved' });
  const session = useSession();
  const [live, setLive] = useState<LiveDocument | null>(null);
  useLive(live, liveSaving);
  const [uploads, setUploads] = useState<UploadQueue | null>(null);
  const [filesArrived, setFilesArrived] = useState(0);
  // Whether the editor takes edits (a live page turned read-only or stopped does not): files are inserted only then.
  const [writable, setWritable] = useState(true);

  useEffect(() => {
    const saver = new PageSaver(
      props.revision,
      (body) => api.updatePage(props.spaceId, props.changeRequestId, props.page.id, body),
      () => documentOf(editorRef.current!, props.page.document),
      setStatus,
      () => {
        invalidate(`cr:${props.spaceId}:${props.changeRequestId}:content`);
        invalidate(`cr:${props.spaceId}:${props.changeRequestId}:changes`);
      },
    );
    saverRef.current = saver;
    // Live: the server writes the body as revisions; the saver keeps the settings (title, slug …) only.
    const shared = openLivePage(props.spaceId, props.changeRequestId, props.page.id, session.user, editorModelVersion());
    setLive(shared);
    const queue = new UploadQueue(props.spaceId, props.changeRequestId, (file, upload) => {
      if (editorRef.current) void placeUpload(editorRef.current, file, upload.id);
      setFilesArrived((n) => n + 1);
    });
    setUploads(queue);
    const editor = createPageEditor({ element: host.current!, document: props.page.document, editable: true, label: `Body of ${props.page.title}`, onChange: shared ? undefined : () => saver.documentChanged(), live: shared ? liveExtensions(shared) : undefined, place: { spaceId: props.spaceId, changeRequestId: props.changeRequestId }, extensions: [UploadDrop.configure({ queue }), BlockCommentMarks] });
    const unregister = blockComments.register(editor);
    const stopWarming = warmTypingPath({ live: shared ? (doc, awareness) => liveExtensions({ doc, provider: { awareness, beforeRemote: undefined } }) : undefined, extensions: [BlockCommentMarks] });
    const unguardDrops = guardWindowDrops();
    editorRef.current = editor;
    // Only a change of who may write touches the editor (the live document tells of every acknowledgement too).
    let refused = shared?.refusal ?? null;
    const unsubscribe = shared?.subscribe(() => {
      const editable = !shared.readOnly && !shared.refusal;
      // Stopped (a reader's page too, which was never editable) or turned read-only: the change request may have
      // been archived or merged meanwhile, or this page deleted from it (its tree, read again, no longer lists it;
      // the editor keeps the text to copy).
      const stopped = shared.refusal !== refused;
      refused = shared.refusal;
      setWritable(editable);
      if (editor.isEditable === editable && !stopped) return;
      if (editor.isEditable !== editable) editor.setEditable(editable, false);
      if (!editable) {
        invalidate(`cr:${props.spaceId}:${props.changeRequestId}:cr`);
        invalidate(`cr:${props.spaceId}:${props.changeRequestId}:content`);
      }
    });
    const beforeUnload = (event: BeforeUnloadEvent) => {
      if (saver.hasUnsavedWork || (shared && !shared.saved) || queue.pending) event.preventDefault();
    };
    const keys = (event: KeyboardEvent) => {
      if ((event.ctrlKey || event.metaKey) && event.key === 's') {
        event.preventDefault();
        saver.saveNow();
      }
    };
    window.addEventListener('beforeunload', beforeUnload);
    window.addEventListener('keydown', keys);
    const unguard = addNavigationGuard(() => (saver.hasUnsavedWork || (shared && !shared.saved) || queue.pending ? UNSAVED : null));
    return () => {
      window.removeEventListener('beforeunload', beforeUnload);
      window.removeEventListener('keydown', keys);
      unguard();
      stopWarming();
      saver.dispose();
      queue.dispose();
      unregister();
      unguardDrops();
      editor.destroy();
      unsubscribe?.();
      shared?.destroy();
    };
  }, [props.page.id]);

  const findTarget = useCallback(() => (editorRef.current && !editorRef.current.isDestroyed ? editorFindTarget(editorRef.current) : null), []);

  return (
    <article class="page-editor">
      <FindInPage target={findTarget} />
      <PageProperties page={props.page} title={props.title} spaceId={props.spaceId} changeRequestId={props.changeRequestId} onChange={(fields) => saverRef.current?.change(fields)} />
      <SaveIndicator status={liveSaveStatus(status, live)} onRetry={() => saverRef.current?.saveNow()} onOverwrite={() => saverRef.current?.overwrite()} onReload={props.onReload} />
      {live && <Presence live={live} />}
      {uploads && <UploadsView queue={uploads} />}
      {props.canComment && <BlockCommentButton pageId={props.page.id} />}
      <div ref={host} class="editor-host" />
      <FilesPanel
        spaceId={props.spaceId}
        changeRequestId={props.changeRequestId}
        onInsert={(file) => editorRef.current && insertFile(editorRef.current, file)}
        onUpload={(files) => editorRef.current && uploads && uploadInto(editorRef.current, uploads, files, editorRef.current.state.selection.to)}
        refresh={filesArrived}
        closed={props.closed ?? (writable ? undefined : { reason: 'This page cannot be edited here now: its files are listed, not added.', list: true })}
      />
    </article>
  );
}
