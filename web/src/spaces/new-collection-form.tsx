import { useState } from 'preact/hooks';
import { api } from '../api/operations.ts';

/** A new collection of the organization: a title, nothing else (its spaces and sharing come after). */
export function NewCollectionForm(props: { organizationId: string; onCreated: () => void }) {
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    setBusy(true);
    try {
      await api.createCollection(props.organizationId, { title: title.trim() });
      setTitle('');
      props.onCreated();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  return (
    <form class="panel form" onSubmit={submit} aria-label="New collection">
      <label>
        Collection title
        <input value={title} required maxLength={100} placeholder="Product guides" onInput={(event) => setTitle(event.currentTarget.value)} />
      </label>
      {error && <p class="error-note" role="alert">{error}</p>}
      <button type="submit" class="button primary" disabled={busy}>{busy ? 'Creating…' : 'Create collection'}</button>
    </form>
  );
}
