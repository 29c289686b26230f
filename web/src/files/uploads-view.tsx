import { useEffect, useState } from 'preact/hooks';
import type { UploadQueue } from './upload-queue.ts';
import './uploads.css';

/**
 * The files on their way into the page: each with its progress, and a failed one with the reason, "Try
 * again" and "Dismiss" (it stays until the person chooses). A polite live region says when one arrived.
 */
export function UploadsView(props: { queue: UploadQueue }) {
  const [, setTick] = useState(0);
  useEffect(() => props.queue.subscribe(() => setTick((n) => n + 1)), [props.queue]);
  const uploads = props.queue.uploads;
  return (
    <div class="uploads">
      <p class="visually-hidden" role="status" aria-live="polite">
        {props.queue.announcement}
      </p>
      {uploads.length > 0 && (
        <ul class="uploads-list" aria-label="Uploads">
          {uploads.map((upload) => (
            <li key={upload.id} class={`upload upload-${upload.state}`}>
              <span class="upload-name">{upload.file.name || 'Pasted picture'}</span>
              {upload.state === 'uploading' && (
                <progress max={100} value={Math.round(upload.progress * 100)} aria-label={`Uploading ${upload.file.name || 'pasted picture'}`}>
                  {Math.round(upload.progress * 100)}%
                </progress>
              )}
              {upload.state === 'waiting' && <span class="meta">Not sent ({upload.error}); trying again…</span>}
              {upload.state === 'failed' && (
                <>
                  <span class="upload-error" role="alert">
                    Not uploaded: {upload.error}
                  </span>
                  <button type="button" onClick={() => props.queue.retry(upload.id)}>
                    Try again
                  </button>
                  <button type="button" onClick={() => props.queue.dismiss(upload.id)} aria-label={`Dismiss ${upload.file.name || 'pasted picture'}`}>
                    Dismiss
                  </button>
                </>
              )}
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
