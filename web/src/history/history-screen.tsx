import { useState } from 'preact/hooks';
import { useSession } from '../account/session.ts';
import { useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { Link } from '../app/link.tsx';
import { navigate, paths } from '../app/router.ts';
import { ChangedPageDiff } from '../change-requests/changed-page-diff.tsx';
import { DiffModeToggle, useDiffMode } from '../change-requests/rendered-diff.tsx';
import { historyApi, type HistoryEntry } from './api.ts';

const CHANGE_WORDS: Record<HistoryEntry['pages'][number]['change'], string> = {
  page_created: 'Added',
  page_edited: 'Edited',
  page_deleted: 'Deleted',
  page_moved: 'Moved',
};

const when = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/** What a revision was, in words: the change request it merged, a restore, or direct edits. */
export function describeRevision(entry: HistoryEntry): string {
  if (entry.mergedFrom) return `Merged #${entry.mergedFrom.number} ${entry.mergedFrom.subject ?? 'Untitled change request'}`;
  if (entry.type === 'rollback') return 'Restored an earlier version';
  if (entry.parents.length === 0) return 'Created the space';
  return 'Edited the space directly';
}

/**
 * A space's history: its revisions newest first (who, when, which pages), and for the chosen one each
 * changed page drawn before and after (side by side or inline), with "Restore" for the space or one page,
 * which opens a change request with that content to review and merge as usual.
 */
export function HistoryScreen(props: { organizationId: string; spaceId: string; revisionId?: string }) {
  const { organizationId, spaceId } = props;
  const session = useSession();
  const space = useQuery(`space:${spaceId}`, () => api.space(spaceId));
  // Keyed by the space's head: a merge or a restore merged elsewhere shows up when the space is read again.
  const first = useQuery(space.data ? `history:${spaceId}:${space.data.revision}` : null, () => historyApi.revisions(spaceId));
  const [older, setOlder] = useState<HistoryEntry[]>([]);
  const [next, setNext] = useState<string | null | undefined>(undefined);
  const [mode, setMode] = useDiffMode(session.user.id);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  if (space.error || first.error) return <main id="main" class="screen"><ErrorNote error={(space.error ?? first.error)!} /></main>;
  if (!space.data || !first.data) return <main id="main" class="screen" aria-busy="true"><p>Loading the history…</p></main>;
  const entries = [...first.data.items, ...older];
  const more = next === undefined ? first.data.next?.page : next;
  const chosen = entries.find((entry) => entry.id === props.revisionId) ?? (props.revisionId ? undefined : entries[0]);

  const loadOlder = async () => {
    if (!more) return;
    setBusy(true);
    setError(null);
    try {
      const page = await historyApi.revisions(spaceId, more);
      setOlder([...older, ...page.items]);
      setNext(page.next?.page ?? null);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const restore = async (revisionId: string, pageId?: string) => {
    setBusy(true);
    setError(null);
    try {
      const changeRequest = await historyApi.restore(spaceId, revisionId, pageId);
      navigate(paths.review(organizationId, spaceId, changeRequest.id));
    } catch (caught) {
      setError((caught as Error).message);
      setBusy(false);
    }
  };

  const canRestore = space.data.permissions.edit;
  return (
    <main id="main" class="screen">
      <p class="crumbs"><Link href={paths.space(organizationId, spaceId)}>← {space.data.title}</Link></p>
      <h1>History</h1>
      <p class="meta">Every version of the space's content, newest first. Restoring opens a change request with the older content, reviewed and merged like any other.</p>
      {error && <p class="error-note" role="alert">{error}</p>}
      <div class="history-layout">
        <nav aria-label="Revisions">
          <ol class="history-list">
            {entries.map((entry) => (
              <li key={entry.id}>
                <Link href={paths.history(organizationId, spaceId, entry.id)} aria-current={chosen?.id === entry.id ? 'page' : undefined}>
                  {when(entry.createdAt)}
                </Link>
                <div class="meta">{entry.createdBy?.displayName ?? 'Quire'} · {describeRevision(entry)}</div>
                <div class="meta">
                  {entry.pages.length === 0 && entry.otherChanges === 0 ? 'No page changed' : entry.pages.map((page) => `${CHANGE_WORDS[page.change]} ${page.title}`).join(', ')}
                  {entry.morePages ? ` and ${entry.morePages} more` : ''}
                  {entry.otherChanges > 0 ? `${entry.pages.length > 0 ? ', ' : ''}${entry.otherChanges} other change(s)` : ''}
                </div>
              </li>
            ))}
          </ol>
          {more && <button type="button" class="button" disabled={busy} onClick={loadOlder}>Show older revisions</button>}
        </nav>
        <section aria-labelledby="revision-title">
          {!chosen ? (
            <p class="empty">This revision is not among those listed. <Link href={paths.history(organizationId, spaceId)}>Show the latest</Link>.</p>
          ) : (
            <RevisionDetail
              entry={chosen}
              organizationId={organizationId}
              spaceId={spaceId}
              current={chosen.id === space.data.revision}
              canRestore={canRestore}
              busy={busy}
              mode={mode}
              onMode={setMode}
              onRestore={restore}
            />
          )}
        </section>
      </div>
    </main>
  );
}

function RevisionDetail(props: {
  entry: HistoryEntry;
  organizationId: string;
  spaceId: string;
  current: boolean;
  canRestore: boolean;
  busy: boolean;
  mode: ReturnType<typeof useDiffMode>[0];
  onMode: ReturnType<typeof useDiffMode>[1];
  onRestore: (revisionId: string, pageId?: string) => void;
}) {
  const { entry, spaceId } = props;
  const parent = entry.parents[0];
  return (
    <>
      <h2 id="revision-title">{describeRevision(entry)}</h2>
      <p class="meta">
        {entry.createdBy?.displayName ?? 'Quire'} · {when(entry.createdAt)}
        {props.current ? ' · the space\'s current content' : ''}
        {entry.mergedFrom && (
          <>
            {' · '}
            <Link href={paths.review(props.organizationId, spaceId, entry.mergedFrom.id)}>Change request #{entry.mergedFrom.number}</Link>
          </>
        )}
      </p>
      <div class="section-head">
        {entry.pages.length > 0 && <DiffModeToggle mode={props.mode} onChange={props.onMode} />}
        {props.canRestore && !props.current && (
          <button type="button" class="button" disabled={props.busy} onClick={() => props.onRestore(entry.id)}>Restore the space to this version</button>
        )}
      </div>
      {entry.pages.length === 0 ? (
        <p class="empty">This revision changed no page{entry.otherChanges > 0 ? ' (only files, reusable contents or variables)' : ''}.</p>
      ) : (
        entry.pages.map((page) => {
          const deleted = page.change === 'page_deleted';
          return (
            <article key={page.id} class="changed-page" aria-labelledby={`page-${page.id}`}>
              <h3 id={`page-${page.id}`}>
                <span class="badge">{CHANGE_WORDS[page.change]}</span> {page.title}
              </h3>
              {page.change !== 'page_moved' && (
                <ChangedPageDiff
                  cacheKey={`history:${spaceId}:${entry.id}:${page.id}`}
                  title={page.title}
                  mode={props.mode}
                  place={{ spaceId }}
                  before={page.change === 'page_created' || !parent ? undefined : () => historyApi.revisionPage(spaceId, parent, page.id)}
                  after={deleted ? undefined : () => historyApi.revisionPage(spaceId, entry.id, page.id)}
                />
              )}
              {props.canRestore && (deleted ? parent : !props.current) && (
                <button type="button" class="button" disabled={props.busy} onClick={() => props.onRestore(deleted ? parent! : entry.id, page.id)}>
                  {deleted ? `Bring “${page.title}” back` : `Restore “${page.title}” to this version`}
                </button>
              )}
            </article>
          );
        })
      )}
    </>
  );
}
