import { useState } from 'preact/hooks';

/** A value to paste elsewhere (an address, a key), read-only, with a button that copies it and says so. */
export function CopyField(props: { label: string; value: string; id: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(props.value);
      setCopied('yes');
    } catch {
      // Without clipboard access (an insecure origin, a refusal) the text is selected for Ctrl/⌘-C instead.
      (document.getElementById(props.id) as HTMLInputElement | null)?.select();
      setCopied('no');
    }
  };
  return (
    <div class="copy-field">
      <label for={props.id}>{props.label}</label>
      <div class="copy-row">
        <input id={props.id} readOnly value={props.value} onFocus={(event) => event.currentTarget.select()} />
        <button type="button" class="button" onClick={copy} aria-describedby={`${props.id}-status`}>Copy<span class="visually-hidden"> {props.label}</span></button>
      </div>
      <span id={`${props.id}-status`} class="meta" role="status">{copied === 'yes' ? 'Copied.' : copied === 'no' ? 'Selected: press Ctrl/⌘-C to copy.' : ''}</span>
    </div>
  );
}
