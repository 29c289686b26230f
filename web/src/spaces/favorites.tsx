import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import type { Space } from '../api/types.ts';
import './home.css';

/** The person's favourite spaces (kept on the server, so they follow the person to every browser). */
export function useFavoriteSpaces() {
  return useQuery('favorites:spaces', api.favoriteSpaces);
}

/**
 * A star that adds a space to the person's favourites or takes it out (a toggle button: aria-pressed). A
 * failed change is shown beside the star and the star keeps its state, so the person can try again.
 */
export function StarButton(props: { space: Pick<Space, 'id' | 'title'>; starred: boolean }) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const toggle = async () => {
    setBusy(true);
    setError(null);
    try {
      if (props.starred) await api.removeFavoriteSpace(props.space.id);
      else await api.addFavoriteSpace(props.space.id);
      invalidate('favorites:');
    } catch (caught) {
      setError(`${props.starred ? 'The star could not be removed' : 'The space could not be starred'}: ${(caught as Error).message} Try again.`);
    } finally {
      setBusy(false);
    }
  };
  const title = props.space.title || 'Untitled space';
  return (
    <>
      <button type="button" class="star-button" aria-pressed={props.starred} aria-label={`Favourite: ${title}`} disabled={busy} onClick={toggle}>
        <span aria-hidden="true">{props.starred ? '★' : '☆'}</span>
      </button>
      {error && <span class="error-note" role="alert">{error}</span>}
    </>
  );
}
