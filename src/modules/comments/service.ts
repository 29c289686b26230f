import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { jsonTextMember } from '../../db/dialect.ts';
import { after, paginate, type Page } from '../../db/keyset.ts';
import { authorize } from '../../policy/index.ts';
import { adjustOpenComments, commentActor, commentScope, findComment, lockCommentCounter, placeName, requireComment, type CommentRow } from '../../access/comments.ts';
import { readBody } from './bodies.ts';
import { applyEdit, readEdit } from './edit.ts';
import type { CommentView } from './views.ts';
import { deleteReactions } from './reactions.ts';
import type { CommentPlace, ListCommentsQuery, PostCommentBody, UpdateCommentBody } from './schemas.ts';
import { newTarget, scopeContent } from './targets.ts';
import { notifyMentions } from './mentions.ts';
import { commentView, commentViews } from './views.ts';

/**
 * The comments of a space's own discussion and of its change requests. Counters: `spaces.comments` and
 * `change_requests.comments` count open comments, and move in the transaction of every post, resolution,
 * reopening and deletion (see adjustOpenComments).
 */

/** Posts a comment (comment level), optionally about a page, a block of it, or a table cell. */
export async function postComment(ctx: Context, place: CommentPlace, input: PostCommentBody): Promise<CommentView> {
  // Read before the transaction (on the worker pool when long), so that reading never holds the database.
  const body = await readBody(input.body);
  return inTransaction(ctx, async (tx) => {
    const scope = await commentScope(tx, place);
    authorize(tx, 'comment.post', scope.actor);
    const target = newTarget(await scopeContent(tx, scope), input, placeName(scope));
    const now = nowIso(tx);
    const comment: CommentRow = {
      id: tx.ids.next(),
      space_id: scope.space.id,
      change_request_id: scope.changeRequest?.id ?? null,
      author_id: requireActor(tx).userId,
      body,
      target: JSON.stringify(target),
      status: 'open',
      resolved_at: null,
      resolved_by: null,
      edited_at: null,
      replies: 0,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto('comments').values(comment).execute();
    await adjustOpenComments(tx, comment, 1);
    await tx.events.emit(tx, 'comment.posted', {
      organizationId: scope.space.organization_id,
      actorId: comment.author_id,
      spaceId: comment.space_id,
      changeRequestId: comment.change_request_id,
      commentId: comment.id,
    });
    await notifyMentions(tx, scope, { commentId: comment.id, replyId: null, authorId: comment.author_id, markdown: body });
    return commentView(tx, scope, comment);
  });
}

/**
 * The comments, newest first unless `order=asc`, filtered by status (all by default), page and authors.
 * Ordered by posting time, then id, so walking `next` visits each comment once.
 */
export async function listComments(ctx: Context, place: CommentPlace, query: ListCommentsQuery): Promise<Page<CommentView>> {
  const scope = await commentScope(ctx, place);
  const order = query.order ?? 'desc';
  const status = query.status ?? 'all';
  const authors = [...new Set(query.authors ?? [])].sort();
  const base = ctx.db
    .selectFrom('comments')
    .where('comments.space_id', '=', scope.space.id)
    .where((eb) => (scope.changeRequest ? eb('comments.change_request_id', '=', scope.changeRequest.id) : eb('comments.change_request_id', 'is', null)))
    .$if(status !== 'all', (q) => q.where('comments.status', '=', status))
    .$if(authors.length > 0, (q) => q.where('comments.author_id', 'in', authors))
    .$if(query.targetPage !== undefined, (q) => q.where(jsonTextMember(ctx.dialect, 'comments.target', 'page'), '=', query.targetPage!));
  const page = await paginate({
    signer: ctx.cursors,
    scope: `comments:${scope.space.id}:${scope.changeRequest?.id ?? ''}:${order}:${status}:${query.targetPage ?? ''}:${authors.join(',')}`,
    request: query,
    count: async () => Number((await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n),
    fetch: (cursor, take) =>
      base
        .selectAll('comments')
        .$if(cursor !== undefined, (q) => q.where(after('comments.created_at', 'comments.id', order, cursor!)))
        .orderBy('comments.created_at', order)
        .orderBy('comments.id', order)
        .limit(take)
        .execute(),
    key: (row) => [row.created_at, row.id],
  });
  return { ...page, items: await commentViews(ctx, scope, page.items) };
}

export async function getComment(ctx: Context, place: CommentPlace, commentId: string): Promise<CommentView> {
  const scope = await commentScope(ctx, place);
  return commentView(ctx, scope, await requireComment(ctx, scope, commentId));
}

/**
 * Changes a comment: `body` (its author; sets editedAt when the text changes), `resolved` (anyone who may
 * comment; true records who and when, false clears them), and the caller's own reactions. Each part is
 * checked with its own policy, then the whole with comment.update.
 */
export async function updateComment(ctx: Context, place: CommentPlace, commentId: string, input: UpdateCommentBody): Promise<CommentView> {
  const body = input.body === undefined ? undefined : await readBody(input.body);
  return inTransaction(ctx, async (tx) => {
    const scope = await commentScope(tx, place);
    // Resolving or reopening moves the open-comment counter: its row before the comment's.
    if (input.resolved !== undefined) await lockCommentCounter(tx, scope);
    const comment = await requireComment(tx, scope, commentId, true);
    const actor = commentActor(scope, comment.author_id);
    const edit = readEdit(tx, actor, input, body);
    await applyEdit(tx, 'comments', comment, edit);
    if (input.resolved !== undefined) await setResolved(tx, comment, input.resolved, requireActor(tx).userId, nowIso(tx));
    const updated = await findComment(tx, scope, comment.id);
    return commentView(tx, scope, updated ?? comment);
  });
}

/**
 * Resolves or reopens a comment. The status is changed only where it is not already the one asked for
 * (a conditional update), so two callers resolving at once move the counter once.
 */
async function setResolved(tx: Context, comment: CommentRow, resolved: boolean, userId: string, now: string): Promise<void> {
  const result = await tx.db
    .updateTable('comments')
    .set(resolved ? { status: 'resolved', resolved_at: now, resolved_by: userId, updated_at: now } : { status: 'open', resolved_at: null, resolved_by: null, updated_at: now })
    .where('id', '=', comment.id)
    .where('status', '=', resolved ? 'open' : 'resolved')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 1) await adjustOpenComments(tx, comment, resolved ? -1 : 1);
}

/**
 * Deletes a comment with its replies and their reactions (administrators of the space, or the author).
 * True when it did; false when there was no such comment here (204).
 */
export async function deleteComment(ctx: Context, place: CommentPlace, commentId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const scope = await commentScope(tx, place);
    await lockCommentCounter(tx, scope);
    const comment = await findComment(tx, scope, commentId, true);
    authorize(tx, 'comment.delete', comment ? commentActor(scope, comment.author_id) : null);
    if (!comment) return false;
    const replies = await tx.db.selectFrom('comment_replies').select('id').where('comment_id', '=', comment.id).execute();
    await deleteReactions(tx, [comment.id, ...replies.map((reply) => reply.id)]);
    await tx.db.deleteFrom('comment_replies').where('comment_id', '=', comment.id).execute();
    const deleted = await tx.db.deleteFrom('comments').where('id', '=', comment.id).returning('status').executeTakeFirst();
    if (!deleted) return false;
    if (deleted.status === 'open') await adjustOpenComments(tx, comment, -1);
    return true;
  });
}
