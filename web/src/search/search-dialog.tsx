import { useEffect, useRef, useState } from 'preact/hooks';
import { useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import { navigate, paths, useRoute } from '../app/router.ts';
import type { SearchSpace } from './types.ts';
import './search.css';

interface Hit {
  key: string;
  spaceId: string;
  spaceTitle: string;
  pageId: string;
  title: string;
  snippet?: string;
}

function hitsOf(spaces: SearchSpace[]): Hit[] {
  return spaces.flatMap((space) =>
    space.pages.map((page) => ({ key: `${space.id}:${page.id}`, spaceId: space.id, spaceTitle: space.title, pageId: page.id, title: page.title, snippet: page.sections[0]?.body })),
  );
}

/** The organization searched: the one on screen, else the person's first. */
function useOrganizationId(): string | undefined {
  const route = useRoute();
  const organizations = useQuery('orgs', api.organizations);
  return ('organizationId' in route && route.organizationId) || organizations.data?.items[0]?.id;
}

/**
 * Search across the organization's spaces the person may read (`searchOrganizationContent`): a button in the
 * top bar and Ctrl/⌘-K anywhere open it. A combobox: type, ↑/↓ choose a page, Enter opens it, Escape closes.
 */
export function SearchDialog() {
  const organizationId = useOrganizationId();
  const dialog = useRef<HTMLDialogElement>(null);
  const input = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [query, setQuery] = useState('');
  // The last answer and the query it answers: while a newer query is asked, its hits stay but say so.
  const [results, setResults] = useState<{ query: string; hits: Hit[] } | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [active, setActive] = useState(0);

  useEffect(() => {
    const keys = (event: KeyboardEvent) => {
      // In the editor, Ctrl/⌘-K is the link picker's (ProseMirror marks the event handled).
      if (event.defaultPrevented) return;
      if ((event.ctrlKey || event.metaKey) && !event.altKey && event.key.toLowerCase() === 'k') {
        event.preventDefault();
        // Opened and focused now, not at the next render: what is typed right after the shortcut lands in the box.
        const element = dialog.current;
        if (element && !element.open) {
          element.showModal();
          input.current?.select();
        }
        setOpen(true);
      }
    };
    window.addEventListener('keydown', keys);
    return () => window.removeEventListener('keydown', keys);
  }, []);

  useEffect(() => {
    const element = dialog.current;
    if (!element) return;
    if (open && !element.open) {
      element.showModal();
      input.current?.select();
    } else if (!open && element.open) element.close();
  }, [open]);

  // Asks a moment after typing stops; an answer to an older query is dropped.
  useEffect(() => {
    const text = query.trim();
    if (!open || !organizationId || !text) {
      setResults(null);
      setError(null);
      return;
    }
    let current = true;
    const timer = setTimeout(() => {
      api.search(organizationId, text.slice(0, 512)).then(
        (answer) => {
          if (!current) return;
          setResults({ query: text, hits: hitsOf(answer.items) });
          setError(null);
          setActive(0);
        },
        (caught: Error) => current && setError(caught.message),
      );
    }, 150);
    return () => {
      current = false;
      clearTimeout(timer);
    };
  }, [query, open, organizationId]);

  const go = (hit: Hit | undefined) => {
    if (!hit || !organizationId) return;
    setOpen(false);
    navigate(paths.space(organizationId, hit.spaceId, hit.pageId));
  };
  const hits = results?.hits ?? [];
  const answered = results !== null && results.query === query.trim();
  const optionId = (index: number) => `search-option-${index}`;

  return (
    <>
      <button type="button" class="search-button" onClick={() => setOpen(true)} aria-keyshortcuts="Control+K Meta+K" disabled={!organizationId}>
        Search <kbd>Ctrl K</kbd>
      </button>
      <dialog ref={dialog} class="search-dialog" aria-labelledby="search-title" // A close event queued before a quick reopen must not close the reopened dialog.
        onClose={(event) => !event.currentTarget.open && setOpen(false)}
        onKeyDown={(event) => {
          // Escape closes, whatever the browser's rules on repeated cancels of a dialog.
          if (event.key === 'Escape') {
            event.preventDefault();
            setOpen(false);
          }
        }}
      >
        <h2 id="search-title" class="visually-hidden">Search</h2>
        <input
          ref={input}
          type="search"
          role="combobox"
          list={undefined}
          aria-label="Search pages in this organization"
          aria-expanded={hits.length > 0}
          aria-controls="search-results"
          aria-autocomplete="list"
          aria-activedescendant={hits.length > 0 ? optionId(active) : undefined}
          placeholder="Search pages…"
          value={query}
          maxLength={512}
          onInput={(event) => setQuery(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'ArrowDown') {
              event.preventDefault();
              setActive((index) => Math.min(hits.length - 1, index + 1));
            } else if (event.key === 'ArrowUp') {
              event.preventDefault();
              setActive((index) => Math.max(0, index - 1));
            } else if (event.key === 'Enter') {
              event.preventDefault();
              go(hits[active]);
            }
          }}
        />
        {error && <p class="error-note" role="alert">{error}</p>}
        <ul id="search-results" role="listbox" aria-label="Pages found" class="search-results">
          {hits.map((hit, index) => (
            <li key={hit.key} id={optionId(index)} role="option" aria-selected={index === active} class="search-result" onClick={() => go(hit)} onMouseMove={() => setActive(index)}>
              <span class="search-result-title">{hit.title}</span> <span class="meta">in {hit.spaceTitle}</span>
              {hit.snippet && <span class="search-result-snippet">{hit.snippet}</span>}
            </li>
          ))}
        </ul>
        <p class="meta" role="status">
          {!query.trim() ? 'Type to search every space you may read.' : !answered ? 'Searching…' : hits.length === 0 ? `No page matches “${query.trim()}”.` : `${hits.length} page${hits.length === 1 ? '' : 's'} found: ↑ ↓ to choose, Enter to open.`}
        </p>
        <p>
          <button type="button" class="button small" onClick={() => setOpen(false)}>Close</button>
        </p>
      </dialog>
    </>
  );
}
