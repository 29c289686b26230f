import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { presentMember } from '../members/presenter.ts';
import { listCommenters } from './commenters.ts';
import { presentComment, presentPage, presentReply } from './presenter.ts';
import { deleteReply, getReply, listReplies, postReply, updateReply } from './replies-service.ts';
import {
  ChangeRequestCommentParams,
  ChangeRequestCommentsParams,
  ChangeRequestReplyParams,
  CommentersSchema,
  CommentSchema,
  FormatQuery,
  ListCommentersQuery,
  ListCommentsQuery,
  ListRepliesQuery,
  PostCommentBody,
  PostReplyBody,
  ReplySchema,
  SpaceCommentParams,
  SpaceCommentsParams,
  SpaceReplyParams,
  UpdateCommentBody,
  UpdateReplyBody,
  type CommentPlace,
} from './schemas.ts';
import { deleteComment, getComment, listComments, postComment, updateComment } from './service.ts';

const commentResponse = { 200: CommentSchema, ...errorResponses };
const replyResponse = { 200: ReplySchema, ...errorResponses };
const removal = { ...removalResponses, ...errorResponses };

interface PlaceParams {
  spaceId: string;
  changeRequestId?: string;
}

const placeOf = (params: PlaceParams): CommentPlace => ({ spaceId: params.spaceId, changeRequestId: params.changeRequestId });

/**
 * Comments and replies, in a space's own discussion (`/spaces/{spaceId}/comments…`) and in a change
 * request's (`/spaces/{spaceId}/change-requests/{changeRequestId}/comments…`, by id or number): the same
 * operations with the same shapes, registered once for each place.
 */
export const commentRoutes: FastifyPluginAsyncTypebox = async (app) => {
  for (const where of ['space', 'changeRequest'] as const) {
    const inSpace = where === 'space';
    const base = inSpace ? '/spaces/:spaceId' : '/spaces/:spaceId/change-requests/:changeRequestId';
    const tags = [inSpace ? 'space-comments' : 'change-request-comments'];
    const name = (operation: string) => `${operation}${inSpace ? 'InSpace' : 'InChangeRequest'}`;
    const what = inSpace ? 'the space' : 'the change request';
    const listParams = inSpace ? SpaceCommentsParams : ChangeRequestCommentsParams;
    const commentParams = inSpace ? SpaceCommentParams : ChangeRequestCommentParams;
    const replyParams = inSpace ? SpaceReplyParams : ChangeRequestReplyParams;

    app.get(
      `${base}/comments`,
      {
        config: { policy: 'comment.view' },
        schema: { tags, operationId: name('listComments'), summary: `The comments of ${what}, newest first by default`, params: listParams, querystring: ListCommentsQuery, response: { 200: ListOf(CommentSchema), ...errorResponses } },
      },
      async (request) => presentPage(await listComments(request.ctx, placeOf(request.params), request.query), (view) => presentComment(request.ctx, view, request.query.format)),
    );

    app.post(
      `${base}/comments`,
      {
        config: { policy: 'comment.post' },
        schema: { tags, operationId: name('postComment'), summary: `Post a comment in ${what}, optionally about a page, a block or a table cell (comment level)`, params: listParams, querystring: FormatQuery, body: PostCommentBody, response: commentResponse },
      },
      async (request) => presentComment(request.ctx, await postComment(request.ctx, placeOf(request.params), request.body), request.query.format),
    );

    app.get(
      `${base}/comments/:commentId`,
      {
        config: { policy: 'comment.view' },
        schema: { tags, operationId: name('getComment'), summary: `A comment of ${what}`, params: commentParams, querystring: FormatQuery, response: commentResponse },
      },
      async (request) => presentComment(request.ctx, await getComment(request.ctx, placeOf(request.params), request.params.commentId), request.query.format),
    );

    app.put(
      `${base}/comments/:commentId`,
      {
        config: { policy: 'comment.update' },
        schema: {
          tags,
          operationId: name('updateComment'),
          summary: 'Change a comment: its body (author), resolve or reopen it (comment level), add or take back reactions (comment level)',
          params: commentParams,
          querystring: FormatQuery,
          body: UpdateCommentBody,
          response: commentResponse,
        },
      },
      async (request) => presentComment(request.ctx, await updateComment(request.ctx, placeOf(request.params), request.params.commentId, request.body), request.query.format),
    );

    app.delete(
      `${base}/comments/:commentId`,
      {
        config: { policy: 'comment.delete' },
        schema: { tags, operationId: name('deleteComment'), summary: 'Delete a comment and its replies (author or administrators): 205 when deleted, 204 when there was none', params: commentParams, response: removal },
      },
      async (request, reply) => replyRemoval(reply, await deleteComment(request.ctx, placeOf(request.params), request.params.commentId)),
    );

    app.get(
      `${base}/comments/:commentId/replies`,
      {
        config: { policy: 'comment.view' },
        schema: { tags, operationId: name('listCommentReplies'), summary: 'The replies to a comment, oldest first', params: commentParams, querystring: ListRepliesQuery, response: { 200: ListOf(ReplySchema), ...errorResponses } },
      },
      async (request) =>
        presentPage(await listReplies(request.ctx, placeOf(request.params), request.params.commentId, request.query), (view) => presentReply(request.ctx, view, request.query.format)),
    );

    app.post(
      `${base}/comments/:commentId/replies`,
      {
        config: { policy: 'comment.reply' },
        schema: { tags, operationId: name('postCommentReply'), summary: 'Reply to a comment (comment level)', params: commentParams, querystring: FormatQuery, body: PostReplyBody, response: replyResponse },
      },
      async (request) => presentReply(request.ctx, await postReply(request.ctx, placeOf(request.params), request.params.commentId, request.body), request.query.format),
    );

    app.get(
      `${base}/comments/:commentId/replies/:commentReplyId`,
      {
        config: { policy: 'comment.view' },
        schema: { tags, operationId: name('getCommentReply'), summary: 'A reply to a comment', params: replyParams, querystring: FormatQuery, response: replyResponse },
      },
      async (request) =>
        presentReply(request.ctx, await getReply(request.ctx, placeOf(request.params), request.params.commentId, request.params.commentReplyId), request.query.format),
    );

    app.put(
      `${base}/comments/:commentId/replies/:commentReplyId`,
      {
        config: { policy: 'comment.update' },
        schema: { tags, operationId: name('updateCommentReply'), summary: 'Change a reply: its body (author), add or take back reactions (comment level)', params: replyParams, querystring: FormatQuery, body: UpdateReplyBody, response: replyResponse },
      },
      async (request) =>
        presentReply(
          request.ctx,
          await updateReply(request.ctx, placeOf(request.params), request.params.commentId, request.params.commentReplyId, request.body),
          request.query.format,
        ),
    );

    app.delete(
      `${base}/comments/:commentId/replies/:commentReplyId`,
      {
        config: { policy: 'comment.delete' },
        schema: { tags, operationId: name('deleteCommentReply'), summary: 'Delete a reply (author or administrators): 205 when deleted, 204 when there was none', params: replyParams, response: removal },
      },
      async (request, reply) => replyRemoval(reply, await deleteReply(request.ctx, placeOf(request.params), request.params.commentId, request.params.commentReplyId)),
    );

    app.get(
      `${base}/commenters`,
      {
        config: { policy: 'comment.view' },
        schema: { tags, operationId: name('listCommenters'), summary: `The members who wrote a comment or a reply in ${what}, by name`, params: listParams, querystring: ListCommentersQuery, response: { 200: CommentersSchema, ...errorResponses } },
      },
      async (request) => {
        const page = mapPage(await listCommenters(request.ctx, placeOf(request.params), request.query), (view) => presentMember(request.ctx, view));
        return { ...page, total: page.count };
      },
    );
  }
};
