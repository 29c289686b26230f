import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { getMergeRules, putMergeRules } from './merge-rules.ts';
import { presentMergeRules, presentRequestedReviewer, presentReview } from './presenter.ts';
import { presentPage } from '../comments/presenter.ts';
import {
  ChangeRequestParams,
  ListReviewersQuery,
  ListReviewsQuery,
  MergeRulesSchema,
  PutMergeRulesBody,
  RequestedReviewerSchema,
  RequestedReviewersAnswer,
  RequestReviewersBody,
  ReviewerParams,
  ReviewSchema,
  SpaceParams,
  SubmitReviewBody,
} from './schemas.ts';
import { listRequestedReviewers, listReviews, removeRequestedReviewer, requestReviewers, submitReview } from './service.ts';

const reviewers = ['change-request-reviewers'];
const reviews = ['change-requests-reviews'];
const base = '/spaces/:spaceId/change-requests/:changeRequestId';

/** Reviewers and reviews of change requests, and the merge rules of spaces. */
export const reviewRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    `${base}/requested-reviewers`,
    {
      config: { policy: 'space.view' },
      schema: { tags: reviewers, operationId: 'getRequestedReviewersByChangeRequestId', summary: 'The reviewers asked for on a change request', params: ChangeRequestParams, querystring: ListReviewersQuery, response: { 200: ListOf(RequestedReviewerSchema), ...errorResponses } },
    },
    async (request) => mapPage(await listRequestedReviewers(request.ctx, request.params.spaceId, request.params.changeRequestId, request.query), (view) => presentRequestedReviewer(request.ctx, view)),
  );

  app.post(
    `${base}/requested-reviewers`,
    {
      config: { policy: 'space.edit' },
      schema: { tags: reviewers, operationId: 'requestReviewersForChangeRequest', summary: 'Ask users to review a change request (edit level; each needs the review level)', params: ChangeRequestParams, body: RequestReviewersBody, response: { 200: RequestedReviewersAnswer, ...errorResponses } },
    },
    async (request) => ({
      users: (await requestReviewers(request.ctx, request.params.spaceId, request.params.changeRequestId, request.body)).map((view) => presentRequestedReviewer(request.ctx, view)),
    }),
  );

  app.delete(
    `${base}/requested-reviewers/:userId`,
    {
      config: { policy: 'space.edit' },
      schema: { tags: reviewers, operationId: 'removeRequestedReviewerFromChangeRequest', summary: 'Take back a review request (edit level)', params: ReviewerParams, response: { ...removalResponses, ...errorResponses } },
    },
    async (request, reply) => replyRemoval(reply, await removeRequestedReviewer(request.ctx, request.params.spaceId, request.params.changeRequestId, request.params.userId)),
  );

  app.get(
    `${base}/reviews`,
    {
      config: { policy: 'space.view' },
      schema: { tags: reviews, operationId: 'getReviewsByChangeRequestId', summary: 'The reviews of a change request, oldest first, each saying whether it is outdated', params: ChangeRequestParams, querystring: ListReviewsQuery, response: { 200: ListOf(ReviewSchema), ...errorResponses } },
    },
    async (request) => presentPage(await listReviews(request.ctx, request.params.spaceId, request.params.changeRequestId, request.query), (view) => presentReview(request.ctx, view, request.query.format)),
  );

  app.post(
    `${base}/reviews`,
    {
      config: { policy: 'changeRequest.review' },
      schema: { tags: reviews, operationId: 'submitChangeRequestReview', summary: 'Review a change request: approved or changes-requested, with an optional comment (review level, not its author)', params: ChangeRequestParams, body: SubmitReviewBody, response: { 201: ReviewSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const review = await presentReview(request.ctx, await submitReview(request.ctx, request.params.spaceId, request.params.changeRequestId, request.body));
      return reply.code(201).header('location', `${request.ctx.config.publicUrl}/v1/spaces/${request.params.spaceId}/change-requests/${request.params.changeRequestId}/reviews/${review.id}`).send(review);
    },
  );

  app.get(
    '/spaces/:spaceId/merge-rules',
    {
      config: { policy: 'space.view' },
      schema: { tags: ['merge-rules'], operationId: 'getSpaceMergeRules', summary: 'What a change request of the space needs before it merges (Quire\'s own)', params: SpaceParams, response: { 200: MergeRulesSchema, ...errorResponses } },
    },
    async (request) => presentMergeRules(await getMergeRules(request.ctx, request.params.spaceId)),
  );

  app.put(
    '/spaces/:spaceId/merge-rules',
    {
      config: { policy: 'space.admin' },
      schema: { tags: ['merge-rules'], operationId: 'putSpaceMergeRules', summary: 'Set the merge rules of the space (administrators of the space; Quire\'s own)', params: SpaceParams, body: PutMergeRulesBody, response: { 200: MergeRulesSchema, ...errorResponses } },
    },
    async (request) => presentMergeRules(await putMergeRules(request.ctx, request.params.spaceId, request.body)),
  );
};
