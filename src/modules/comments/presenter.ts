import type { Context } from '../../context.ts';
import { commentPermissions } from '../../policy/comment.ts';
import { presentUser } from '../users/presenter.ts';
import { commentActor, type CommentScope } from '../../access/comments.ts';
import { presentBody } from './bodies.ts';
import type { BodyFormat, Comment, Reply } from './schemas.ts';
import type { Discussion, CommentView, ReplyView } from './views.ts';
import type { Page } from '../../db/keyset.ts';

type Config = Pick<Context, 'config'>;

/** The API address of a comment: under the space, or under its change request. */
export function commentLocation(ctx: Config, scope: CommentScope, commentId: string): string {
  const place = scope.changeRequest ? `/change-requests/${scope.changeRequest.id}` : '';
  return `${ctx.config.publicUrl}/v1/spaces/${scope.space.id}${place}/comments/${commentId}`;
}

function user(ctx: Config, discussion: Discussion, id: string) {
  const row = discussion.users.get(id);
  if (!row) throw new Error(`User ${id} of a comment was not loaded.`);
  return presentUser(ctx, row);
}

function reactions(ctx: Config, discussion: Discussion, subjectId: string): Comment['reactions'] {
  return (discussion.reactions.get(subjectId) ?? []).map((reaction) => ({
    emoji: reaction.emoji,
    count: reaction.users.length,
    users: reaction.users.map((entry) => ({ user: user(ctx, discussion, entry.userId), reactedAt: entry.reactedAt })),
  }));
}

export async function presentComment(ctx: Config, view: CommentView, format?: BodyFormat): Promise<Comment> {
  const { discussion, comment } = view;
  const presented: Comment = {
    object: 'comment',
    id: comment.id,
    status: comment.status === 'resolved' ? 'resolved' : 'open',
    postedBy: user(ctx, discussion, comment.author_id),
    postedAt: comment.created_at,
    reactions: reactions(ctx, discussion, comment.id),
    replies: comment.replies,
    body: await presentBody(comment.body, format),
    target: view.target,
    urls: { location: commentLocation(ctx, discussion.scope, comment.id) },
    permissions: commentPermissions(commentActor(discussion.scope, comment.author_id)),
  };
  if (comment.edited_at) presented.editedAt = comment.edited_at;
  if (comment.status === 'resolved' && comment.resolved_at && comment.resolved_by) {
    presented.resolvedAt = comment.resolved_at;
    presented.resolvedBy = user(ctx, discussion, comment.resolved_by);
  }
  return presented;
}

export async function presentReply(ctx: Config, view: ReplyView, format?: BodyFormat): Promise<Reply> {
  const { discussion, comment, reply } = view;
  const presented: Reply = {
    object: 'comment-reply',
    id: reply.id,
    postedBy: user(ctx, discussion, reply.author_id),
    postedAt: reply.created_at,
    reactions: reactions(ctx, discussion, reply.id),
    body: await presentBody(reply.body, format),
    urls: { location: `${commentLocation(ctx, discussion.scope, comment.id)}/replies/${reply.id}` },
    permissions: commentPermissions(commentActor(discussion.scope, reply.author_id)),
  };
  if (reply.edited_at) presented.editedAt = reply.edited_at;
  return presented;
}

/** A page of comments or replies, presented; their bodies are read side by side (long ones on the worker pool). */
export async function presentPage<A, B>(page: Page<A>, present: (item: A) => Promise<B>): Promise<Page<B>> {
  return { ...page, items: await Promise.all(page.items.map(present)) };
}
