import type { Context } from '../../context.ts';
import type { CommentRow, CommentScope, ReplyRow } from '../../access/comments.ts';

import { loadReactions, loadUsers } from './reactions.ts';
import { presentTargets } from './targets.ts';
import type { UserRow } from '../../db/rows.ts';
import type { ReactionView } from './reactions.ts';
import type { Target } from './schemas.ts';

/** Everything the presenter needs about these comments or replies, in a fixed number of queries whatever their count. */
async function discussionOf(ctx: Context, scope: CommentScope, rows: Array<{ id: string; author_id: string; resolved_by?: string | null }>): Promise<Discussion> {
  const reactions = await loadReactions(ctx, rows.map((row) => row.id));
  const userIds = new Set<string>();
  for (const row of rows) {
    userIds.add(row.author_id);
    if (row.resolved_by) userIds.add(row.resolved_by);
  }
  for (const list of reactions.values()) for (const reaction of list) for (const entry of reaction.users) userIds.add(entry.userId);
  return { scope, users: await loadUsers(ctx, userIds), reactions };
}

export async function commentViews(ctx: Context, scope: CommentScope, comments: CommentRow[]): Promise<CommentView[]> {
  const [discussion, targets] = await Promise.all([discussionOf(ctx, scope, comments), presentTargets(ctx, scope, comments)]);
  return comments.map((comment) => ({ discussion, comment, target: targets.get(comment.id)! }));
}

export async function commentView(ctx: Context, scope: CommentScope, comment: CommentRow): Promise<CommentView> {
  return (await commentViews(ctx, scope, [comment]))[0];
}

export async function replyViews(ctx: Context, scope: CommentScope, comment: CommentRow, replies: ReplyRow[]): Promise<ReplyView[]> {
  const discussion = await discussionOf(ctx, scope, replies);
  return replies.map((reply) => ({ discussion, comment, reply }));
}

export async function replyView(ctx: Context, scope: CommentScope, comment: CommentRow, reply: ReplyRow): Promise<ReplyView> {
  return (await replyViews(ctx, scope, comment, [reply]))[0];
}

/** What the presenter needs about a set of comments or replies: their place, the users they name, their reactions. */
export interface Discussion {
  scope: CommentScope;
  users: Map<string, UserRow>;
  reactions: Map<string, ReactionView[]>;
}

export interface CommentView {
  discussion: Discussion;
  comment: CommentRow;
  target: Target;
}

export interface ReplyView {
  discussion: Discussion;
  comment: CommentRow;
  reply: ReplyRow;
}
