import type { Context } from '../../context.ts';
import { presentComment } from '../comments/presenter.ts';
import type { BodyFormat } from '../comments/schemas.ts';
import { presentUser } from '../users/presenter.ts';
import type { MergeRulesView } from './merge-rules.ts';
import type { MergeRulesAnswer, RequestedReviewer, Review } from './schemas.ts';
import type { RequestedReviewerView, ReviewView } from './service.ts';

type Config = Pick<Context, 'config'>;

export function presentRequestedReviewer(ctx: Config, view: RequestedReviewerView): RequestedReviewer {
  return {
    object: 'change-request-requested-reviewer',
    kind: 'user',
    user: presentUser(ctx, view.user),
    revision: view.revision,
    requestedBy: presentUser(ctx, view.requestedBy),
    createdAt: view.createdAt,
  };
}

export async function presentReview(ctx: Config, view: ReviewView, format?: BodyFormat): Promise<Review> {
  const review: Review = {
    object: 'change-request-review',
    id: view.id,
    revision: view.revision,
    reviewer: presentUser(ctx, view.reviewer),
    status: view.status,
    outdated: view.outdated,
    createdAt: view.createdAt,
    updatedAt: view.updatedAt,
  };
  if (view.requestedBy) review.requestedBy = presentUser(ctx, view.requestedBy);
  if (view.comment) review.comment = await presentComment(ctx, view.comment, format);
  return review;
}

export function presentMergeRules(view: MergeRulesView): MergeRulesAnswer {
  return { object: 'merge-rules', spaceId: view.spaceId, ...view.rules, ...(view.updatedAt ? { updatedAt: view.updatedAt } : {}) };
}
