import { useState } from 'preact/hooks';
import { useSession } from '../account/session.ts';
import { invalidate, useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import type { ChangeRequest, MergeRules, Review } from '../api/types.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { Link } from '../app/link.tsx';
import { navigate, paths } from '../app/router.ts';
import { CommentsPanel } from '../comments/comments-panel.tsx';
import { historyApi, type MergeConflict } from '../history/api.ts';
import { ChangedPageDiff } from './changed-page-diff.tsx';
import { ConflictsPanel } from './conflicts-panel.tsx';
import { DiffModeToggle, useDiffMode } from './rendered-diff.tsx';

const CHANGE_LABELS: Record<string, string> = {
  page_created: 'Added',
  page_edited: 'Edited',
  page_deleted: 'Deleted',
  page_moved: 'Moved',
  file_created: 'File added',
  file_edited: 'File changed',
  file_deleted: 'File deleted',
};

/** Why the merge button is off, in words, or null when nothing stands in the way. */
export function mergeBlocker(changeRequest: ChangeRequest, rules: MergeRules, reviews: Review[], changes: number): string | null {
  if (changeRequest.status === 'merged') return 'This change request is already merged.';
  if (changeRequest.status === 'archived') return 'This change request is archived: reopen it to merge.';
  if (changes === 0) return 'Nothing to merge: no page differs from the space.';
  const approvals = reviews.filter((review) => review.status === 'approved' && !review.outdated).length;
  if (approvals < rules.minApprovals) {
    return `The space asks for ${rules.minApprovals} approval${rules.minApprovals === 1 ? '' : 's'}; this change request has ${approvals}.`;
  }
  if (rules.blockOnChangesRequested && reviews.some((review) => review.status === 'changes-requested' && !review.outdated)) return 'A reviewer asked for changes.';
  if (!changeRequest.permissions.merge) return 'You may not merge in this space: ask someone who can merge.';
  return null;
}

/** A change request: its changed pages, reviewers and reviews, and merging. */
export function ReviewScreen(props: { organizationId: string; spaceId: string; changeRequestId: string }) {
  const { spaceId, changeRequestId, organizationId } = props;
  const session = useSession();
  const prefix = `cr:${spaceId}:${changeRequestId}`;
  const changeRequest = useQuery(`${prefix}:cr`, () => api.changeRequest(spaceId, changeRequestId));
  const changes = useQuery(`${prefix}:changes`, () => api.changes(spaceId, changeRequestId));
  const reviews = useQuery(`${prefix}:reviews`, () => api.reviews(spaceId, changeRequestId));
  const requested = useQuery(`${prefix}:reviewers`, () => api.requestedReviewers(spaceId, changeRequestId));
  const rules = useQuery(`space:${spaceId}:merge-rules`, () => api.mergeRules(spaceId));
  const members = useQuery(`org:${organizationId}:members`, () => api.members(organizationId));
  const space = useQuery(`space:${spaceId}`, () => api.space(spaceId));
  const [reviewer, setReviewer] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [diffMode, setDiffMode] = useDiffMode(session.user.id);
  const [conflicts, setConflicts] = useState<MergeConflict[] | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  const act = async (action: () => Promise<unknown>, after?: () => void) => {
    setError(null);
    setBusy(true);
    try {
      await action();
      invalidate(prefix);
      invalidate(`space:${spaceId}`);
      after?.();
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };

  const failed = changeRequest.error ?? changes.error;
  if (failed) return <main id="main" class="screen"><ErrorNote error={failed} /></main>;
  if (!changeRequest.data || !changes.data) return <main id="main" class="screen" aria-busy="true"><p>Loading…</p></main>;
  const cr = changeRequest.data;
  const reviewList = reviews.data?.items ?? [];
  // Until the rules and the reviews are known, the button waits rather than offering a merge the rules may refuse.
  const blocker = !rules.data || !reviews.data ? 'Checking the space\'s merge rules…' : mergeBlocker(cr, rules.data, reviewList, changes.data.changes.length);
  const mine = cr.createdBy.id === session.user.id;
  // The version each change starts from: the last revision of the space the change request includes.
  const base = (cr as typeof cr & { revisionMergedAncestor?: string }).revisionMergedAncestor ?? cr.revisionInitial;
  const place = { spaceId, changeRequestId };
  /** Merging or updating from the space: conflicts open the panel that resolves them. */
  const mergeOrUpdate = (which: 'merge' | 'update') =>
    act(async () => {
      setNotice(null);
      const answer = which === 'merge' ? await historyApi.merge(spaceId, changeRequestId) : await historyApi.updateFromSpace(spaceId, changeRequestId);
      if (answer.result === 'conflicts') {
        setConflicts(answer.conflicts ?? []);
        return;
      }
      setConflicts(null);
      if (which === 'merge') navigate(paths.space(organizationId, spaceId));
      else setNotice('The change request now includes the space\'s latest changes.');
    });
  const candidates = (members.data?.items ?? []).filter((member) => member.user.id !== cr.createdBy.id);

  return (
    <main id="main" class="screen narrow">
      <p class="crumbs">
        <Link href={paths.edit(organizationId, spaceId, changeRequestId)}>← Back to editing</Link> · <Link href={paths.space(organizationId, spaceId)}>The space</Link>
      </p>
      <h1>#{cr.number} {cr.subject || 'Untitled change request'}</h1>
      <p class="meta">
        <span class={`badge badge-${cr.status}`}>{cr.status}</span> by {cr.createdBy.displayName}
        {cr.outdated ? ' · the space changed since: merging will combine both' : ''}
      </p>
      {error && <p class="error-note" role="alert">{error}</p>}
      {[reviews.error, requested.error, rules.error, members.error].map((failure, index) => failure && <ErrorNote key={index} error={failure} />)}

      <section aria-labelledby="changes-title">
        <h2 id="changes-title">Changed pages</h2>
        {changes.data.changes.some((change) => change.page) && <DiffModeToggle mode={diffMode} onChange={setDiffMode} />}
        {changes.data.changes.length === 0 ? (
          <p class="empty">No page differs from the space yet. <Link href={paths.edit(organizationId, spaceId, changeRequestId)}>Write something</Link> first.</p>
        ) : (
          <ul class="change-list">
            {changes.data.changes.map((change, index) => (
              <li key={index}>
                <span class="badge">{CHANGE_LABELS[change.type] ?? change.type}</span> {change.page?.title ?? 'A file'}
                {change.page && change.type !== 'page_moved' && (
                  <ChangedPageDiff
                    key={`${change.page.id}:${base}:${cr.revision}`}
                    cacheKey={`${prefix}:diff:${change.page.id}:${base}:${cr.revision}`}
                    title={change.page.title}
                    mode={diffMode}
                    place={place}
                    before={change.type === 'page_created' ? undefined : () => historyApi.revisionPage(spaceId, base, change.page!.id)}
                    after={change.type === 'page_deleted' ? undefined : () => api.changeRequestPage(spaceId, changeRequestId, change.page!.id)}
                  />
                )}
                {change.diff && <DiffView diff={change.diff} />}
              </li>
            ))}
          </ul>
        )}
      </section>

      <section aria-labelledby="reviews-title">
        <h2 id="reviews-title">Reviews</h2>
        {cr.status === 'draft' && mine && (
          <p>
            This change request is a draft.{' '}
            <button type="button" class="button" disabled={busy} onClick={() => act(() => api.updateChangeRequest(spaceId, changeRequestId, { status: 'open' }))}>Mark ready for review</button>
          </p>
        )}
        {(requested.data?.items.length ?? 0) > 0 && (
          <p>Review asked of: {requested.data!.items.map((entry) => entry.user?.displayName).join(', ')}</p>
        )}
        {cr.status !== 'merged' && (
          <form
            class="inline-form"
            onSubmit={(event) => {
              event.preventDefault();
              if (reviewer) void act(() => api.requestReviewers(spaceId, changeRequestId, [reviewer]), () => setReviewer(''));
            }}
          >
            <label>
              Ask for a review from{' '}
              <select value={reviewer} onChange={(event) => setReviewer(event.currentTarget.value)}>
                <option value="">Choose a person…</option>
                {candidates.map((member) => (
                  <option key={member.user.id} value={member.user.id}>{member.user.displayName}</option>
                ))}
              </select>
            </label>{' '}
            <button type="submit" class="button" disabled={busy || !reviewer}>Request review</button>
          </form>
        )}
        {reviewList.length === 0 ? (
          <p class="empty">No reviews yet.{rules.data && rules.data.minApprovals > 0 ? ` The space asks for ${rules.data.minApprovals} approval(s) before merging.` : ''}</p>
        ) : (
          <ul class="review-list">
            {reviewList.map((review) => (
              <li key={review.id}>
                {review.reviewer.displayName}: <strong>{review.status === 'approved' ? 'approved' : 'asked for changes'}</strong>
                {review.outdated ? ' (before the latest changes)' : ''}
              </li>
            ))}
          </ul>
        )}
        {cr.permissions.review && !mine && cr.status !== 'merged' && (
          <p>
            <button type="button" class="button primary" disabled={busy} onClick={() => act(() => api.submitReview(spaceId, changeRequestId, 'approved'))}>Approve</button>{' '}
            <button type="button" class="button" disabled={busy} onClick={() => act(() => api.submitReview(spaceId, changeRequestId, 'changes-requested'))}>Request changes</button>
          </p>
        )}
      </section>

      <CommentsPanel place={{ spaceId, changeRequestId }} canComment={Boolean(space.data?.permissions.comment)} />

      {conflicts && (
        <ConflictsPanel
          spaceId={spaceId}
          changeRequestId={changeRequestId}
          conflicts={conflicts}
          mode={diffMode}
          canEdit={cr.permissions.edit}
          onResolved={() => {
            setConflicts(null);
            setNotice('Conflicts resolved: the change request now includes the space\'s changes and can be merged.');
            invalidate(prefix);
            invalidate(`space:${spaceId}`);
          }}
        />
      )}

      <section aria-labelledby="merge-title">
        <h2 id="merge-title">Merge</h2>
        {cr.status === 'archived' && cr.permissions.edit && (
          <p>
            This change request is archived: nobody can edit or merge it.{' '}
            <button type="button" class="button" disabled={busy} onClick={() => act(() => api.updateChangeRequest(spaceId, changeRequestId, { status: 'open' }))}>Reopen</button>
          </p>
        )}
        {notice && <p class="success-note" role="status">{notice}</p>}
        {cr.outdated && cr.permissions.edit && cr.status !== 'merged' && cr.status !== 'archived' && (
          <p>
            The space changed since this change request started.{' '}
            <button type="button" class="button" disabled={busy} onClick={() => mergeOrUpdate('update')}>Update from the space</button>
          </p>
        )}
        <button
          type="button"
          class="button primary"
          disabled={busy || blocker !== null}
          aria-describedby="merge-reason"
          onClick={() => mergeOrUpdate('merge')}
        >
          Merge into the space
        </button>
        <p id="merge-reason" class="meta">{blocker ?? 'Everything the space asks for is there: merging makes these pages the space\'s.'}</p>
        {(cr.status === 'open' || cr.status === 'draft') && cr.permissions.edit && (
          <p>
            <button type="button" class="button" disabled={busy} onClick={() => act(() => api.updateChangeRequest(spaceId, changeRequestId, { status: 'archived' }))}>Archive</button>{' '}
            <span class="meta">Closes it without merging; it can be reopened.</span>
          </p>
        )}
      </section>
    </main>
  );
}

/** A page's Markdown diff, line by line, added and removed lines marked in words for screen readers too. */
function DiffView({ diff }: { diff: string }) {
  const lines = diff.split('\n').filter((line) => !line.startsWith('---') && !line.startsWith('+++'));
  return (
    <details class="diff">
      <summary>Show the changes</summary>
      <pre>
        {lines.map((line, index) => {
          const kind = line.startsWith('+') ? 'added' : line.startsWith('-') ? 'removed' : line.startsWith('@@') ? 'hunk' : 'same';
          return (
            <span key={index} class={`diff-${kind}`}>
              {kind === 'added' ? <span class="visually-hidden">Added: </span> : kind === 'removed' ? <span class="visually-hidden">Removed: </span> : null}
              {line}
              {'\n'}
            </span>
          );
        })}
      </pre>
    </details>
  );
}
