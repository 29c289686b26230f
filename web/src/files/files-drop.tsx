import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';

/** An area that takes files dropped on it (the files panel), marked while files are dragged over it. */
export function FilesDrop(props: { onFiles: (files: File[]) => void; children: ComponentChildren }) {
  const [over, setOver] = useState(false);
  const carriesFiles = (event: DragEvent) => [...(event.dataTransfer?.types ?? [])].includes('Files');
  return (
    <div
      class={`files-drop${over ? ' is-over' : ''}`}
      data-testid="files-drop"
      onDragOver={(event) => {
        if (!carriesFiles(event)) return;
        event.preventDefault();
        setOver(true);
      }}
      onDragLeave={() => setOver(false)}
      onDrop={(event) => {
        setOver(false);
        const files = [...(event.dataTransfer?.files ?? [])];
        if (!files.length) return;
        event.preventDefault();
        props.onFiles(files);
      }}
    >
      {props.children}
    </div>
  );
}

/** "Choose files to upload": the keyboard's (and any pointer's) way to what dropping does (a button that opens the file chooser). */
FilesDrop.Picker = function Picker(props: { onFiles: (files: File[]) => void }) {
  const input = useRef<HTMLInputElement>(null);
  return (
    <p class="files-panel-drop">
      Drop files here, or{' '}
      <button type="button" class="link-button" onClick={() => input.current?.click()}>
        choose files to upload
      </button>
      ; they go into the page at the cursor.
      <input
        ref={input}
        type="file"
        multiple
        tabIndex={-1}
        aria-hidden="true"
        class="visually-hidden"
        onChange={(event) => {
          const chosen = event.currentTarget as HTMLInputElement;
          props.onFiles([...(chosen.files ?? [])]);
          chosen.value = '';
        }}
      />
    </p>
  );
};
