import { useEffect, useState } from 'preact/hooks';
import { invalidate, useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { CommentForm } from './comment-form.tsx';
import { commentsKey, CommentThread } from './comment-thread.tsx';
import type { CommentFilter, CommentPlace } from './types.ts';
import './comments.css';
import { blockComments } from './block-anchors.ts';
import { usePeople } from './people.ts';

const FILTERS: Array<[CommentFilter, string]> = [
  ['open', 'Open'],
  ['resolved', 'Resolved'],
  ['all', 'All'],
];

/**
 * A discussion: a change request's, or a space's own (then `page` narrows it to the comments about one page,
 * and a new comment is about that page). Threads oldest first, open ones by default; a new comment, replies,
 * reactions, resolve and reopen. `closed`: why the person may no longer take part (their access was taken away
 * while the page was open), said in place of the box to comment; nothing in the panel then offers an action.
 */
export function CommentsPanel(props: { place: CommentPlace; page?: { id: string; title: string }; canComment: boolean; closed?: string; headingLevel?: 2 | 3 }) {
  const { place, page } = props;
  const [filter, setFilter] = useState<CommentFilter>('open');
  const key = commentsKey(place);
  const comments = useQuery(`${key}${page?.id ?? '*'}:${filter}`, () => api.comments(place, filter, page?.id));
  const Heading = props.headingLevel === 3 ? 'h3' : 'h2';
  const titleId = `comments-title-${page?.id ?? 'all'}`;
  const items = comments.data?.items ?? [];
  const what = page ? 'this page' : 'this change request';
  const people = usePeople(place.spaceId);
  const canComment = props.canComment && !props.closed;
  // Comments on blocks (web/src/comments/block-anchors.ts): the block chosen in the editor, and the blocks marked there.
  const [, setTick] = useState(0);
  useEffect(() => blockComments.subscribe(() => setTick((n) => n + 1)), []);
  const anchor = page ? blockComments.pending : null;
  useEffect(() => {
    if (page) blockComments.setAnchored(items.filter((comment) => comment.status === 'open' && comment.target.node).map((comment) => comment.target.node!.id));
  }, [items, page?.id]);

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
          {canComment && filter !== 'resolved' ? ' Write the first one below.' : ''}
        </p>
      )}
      {!comments.data && !comments.error && <p aria-busy="true">Loading the comments…</p>}
      {items.map((comment) => (
        <CommentThread key={comment.id} place={place} comment={comment} showPage={!page} people={people} closed={Boolean(props.closed)} />
      ))}
      {props.closed ? (
        <p class="meta comments-closed">{props.closed}</p>
      ) : canComment ? (
        <CommentForm
          id={`new-comment-${page?.id ?? 'all'}`}
          label={anchor ? 'Comment on the block' : page ? 'Comment on this page' : 'New comment'}
          action="Comment"
          people={people}
          onSend={async (markdown) => {
            if (page && anchor) {
              await api.postBlockComment(place, { markdown, page: page.id, node: anchor.node });
              blockComments.clearPending();
            } else await api.postComment(place, { markdown, ...(page ? { page: page.id } : {}) });
            if (filter === 'resolved') setFilter('open');
            invalidate(key);
          }}
        >
          {anchor && (
            <p class="comment-anchor-note">
              <span class="meta">About the block </span>
              <q>{anchor.preview}</q>{' '}
              <button type="button" class="link-button" onClick={() => blockComments.clearPending()}>
                Comment on the whole page instead
              </button>
            </p>
          )}
        </CommentForm>
      ) : (
        <p class="meta">You may read this discussion; commenting needs the comment role or higher in this space.</p>
      )}
    </section>
  );
}
