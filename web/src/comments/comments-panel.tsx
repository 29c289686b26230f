import { useState } from 'preact/hooks';
import { invalidate, useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { CommentForm } from './comment-form.tsx';
import { commentsKey, CommentThread } from './comment-thread.tsx';
import type { CommentFilter, CommentPlace } from './types.ts';
import './comments.css';

const FILTERS: Array<[CommentFilter, string]> = [
  ['open', 'Open'],
  ['resolved', 'Resolved'],
  ['all', 'All'],
];

/**
 * A discussion: a change request's, or a space's own (then `page` narrows it to the comments about one page,
 * and a new comment is about that page). Threads oldest first, open ones by default; a new comment, replies,
 * reactions, resolve and reopen.
 */
export function CommentsPanel(props: { place: CommentPlace; page?: { id: string; title: string }; canComment: boolean; headingLevel?: 2 | 3 }) {
  const { place, page } = props;
  const [filter, setFilter] = useState<CommentFilter>('open');
  const key = commentsKey(place);
  const comments = useQuery(`${key}${page?.id ?? '*'}:${filter}`, () => api.comments(place, filter, page?.id));
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';
  const titleId = `comments-title-${page?.id ?? 'all'}`;
  const items = comments.data?.items ?? [];
  const what = page ? 'this page' : 'this change request';

  return (
    <section class="comments" aria-labelledby={titleId}>
      <div class="section-head">
        <Heading id={titleId}>Comments</Heading>
        <div class="segmented" role="group" aria-label="Show comments">
          {FILTERS.map(([value, label]) => (
            <button key={value} type="button" class="segment" aria-pressed={filter === value} onClick={() => setFilter(value)}>
              {label}
            </button>
          ))}
        </div>
      </div>
      {comments.error && <ErrorNote error={comments.error} />}
      {comments.data && items.length === 0 && (
        <p class="empty">
          {filter === 'open' ? `No open comments on ${what}.` : filter === 'resolved' ? 'No resolved comments.' : `No comments on ${what} yet.`}
          {props.canComment && filter !== 'resolved' ? ' Write the first one below.' : ''}
        </p>
      )}
      {!comments.data && !comments.error && <p aria-busy="true">Loading the comments…</p>}
      {items.map((comment) => (
        <CommentThread key={comment.id} place={place} comment={comment} showPage={!page} />
      ))}
      {props.canComment ? (
        <CommentForm
          id={`new-comment-${page?.id ?? 'all'}`}
          label={page ? 'Comment on this page' : 'New comment'}
          action="Comment"
          onSend={async (markdown) => {
            await api.postComment(place, { markdown, ...(page ? { page: page.id } : {}) });
            if (filter === 'resolved') setFilter('open');
            invalidate(key);
          }}
        />
      ) : (
        <p class="meta">You may read this discussion; commenting needs the comment role or higher in this space.</p>
      )}
    </section>
  );
}
