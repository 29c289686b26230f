import { useState } from 'preact/hooks';

/**
 * A text box and a button that sends what was written (Markdown), keeping it when the send fails so nothing
 * typed is lost; Ctrl/⌘-Enter sends too.
 */
export function CommentForm(props: { label: string; action: string; onSend: (markdown: string) => Promise<void>; id: string }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const send = async () => {
    const markdown = text.trim();
    if (!markdown || busy) return;
    setBusy(true);
    setError(null);
    try {
      await props.onSend(markdown);
      setText('');
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form
      class="comment-form"
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <label for={props.id}>{props.label}</label>
      <textarea
        id={props.id}
        rows={3}
        value={text}
        maxLength={20_000}
        onInput={(event) => setText(event.currentTarget.value)}
        onKeyDown={(event) => {
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void send();
          }
        }}
      />
      {error && <p class="error-note" role="alert">{error}</p>}
      <div>
        <button type="submit" class="button" disabled={busy || !text.trim()}>{busy ? 'Sending…' : props.action}</button>
      </div>
    </form>
  );
}
