import { useEffect, useState } from 'preact/hooks';
import { api, type RevisionFile } from '../api/operations.ts';
import './files-panel.css';
import { FilesDrop } from './files-drop.tsx';

/**
 * The files of the space as the change request has them (`listFilesInChangeRequestById`): name, kind and
 * size, each with "Insert", which puts it into the page at the cursor (a picture as an image block, anything
 * else as a file block). Collapsed until opened, so it costs one request only when wanted. Files dropped on
 * it, or chosen with its "Upload files", are uploaded (`onUpload`) and put into the page at the cursor;
 * `refresh` changes when one arrived, so an open list shows it.
 *
 * `closed`: why nothing can be added to the page or the change request now (merged, archived, the page
 * read-only here), said in the panel, which then offers neither "Upload files" nor "Insert": the files are only
 * listed, or not even listed (`list: false`: the person lost access, the list would be refused) and the panel is
 * the reason alone.
 */
export function FilesPanel(props: { spaceId: string; changeRequestId: string; onInsert: (file: RevisionFile) => void; onUpload?: (files: File[]) => void; refresh?: number; closed?: { reason: string; list: boolean } }) {
  const [open, setOpen] = useState(false);
  const [files, setFiles] = useState<RevisionFile[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const closed = props.closed;
  useEffect(() => {
    if (!open || (closed && !closed.list)) return;
    let live = true;
    setError(null);
    api.files(props.spaceId, props.changeRequestId).then(
      (list) => live && setFiles(list.items),
      (failure: Error) => live && setError(failure.message),
    );
    return () => {
      live = false;
    };
  }, [open, props.spaceId, props.changeRequestId, props.refresh, closed?.list]);

  if (closed && !closed.list) return <p class="meta files-panel files-panel-closed">{closed.reason}</p>;
  const onUpload = closed ? undefined : props.onUpload;

  const body = (
    <details class="files-panel" open={open} onToggle={(event) => setOpen((event.currentTarget as HTMLDetailsElement).open)}>
      <summary>Files of the space</summary>
      {closed && <p class="meta files-panel-closed">{closed.reason}</p>}
      {onUpload && <FilesDrop.Picker onFiles={onUpload} />}
      {error && <p role="alert">{error}</p>}
      {open && !files && !error && <p class="meta">Loading…</p>}
      {files && files.length === 0 && (
        <p class="meta">{closed ? 'This space has no files.' : 'This space has no files yet. Drop files here or paste a picture into the page; files also come with an import (Markdown, zip, HTML, Word) or Git Sync.'}</p>
      )}
      {files && files.length > 0 && (
        <ul aria-label="Files of the space">
          {files.map((file) => (
            <li key={file.id}>
              {file.contentType.startsWith('image/') && <img src={file.downloadURL} alt="" class="files-panel-thumb" loading="lazy" />}
              <span class="files-panel-name">{file.name}</span>
              <span class="meta">
                {file.contentType} · {Math.max(1, Math.round(file.size / 1024))} KB
              </span>
              {!closed && (
                <button type="button" onClick={() => props.onInsert(file)} aria-label={`Insert ${file.name}`}>
                  Insert
                </button>
              )}
            </li>
          ))}
        </ul>
      )}
    </details>
  );
  return onUpload ? <FilesDrop onFiles={onUpload}>{body}</FilesDrop> : body;
}
