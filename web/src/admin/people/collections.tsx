import { useState } from 'preact/hooks';
import { lazy, Suspense } from 'preact/compat';
import { useQuery } from '../../api/cache.ts';
import { api } from '../../api/operations.ts';

import { ErrorNote } from '../../app/error-note.tsx';

const SharingPanel = lazy(() => import('./sharing.tsx').then((m) => ({ default: m.SharingPanel })));

/** The organization's collections, each with its sharing dialog (a collection's access reaches every space in it). */
export function CollectionsSection(props: { organizationId: string; admin: boolean }) {
  const collections = useQuery(`admin:${props.organizationId}:collections`, () => api.collections(props.organizationId));
  const [open, setOpen] = useState<string | null>(null);
  if (collections.error) return <ErrorNote error={collections.error} />;
  if (!collections.data) return <p aria-busy="true">Loading…</p>;
  return (
    <>
      <p class="lead">Sharing a collection shares every space and collection inside it.</p>
      {collections.data.items.length === 0 && <p class="empty">No collections yet. Create one on the home screen (<strong>New collection</strong>), then share it here.</p>}
      {collections.data.items.map((collection) => (
        <div key={collection.id} class="panel">
          <div class="section-head">
            <h2 id={`collection-${collection.id}`}>{collection.title}</h2>
            <button type="button" class="button" aria-expanded={open === collection.id} onClick={() => setOpen(open === collection.id ? null : collection.id)}>
              {open === collection.id ? 'Close' : 'Share'}
            </button>
          </div>
          {open === collection.id && (
            <Suspense fallback={<p aria-busy="true">Loading…</p>}>
              <SharingPanel organizationId={props.organizationId} kind="collection" id={collection.id} canManage={props.admin} />
            </Suspense>
          )}
        </div>
      ))}
    </>
  );
}
