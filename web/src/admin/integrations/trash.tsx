import '../people/admin.css';
import { invalidate, useQuery } from '../../api/cache.ts';
import { ErrorNote } from '../../app/error-note.tsx';
import { call } from '../people/api.ts';
import { ActionError, useAction, when } from '../people/ui.tsx';

interface TrashItem {
  kind: 'space' | 'collection';
  id: string;
  title: string;
  deletedAt: string;
  restorableUntil: string;
}

/** The organization's trash: restore a space or a collection within its seven days, or delete it now. */
export function TrashSection(props: { organizationId: string }) {
  const key = `admin:${props.organizationId}:trash`;
  const trash = useQuery(key, () => call<{ items: TrashItem[] }>('listTrash', { organizationId: props.organizationId }));
  const action = useAction();
  const changed = () => {
    invalidate(key);
    invalidate(`org:${props.organizationId}:`);
    invalidate(`admin:${props.organizationId}:collections`);
  };
  const restore = (item: TrashItem) =>
    action.run(async () => {
      if (item.kind === 'space') await call('restoreSpace', { spaceId: item.id }, {});
      else await call('restoreCollection', { organizationId: props.organizationId, collectionId: item.id }, {});
      changed();
    });
  const purge = (item: TrashItem) => {
    if (!window.confirm(`Delete the ${item.kind} ${item.title} for good? This cannot be undone.`)) return;
    void action.run(async () => {
      await call('deleteFromTrash', { organizationId: props.organizationId, kind: item.kind === 'space' ? 'spaces' : 'collections', itemId: item.id });
      changed();
    });
  };
  if (trash.error) return <ErrorNote error={trash.error} />;
  if (!trash.data) return <p aria-busy="true">Loading…</p>;
  return (
    <>
      <p class="lead">A deleted space or collection stays here for seven days, then it is removed for good. A collection comes back with what was deleted with it.</p>
      <ActionError error={action.error} />
      {trash.data.items.length === 0 && <p class="empty">The trash is empty. A space or collection you delete waits here, to be restored or deleted for good.</p>}
      <ul class="card-list">
        {trash.data.items.map((item) => (
          <li key={item.id} class="card">
            <strong>{item.title || 'Untitled'}</strong>
            <span class="meta">{item.kind === 'space' ? 'Space' : 'Collection'} · deleted {when(item.deletedAt)} · restorable until {when(item.restorableUntil)}</span>
            <div class="row">
              <button type="button" class="button primary" onClick={() => restore(item)} disabled={action.busy} aria-label={`Restore ${item.title}`}>Restore</button>
              <button type="button" class="button danger" onClick={() => purge(item)} disabled={action.busy} aria-label={`Delete now: ${item.title}`}>Delete now</button>
            </div>
          </li>
        ))}
      </ul>
    </>
  );
}
