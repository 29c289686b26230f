import type { ComponentChildren } from 'preact';
import { useRef, useState } from 'preact/hooks';
import { MentionList } from './mention-list.tsx';
import { matching, mentionQuery, withMentions, type Mentionable } from './mentions.ts';

/**
 * A text box and a button that sends what was written (Markdown), keeping it when the send fails so nothing
 * typed is lost; Ctrl/⌘-Enter sends too. Typing `@` offers the organization's members (`people`): ↑/↓ move,
 * Enter or Tab picks, Escape closes; a picked person is sent as a mention, which tells them.
 */
export function CommentForm(props: { label: string; action: string; onSend: (markdown: string) => Promise<void>; id: string; people?: Mentionable[]; children?: ComponentChildren }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [picked, setPicked] = useState<Mentionable[]>([]);
  const [query, setQuery] = useState<{ start: number; query: string } | null>(null);
  const [active, setActive] = useState(0);
  const box = useRef<HTMLTextAreaElement>(null);
  const choices = query && props.people ? matching(props.people, query.query) : [];
  const listId = `${props.id}-people`;

  const send = async () => {
    const markdown = withMentions(text.trim(), picked);
    if (!markdown || busy) return;
    setBusy(true);
    setError(null);
    try {
      await props.onSend(markdown);
      setText('');
      setPicked([]);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const pick = (person: Mentionable) => {
    if (!query) return;
    const end = query.start + 1 + query.query.length;
    const next = `${text.slice(0, query.start)}@${person.name} ${text.slice(end)}`;
    setText(next);
    setPicked((list) => (list.some((p) => p.id === person.id) ? list : [...list, person]));
    setQuery(null);
    // The box and its caret are set now, not after the next render: a caret set later would move back over
    // what was typed meanwhile.
    const caret = query.start + person.name.length + 2;
    if (box.current) {
      box.current.value = next;
      box.current.setSelectionRange(caret, caret);
    }
  };
  const typed = (element: HTMLTextAreaElement) => {
    setText(element.value);
    setQuery(props.people ? mentionQuery(element.value, element.selectionStart) : null);
    setActive(0);
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
      {props.children}
      <textarea
        ref={box}
        id={props.id}
        rows={3}
        value={text}
        maxLength={20_000}
        aria-autocomplete={props.people ? 'list' : undefined}
        aria-controls={choices.length ? listId : undefined}
        aria-activedescendant={choices.length ? `${listId}-${Math.min(active, choices.length - 1)}` : undefined}
        onInput={(event) => typed(event.currentTarget)}
        onBlur={() => setQuery(null)}
        onKeyDown={(event) => {
          if (choices.length) {
            if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
              event.preventDefault();
              setActive((n) => (n + (event.key === 'ArrowDown' ? 1 : choices.length - 1)) % choices.length);
              return;
            }
            if (event.key === 'Enter' || event.key === 'Tab') {
              event.preventDefault();
              pick(choices[Math.min(active, choices.length - 1)]);
              return;
            }
            if (event.key === 'Escape') {
              event.preventDefault();
              setQuery(null);
              return;
            }
          }
          if (event.key === 'Enter' && (event.ctrlKey || event.metaKey)) {
            event.preventDefault();
            void send();
          }
        }}
      />
      {choices.length > 0 && <MentionList id={listId} people={choices} active={Math.min(active, choices.length - 1)} onPick={pick} />}
      {props.people && <p class="meta">Type @ to mention someone; they are told.</p>}
      {error && <p class="error-note" role="alert">{error}</p>}
      <div>
        <button type="submit" class="button" disabled={busy || !text.trim()}>{busy ? 'Sending…' : props.action}</button>
      </div>
    </form>
  );
}
