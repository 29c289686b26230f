import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { changeRequestAccess, type ChangeRequestAccess } from '../../access/change-requests.ts';
import { commentScope, type CommentRow } from '../../access/comments.ts';
import { userLevelOnSpace } from '../../access/spaces.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import { BadRequest, Conflict } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { roleAtLeast } from '../../policy/roles.ts';
import type { UserRow } from '../../db/rows.ts';
import { loadUsers } from '../comments/reactions.ts';
import { postComment } from '../comments/service.ts';
import type { CommentView } from '../comments/views.ts';
import { commentViews } from '../comments/views.ts';
import type { ListReviewersQuery, ListReviewsQuery, RequestReviewersBody, ReviewStatus, SubmitReviewBody } from './schemas.ts';

export interface RequestedReviewerView {
  user: UserRow;
  requestedBy: UserRow;
  revision: string;
  createdAt: string;
}

export interface ReviewView {
  id: string;
  reviewer: UserRow;
  requestedBy: UserRow | null;
  status: ReviewStatus;
  revision: string;
  outdated: boolean;
  comment: CommentView | null;
  createdAt: string;
  updatedAt: string;
}

const UNKNOWN_USER: UserRow = { id: 'unknown', email: '', display_name: 'Unknown user', photo_url: null };

/** Reviews are asked for and given while a change request is a draft or open. */
function assertReviewable(access: ChangeRequestAccess): void {
  const { status, number } = access.changeRequest;
  if (status === 'merged' || status === 'archived') {
    throw new Conflict(`Change request #${number} is ${status}: reviews are asked for and given only while it is a draft or open.`);
  }
}

async function reviewerViews(ctx: Context, rows: Array<{ user_id: string; requested_by: string; revision: string; created_at: string }>): Promise<RequestedReviewerView[]> {
  const users = await loadUsers(ctx, rows.flatMap((row) => [row.user_id, row.requested_by]));
  return rows.map((row) => ({
    user: users.get(row.user_id) ?? UNKNOWN_USER,
    requestedBy: users.get(row.requested_by) ?? UNKNOWN_USER,
    revision: row.revision,
    createdAt: row.created_at,
  }));
}

/** The reviewers asked for on a change request, in the order they were asked. */
export async function listRequestedReviewers(ctx: Context, spaceId: string, changeRequestId: string, query: ListReviewersQuery): Promise<Page<RequestedReviewerView>> {
  const { changeRequest, actor } = await changeRequestAccess(ctx, spaceId, changeRequestId);
  authorize(ctx, 'space.view', actor);
  const base = ctx.db
    .selectFrom('change_request_reviewers')
    .select(['user_id as id', 'user_id', 'requested_by', 'revision', 'created_at'])
    .where('change_request_id', '=', changeRequest.id);
  const page = await pageInCreationOrder(ctx.cursors, base, `reviewers:${changeRequest.id}`, query);
  return { ...page, items: await reviewerViews(ctx, page.items) };
}

/**
 * Asks users to review a change request (edit level). Each must hold the review level on the space; asking
 * again keeps the first request. `subject` renames the change request in the same step.
 */
export async function requestReviewers(ctx: Context, spaceId: string, changeRequestId: string, body: RequestReviewersBody): Promise<RequestedReviewerView[]> {
  return inTransaction(ctx, async (tx) => {
    const access = await changeRequestAccess(tx, spaceId, changeRequestId, { lock: true });
    authorize(tx, 'space.edit', access.actor);
    assertReviewable(access);
    const users = [...new Set(body.users)];
    for (const userId of users) {
      if (!roleAtLeast(await userLevelOnSpace(tx, access.space, userId), 'review')) {
        throw new BadRequest(`The body member "users" names "${userId}", who cannot review in this space: a reviewer needs the review level on it (give it through the space's permissions).`);
      }
    }
    const now = nowIso(tx);
    for (const userId of users) {
      await tx.db
        .insertInto('change_request_reviewers')
        .values({ change_request_id: access.changeRequest.id, user_id: userId, requested_by: access.actor.userId, revision: access.changeRequest.revision, created_at: now })
        .onConflict((oc) => oc.columns(['change_request_id', 'user_id']).doNothing())
        .execute();
    }
    if (body.subject !== undefined && body.subject !== access.changeRequest.subject) {
      await tx.db.updateTable('change_requests').set({ subject: body.subject, updated_at: now }).where('id', '=', access.changeRequest.id).execute();
    }
    if (users.length === 0) return [];
    const rows = await tx.db
      .selectFrom('change_request_reviewers')
      .selectAll()
      .where('change_request_id', '=', access.changeRequest.id)
      .where('user_id', 'in', users)
      .orderBy('created_at')
      .orderBy('user_id')
      .execute();
    return reviewerViews(tx, rows);
  });
}

/** Takes back the request for a user's review (edit level); false when there was none. */
export async function removeRequestedReviewer(ctx: Context, spaceId: string, changeRequestId: string, userId: string): Promise<boolean> {
  return inTransaction(ctx, async (tx) => {
    const access = await changeRequestAccess(tx, spaceId, changeRequestId);
    authorize(tx, 'space.edit', access.actor);
    const result = await tx.db.deleteFrom('change_request_reviewers').where('change_request_id', '=', access.changeRequest.id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/**
 * Reviews a change request (review level, not its author): approved or changes requested, against its
 * current revision, with an optional comment posted to its discussion. A reviewer's latest review is the
 * one that counts for the merge rules.
 */
export async function submitReview(ctx: Context, spaceId: string, changeRequestId: string, body: SubmitReviewBody): Promise<ReviewView> {
  return inTransaction(ctx, async (tx) => {
    const access = await changeRequestAccess(tx, spaceId, changeRequestId, { lock: true });
    authorize(tx, 'changeRequest.review', access.actor, access.changeRequest.created_by === access.actor.userId);
    assertReviewable(access);
    const comment = body.comment ? await postComment(tx, { spaceId: access.space.id, changeRequestId: access.changeRequest.id }, { body: body.comment }) : null;
    const request = await tx.db
      .selectFrom('change_request_reviewers')
      .select('requested_by')
      .where('change_request_id', '=', access.changeRequest.id)
      .where('user_id', '=', access.actor.userId)
      .executeTakeFirst();
    const now = nowIso(tx);
    const row = {
      id: tx.ids.next(),
      change_request_id: access.changeRequest.id,
      reviewer_id: access.actor.userId,
      requested_by: request?.requested_by ?? null,
      status: body.status,
      revision: access.changeRequest.revision,
      comment_id: comment?.comment.id ?? null,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto('change_request_reviews').values(row).execute();
    await tx.events.emit(tx, 'change_request.reviewed', {
      organizationId: access.space.organization_id,
      actorId: access.actor.userId,
      spaceId: access.space.id,
      changeRequestId: access.changeRequest.id,
      number: access.changeRequest.number,
      reviewId: row.id,
      status: row.status,
    });
    return (await reviewViews(tx, access, [row]))[0];
  });
}

type ReviewRow = { id: string; reviewer_id: string; requested_by: string | null; status: string; revision: string; comment_id: string | null; created_at: string; updated_at: string };

async function reviewViews(ctx: Context, access: ChangeRequestAccess, rows: ReviewRow[]): Promise<ReviewView[]> {
  const commentIds = rows.map((row) => row.comment_id).filter((id): id is string => id !== null);
  const [users, comments] = await Promise.all([
    loadUsers(ctx, rows.flatMap((row) => [row.reviewer_id, ...(row.requested_by ? [row.requested_by] : [])])),
    commentIds.length === 0 ? Promise.resolve([] as CommentRow[]) : ctx.db.selectFrom('comments').selectAll().where('id', 'in', commentIds).execute(),
  ]);
  const views = comments.length === 0 ? [] : await commentViews(ctx, await commentScope(ctx, { spaceId: access.space.id, changeRequestId: access.changeRequest.id }), comments);
  const commentById = new Map(views.map((view) => [view.comment.id, view]));
  return rows.map((row) => ({
    id: row.id,
    reviewer: users.get(row.reviewer_id) ?? UNKNOWN_USER,
    requestedBy: row.requested_by ? (users.get(row.requested_by) ?? UNKNOWN_USER) : null,
    status: row.status as ReviewStatus,
    revision: row.revision,
    outdated: row.revision !== access.changeRequest.revision,
    comment: (row.comment_id && commentById.get(row.comment_id)) || null,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }));
}

/** Every review of a change request, oldest first, each saying whether it is outdated (made before the last change). */
export async function listReviews(ctx: Context, spaceId: string, changeRequestId: string, query: ListReviewsQuery): Promise<Page<ReviewView>> {
  const access = await changeRequestAccess(ctx, spaceId, changeRequestId);
  authorize(ctx, 'space.view', access.actor);
  const base = ctx.db.selectFrom('change_request_reviews').selectAll().where('change_request_id', '=', access.changeRequest.id);
  const page = await pageInCreationOrder(ctx.cursors, base, `reviews:${access.changeRequest.id}`, query);
  return { ...page, items: await reviewViews(ctx, access, page.items) };
}
