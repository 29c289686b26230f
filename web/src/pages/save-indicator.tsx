import { useEffect, useState } from 'preact/hooks';
import type { SaveStatus } from './page-saver.ts';

/** Where saving stands, announced politely; a failure or a conflict says what happened and what to do. */
export function SaveIndicator(props: { status: SaveStatus; onRetry: () => void; onOverwrite: () => void; onReload: () => void }) {
  const { status } = props;
  const [, tick] = useState(0);
  useEffect(() => {
    if (status.state !== 'retrying') return;
    const timer = setInterval(() => tick((value) => value + 1), 1000);
    return () => clearInterval(timer);
  }, [status]);

  if (status.state === 'conflict') {
    return (
      <div class="save-problem" role="alert">
        <p><strong>Not saved: this page changed since you opened it.</strong> {status.message}</p>
        <p>
          <button type="button" class="button" onClick={props.onReload}>Load the latest version</button>{' '}
          <button type="button" class="button" onClick={props.onOverwrite}>Save my version over it</button>
        </p>
      </div>
    );
  }
  if (status.state === 'stopped') {
    return (
      <div class="save-problem" role="alert">
        <p><strong>Not saved.</strong> {status.message}</p>
      </div>
    );
  }
  if (status.state === 'failed' || status.state === 'retrying') {
    const seconds = status.state === 'retrying' ? Math.max(0, Math.ceil((status.at - Date.now()) / 1000)) : 0;
    return (
      <div class="save-problem" role="alert">
        <p>
          <strong>Not saved.</strong> {status.message} {status.state === 'retrying' ? `Trying again in ${seconds} s.` : ''}
        </p>
        <button type="button" class="button" onClick={props.onRetry}>Retry now</button>
      </div>
    );
  }
  const label = status.state === 'saved' ? 'All changes saved' : status.state === 'saving' ? 'Saving…' : 'Unsaved changes';
  return <p class="save-status meta" role="status" data-state={status.state}>{label}</p>;
}
