import { useState } from 'preact/hooks';
import { useSession } from '../account/session.ts';
import { invalidate, useQuery } from '../api/cache.ts';
import { api } from '../api/operations.ts';
import { ErrorNote } from '../app/error-note.tsx';
import { CommentBody, When } from './comment-body.tsx';
import { CommentForm } from './comment-form.tsx';
import type { Comment, CommentPlace, Reaction } from './types.ts';
import { BlockAnchorNote } from './block-anchor-note.tsx';
import type { Mentionable } from './mentions.ts';

/** The reactions offered on every comment (any other emoji someone reacted with through the API shows too). */
const OFFERED = ['👍', '🎉', '❤️'];

export const commentsKey = (place: CommentPlace) => `comments:${place.spaceId}:${place.changeRequestId ?? 'space'}:`;

/**
 * One thread: the comment, its reactions, resolve or reopen, and its replies with a box to answer. `closed`: the
 * person may no longer act here (their access was taken away while it was shown): the thread is only read.
 */
export function CommentThread(props: { place: CommentPlace; comment: Comment; showPage: boolean; people?: Mentionable[]; closed?: boolean }) {
  const { place, comment } = props;
  const session = useSession();
  const [open, setOpen] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const key = commentsKey(place);
  const replies = useQuery(open ? `${key}replies:${comment.id}` : null, () => api.replies(place, comment.id));
  const resolved = comment.status === 'resolved';
  const canReply = comment.permissions.reply && !props.closed;
  const headingId = `comment-${comment.id}`;

  const act = async (action: () => Promise<unknown>) => {
    setBusy(true);
    setError(null);
    try {
      await action();
      invalidate(key);
    } catch (caught) {
      setError((caught as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const mine = (reaction?: Reaction) => Boolean(reaction?.users.some((entry) => entry.user.id === session.user.id));
  const emojis = [...OFFERED, ...comment.reactions.map((reaction) => reaction.emoji).filter((emoji) => !OFFERED.includes(emoji))];

  return (
    <article class={`comment${resolved ? ' comment-resolved' : ''}`} aria-labelledby={headingId}>
      <h3 id={headingId} class="comment-head">
        <span class="comment-author">{comment.postedBy.displayName}</span>{' '}
        <span class="meta">
          <When at={comment.postedAt} />
          {comment.editedAt ? ' · edited' : ''}
          {resolved ? ` · resolved${comment.resolvedBy ? ` by ${comment.resolvedBy.displayName}` : ''}` : ''}
        </span>
      </h3>
      {props.showPage && comment.target.page && (
        <p class="meta">
          On “{comment.target.page.title}”{comment.target.page.outdated ? ' (the page changed since)' : ''}
        </p>
      )}
      {comment.target.node?.preview && <blockquote class="comment-anchor">{comment.target.node.preview}</blockquote>}
      {comment.target.node && !comment.target.node.preview && <BlockAnchorNote node={comment.target.node.id} />}
      <CommentBody markdown={comment.body.markdown} />
      <div class="comment-actions">
        {canReply &&
          emojis.map((emoji) => {
            const reaction = comment.reactions.find((entry) => entry.emoji === emoji);
            const pressed = mine(reaction);
            return (
              <button
                key={emoji}
                type="button"
                class="reaction"
                aria-pressed={pressed}
                disabled={busy}
                onClick={() => act(() => api.updateComment(place, comment.id, pressed ? { removedReactions: [emoji] } : { addedReactions: [emoji] }))}
              >
                <span class="visually-hidden">React with </span>
                {emoji}
                {reaction ? ` ${reaction.count}` : ''}
              </button>
            );
          })}
        <button type="button" class="link-button" aria-expanded={open} aria-controls={`replies-${comment.id}`} onClick={() => setOpen(!open)}>
          {comment.replies === 0 ? 'Reply' : `${comment.replies} ${comment.replies === 1 ? 'reply' : 'replies'}`}
        </button>
        {canReply && (
          <button type="button" class="button small" disabled={busy} onClick={() => act(() => api.updateComment(place, comment.id, { resolved: !resolved }))}>
            {resolved ? 'Reopen' : 'Resolve'}
          </button>
        )}
      </div>
      {error && <p class="error-note" role="alert">{error}</p>}
      {open && (
        <div id={`replies-${comment.id}`} class="comment-replies">
          {replies.error && <ErrorNote error={replies.error} />}
          {replies.data?.items.map((reply) => (
            <div key={reply.id} class="comment-reply">
              <p class="comment-head">
                <span class="comment-author">{reply.postedBy.displayName}</span> <span class="meta"><When at={reply.postedAt} /></span>
              </p>
              <CommentBody markdown={reply.body.markdown} />
            </div>
          ))}
          {canReply && (
            <CommentForm
              id={`reply-${comment.id}`}
              label={`Reply to ${comment.postedBy.displayName}`}
              action="Reply"
              people={props.people}
              onSend={async (markdown) => {
                await api.postReply(place, comment.id, markdown);
                invalidate(key);
              }}
            />
          )}
        </div>
      )}
    </article>
  );
}
