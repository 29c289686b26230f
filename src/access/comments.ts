import { lockRows } from '../db/locks.ts';
import type { Context } from '../context.ts';
import type { ChangeRequestRow, CommentRow, ReplyRow, SpaceRow } from '../db/rows.ts';
import { NotFound } from '../errors.ts';
import { authorize, type CommentActor } from '../policy/index.ts';
import type { SpaceActor } from '../policy/space.ts';
import { changeRequestAccess } from './change-requests.ts';
import { spaceAccess } from './spaces.ts';

export type { CommentRow, ReplyRow };

/** Where a comment lives: a space's own discussion, or a change request's. */
export interface CommentPlace {
  spaceId: string;
  /** The change request's id or number; undefined for a space comment. */
  changeRequestId?: string;
}

/** Where a discussion takes place: a space, or one of its change requests, with the caller's standing on the space. */
export interface CommentScope {
  space: SpaceRow;
  actor: SpaceActor;
  changeRequest: ChangeRequestRow | null;
}

/**
 * Loads the space (and change request) of a discussion. A space the caller cannot see, or a change request
 * that is not there, is 404; a caller who can see the space without a level on it (a public space) may not
 * read its discussion (403, `comment.view`).
 */
export async function commentScope(ctx: Context, place: CommentPlace): Promise<CommentScope> {
  const scope: CommentScope =
    place.changeRequestId === undefined
      ? { ...(await spaceAccess(ctx, place.spaceId)), changeRequest: null }
      : await changeRequestAccess(ctx, place.spaceId, place.changeRequestId);
  authorize(ctx, 'comment.view', scope.actor);
  return scope;
}

/**
 * A comment of this space's own discussion, or of this change request's; undefined when there is none.
 * `lock` (in a transaction that changes the comment, its replies or reactions) holds the row until the
 * transaction ends on PostgreSQL, so changes to one comment and its deletion happen one after the other;
 * SQLite runs one write transaction at a time already.
 */
export async function findComment(ctx: Context, scope: CommentScope, commentId: string, lock = false): Promise<CommentRow | undefined> {
  return ctx.db
    .selectFrom('comments')
    .selectAll()
    .where('id', '=', commentId)
    .where('space_id', '=', scope.space.id)
    .where((eb) => (scope.changeRequest ? eb('change_request_id', '=', scope.changeRequest.id) : eb('change_request_id', 'is', null)))
    .$call((q) => (lock ? lockRows(q, ctx.dialect, { mode: 'no-key-update' }) : q))
    .executeTakeFirst();
}

/**
 * Holds the row that counts a discussion's open comments (the change request's, or the space's for its own
 * discussion) until the transaction ends on PostgreSQL. A transaction that locks a comment and then moves
 * that counter calls this first, so it takes the rows in the global order (change request, space, comment;
 * docs/architecture.md, "Lock order") instead of the comment before its parent.
 */
export async function lockCommentCounter(ctx: Context, scope: CommentScope): Promise<void> {
  const query = scope.changeRequest
    ? ctx.db.selectFrom('change_requests').select('id').where('id', '=', scope.changeRequest.id)
    : ctx.db.selectFrom('spaces').select('id').where('id', '=', scope.space.id);
  await lockRows(query as typeof query, ctx.dialect, { mode: 'no-key-update' }).execute();
}

export async function requireComment(ctx: Context, scope: CommentScope, commentId: string, lock = false): Promise<CommentRow> {
  const comment = await findComment(ctx, scope, commentId, lock);
  if (!comment) throw new NotFound(`No comment "${commentId}" exists in ${placeName(scope)}.`);
  return comment;
}

export async function findReply(ctx: Context, comment: CommentRow, replyId: string): Promise<ReplyRow | undefined> {
  return ctx.db.selectFrom('comment_replies').selectAll().where('id', '=', replyId).where('comment_id', '=', comment.id).executeTakeFirst();
}

export async function requireReply(ctx: Context, comment: CommentRow, replyId: string): Promise<ReplyRow> {
  const reply = await findReply(ctx, comment, replyId);
  if (!reply) throw new NotFound(`The comment "${comment.id}" has no reply "${replyId}".`);
  return reply;
}

/** The caller on a comment or reply written by `authorId`. */
export function commentActor(scope: CommentScope, authorId: string): CommentActor {
  return { space: scope.actor, authorId };
}

export function placeName(scope: CommentScope): string {
  return scope.changeRequest ? `the change request "${scope.changeRequest.id}"` : `the space "${scope.space.id}"`;
}

/**
 * Keeps the open-comment counters right: `spaces.comments` counts the open comments of the space's own
 * discussion, `change_requests.comments` those of each change request. Called in the transaction of the
 * change, with +1 when a comment opens and -1 when one is resolved or an open one is deleted.
 */
export async function adjustOpenComments(ctx: Context, comment: Pick<CommentRow, 'space_id' | 'change_request_id'>, delta: 1 | -1): Promise<void> {
  if (comment.change_request_id) {
    await ctx.db
      .updateTable('change_requests')
      .set((eb) => ({ comments: eb('comments', '+', delta) }))
      .where('id', '=', comment.change_request_id)
      .execute();
  } else {
    await ctx.db
      .updateTable('spaces')
      .set((eb) => ({ comments: eb('comments', '+', delta) }))
      .where('id', '=', comment.space_id)
      .execute();
  }
}
