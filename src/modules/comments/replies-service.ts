import { notifyMentions } from './mentions.ts';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { commentActor, commentScope, findComment, findReply, requireComment, requireReply, type ReplyRow } from '../../access/comments.ts';
import { readBody } from './bodies.ts';
import type { ReplyView } from './views.ts';
import { deleteReactions } from './reactions.ts';
import type { CommentPlace, ListRepliesQuery, PostReplyBody, UpdateReplyBody } from './schemas.ts';
import { applyEdit, readEdit } from './edit.ts';
import { replyView, replyViews } from './views.ts';

/**
 * Replies to a comment. A comment's `replies` counter moves in the transaction of each post and deletion.
 * Replying leaves the comment's status as it is: a resolved comment can be discussed further without
 * being reopened.
 */

export async function postReply(ctx: Context, place: CommentPlace, commentId: string, input: PostReplyBody): Promise<ReplyView> {
  // Read before the transaction (on the worker pool when long), so that reading never holds the database.
  const body = await readBody(input.body);
  return inTransaction(ctx, async (tx) => {
    const scope = await commentScope(tx, place);
    const comment = await requireComment(tx, scope, commentId, true);
    authorize(tx, 'comment.reply', scope.actor);
    const now = nowIso(tx);
    const reply: ReplyRow = {
      id: tx.ids.next(),
      comment_id: comment.id,
      author_id: requireActor(tx).userId,
      body,
      edited_at: null,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto('comment_replies').values(reply).execute();
    await tx.db
      .updateTable('comments')
      .set((eb) => ({ replies: eb('replies', '+', 1) }))
      .where('id', '=', comment.id)
      .execute();
    await notifyMentions(tx, scope, { commentId: comment.id, replyId: reply.id, authorId: reply.author_id, markdown: body });
    return replyView(tx, scope, { ...comment, replies: comment.replies + 1 }, reply);
  });
}

/** The replies of a comment, oldest first (the order of the conversation), then by id. */
export async function listReplies(ctx: Context, place: CommentPlace, commentId: string, query: ListRepliesQuery): Promise<Page<ReplyView>> {
  const scope = await commentScope(ctx, place);
  const comment = await requireComment(ctx, scope, commentId);
  const base = ctx.db.selectFrom('comment_replies').where('comment_replies.comment_id', '=', comment.id);
  const page = await paginate({
    signer: ctx.cursors,
    scope: `comment-replies:${comment.id}`,
    request: query,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('comment_replies')
        .$if(cursor !== undefined, (q) => q.where(after('comment_replies.created_at', 'comment_replies.id', 'asc', cursor!)))
        .orderBy('comment_replies.created_at', 'asc')
        .orderBy('comment_replies.id', 'asc')
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
  return { ...page, items: await replyViews(ctx, scope, comment, page.items) };
}

export async function getReply(ctx: Context, place: CommentPlace, commentId: string, replyId: string): Promise<ReplyView> {
  const scope = await commentScope(ctx, place);
  const comment = await requireComment(ctx, scope, commentId);
  return replyView(ctx, scope, comment, await requireReply(ctx, comment, replyId));
}

/** Changes a reply: `body` (its author; sets editedAt when the text changes) and the caller's own reactions. */
export async function updateReply(ctx: Context, place: CommentPlace, commentId: string, replyId: string, input: UpdateReplyBody): Promise<ReplyView> {
  const body = input.body === undefined ? undefined : await readBody(input.body);
  return inTransaction(ctx, async (tx) => {
    const scope = await commentScope(tx, place);
    const comment = await requireComment(tx, scope, commentId, true);
    const reply = await requireReply(tx, comment, replyId);
    const actor = commentActor(scope, reply.author_id);
    await applyEdit(tx, 'comment_replies', reply, readEdit(tx, actor, input, body));
    return replyView(tx, scope, comment, (await findReply(tx, comment, reply.id)) ?? reply);
  });
}

/**
 * Deletes a reply and its reactions (administrators of the space, or the author); false when there was none
 * (204), also when its comment is gone.
 */
export async function deleteReply(ctx: Context, place: CommentPlace, commentId: string, replyId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const scope = await commentScope(tx, place);
    const comment = await findComment(tx, scope, commentId, true);
    const reply = comment ? await findReply(tx, comment, replyId) : undefined;
    authorize(tx, 'comment.delete', reply ? commentActor(scope, reply.author_id) : null);
    if (!comment || !reply) return false;
    await deleteReactions(tx, [reply.id]);
    const deleted = await tx.db.deleteFrom('comment_replies').where('id', '=', reply.id).executeTakeFirst();
    if (Number(deleted.numDeletedRows) !== 1) return false;
    await tx.db
      .updateTable('comments')
      .set((eb) => ({ replies: eb('replies', '-', 1) }))
      .where('id', '=', comment.id)
      .execute();
    return true;
  });
}
