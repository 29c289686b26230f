import { useEffect, useLayoutEffect, useRef, useState } from 'preact/hooks';
import type { FindCount, FindTarget } from './find-target.ts';
import './find-bar.css';

/** The pause after a key before the page is searched: typing a word searches once, not once per letter. */
const DEBOUNCE_MS = 120;

/**
 * Ctrl/⌘-F on an open page: a find bar over it (a labelled search box, "3 of 12", Enter and Shift-Enter or the
 * buttons for next and previous, wrapping; match case; in the editor Replace and Replace all). Escape closes it
 * and gives the focus back where it was. `target` is asked for when the bar opens (the editor or the drawn page).
 */
export function FindInPage(props: { target: () => FindTarget | null }) {
  const [open, setOpen] = useState(false);
  const [count, setCount] = useState<FindCount>({ count: 0, current: -1 });
  const [query, setQuery] = useState('');
  const [caseSensitive, setCaseSensitive] = useState(false);
  const targetRef = useRef<FindTarget | null>(null);
  const returnTo = useRef<Element | null>(null);
  const input = useRef<HTMLInputElement>(null);
  const replacement = useRef<HTMLInputElement>(null);
  const timer = useRef<number | undefined>(undefined);

  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      if (!(event.ctrlKey || event.metaKey) || event.altKey || event.key.toLowerCase() !== 'f' || event.shiftKey) return;
      const target = props.target();
      if (!target) return;
      event.preventDefault();
      if (!targetRef.current) returnTo.current = document.activeElement;
      targetRef.current = target;
      setOpen(true);
      // The bar is drawn by now when it was open; otherwise the effect below focuses it.
      input.current?.focus();
      input.current?.select();
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, [props.target]);

  // As soon as the bar is in the page, before the browser hands over the next key (an effect runs a frame or more
  // later: the first letters typed right after Ctrl+F went to the page instead).
  useLayoutEffect(() => {
    if (!open) return;
    input.current?.focus();
    input.current?.select();
    const stop = targetRef.current?.listen(setCount);
    return () => stop?.();
  }, [open]);

  useEffect(() => () => {
    window.clearTimeout(timer.current);
    targetRef.current?.clear();
  }, []);

  const search = (text: string, matchCase: boolean) => {
    window.clearTimeout(timer.current);
    timer.current = window.setTimeout(() => {
      if (targetRef.current) setCount(targetRef.current.search(text, matchCase));
    }, DEBOUNCE_MS);
  };
  /** Runs a search still waiting for its pause at once, so Enter right after typing moves among the right matches. */
  const flush = () => {
    if (timer.current === undefined) return;
    window.clearTimeout(timer.current);
    timer.current = undefined;
    if (targetRef.current) setCount(targetRef.current.search(query, caseSensitive));
  };
  const move = (step: 1 | -1) => {
    flush();
    if (targetRef.current) setCount(targetRef.current.move(step));
  };
  const close = () => {
    window.clearTimeout(timer.current);
    timer.current = undefined;
    const target = targetRef.current;
    target?.clear();
    targetRef.current = null;
    setOpen(false);
    const back = returnTo.current;
    returnTo.current = null;
    if (back && target?.owns(back)) target.focusBack();
    else if (back instanceof HTMLElement && back.isConnected) back.focus();
  };

  if (!open || !targetRef.current) return null;
  const replacing = targetRef.current.canReplace();
  const status = !query ? 'Type to find' : count.count === 0 ? 'No match' : `${count.current + 1} of ${count.count}`;
  return (
    <div
      class="find-bar"
      role="search"
      aria-label="Find in page"
      onKeyDown={(event) => {
        if (event.key === 'Escape') {
          event.preventDefault();
          event.stopPropagation();
          close();
        }
      }}
    >
      <div class="find-row">
        <label for="find-query">Find in page</label>
        <input
          id="find-query"
          ref={input}
          type="search"
          value={query}
          autocomplete="off"
          aria-describedby="find-count"
          onInput={(event) => {
            const text = event.currentTarget.value;
            setQuery(text);
            search(text, caseSensitive);
          }}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              move(event.shiftKey ? -1 : 1);
            }
          }}
        />
        <span id="find-count" class="find-count" role="status" aria-live="polite">{status}</span>
        <button type="button" class="button" onClick={() => move(-1)} aria-label="Previous match">↑</button>
        <button type="button" class="button" onClick={() => move(1)} aria-label="Next match">↓</button>
        <label class="find-case">
          <input
            type="checkbox"
            checked={caseSensitive}
            onChange={(event) => {
              const matchCase = event.currentTarget.checked;
              setCaseSensitive(matchCase);
              search(query, matchCase);
            }}
          />
          Match case
        </label>
        <button type="button" class="button" onClick={close}>Close</button>
      </div>
      {replacing && (
        <div class="find-row">
          <label for="find-replacement">Replace with</label>
          <input
            id="find-replacement"
            ref={replacement}
            type="text"
            autocomplete="off"
            onKeyDown={(event) => {
              if (event.key === 'Enter') {
                event.preventDefault();
                flush();
                if (targetRef.current) setCount(targetRef.current.replace(event.currentTarget.value));
              }
            }}
          />
          <button
            type="button"
            class="button"
            disabled={count.count === 0}
            onClick={() => {
              flush();
              if (targetRef.current) setCount(targetRef.current.replace(replacement.current?.value ?? ''));
            }}
          >
            Replace
          </button>
          <button
            type="button"
            class="button"
            disabled={count.count === 0}
            onClick={() => {
              flush();
              if (targetRef.current) setCount(targetRef.current.replaceAll(replacement.current?.value ?? ''));
            }}
          >
            Replace all
          </button>
        </div>
      )}
    </div>
  );
}
