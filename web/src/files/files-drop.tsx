import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';

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

/** "Upload files": the keyboard's (and any pointer's) way to what dropping does. */
FilesDrop.Picker = function Picker(props: { onFiles: (files: File[]) => void }) {
  return (
    <p class="files-panel-drop">
      Drop files here, or{' '}
      <label>
        choose files to upload
        <input
          type="file"
          multiple
          class="visually-hidden"
          onChange={(event) => {
            const input = event.currentTarget as HTMLInputElement;
            props.onFiles([...(input.files ?? [])]);
            input.value = '';
          }}
        />
      </label>
      ; they go into the page at the cursor.
    </p>
  );
};
