import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';
import { BodyInput, CommentSchema } from '../comments/schemas.ts';
import { UserSchema } from '../users/schemas.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const closed = { additionalProperties: false };

export const ChangeRequestParams = Type.Object({ spaceId: Id, changeRequestId: Id });
export const ReviewerParams = Type.Object({ spaceId: Id, changeRequestId: Id, userId: Id });
export const SpaceParams = Type.Object({ spaceId: Id });

export const REVIEW_STATUSES = ['approved', 'changes-requested'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

export const ListReviewsQuery = Type.Object(
  { ...ListQuery, format: Type.Optional(StringEnum(['document', 'markdown'] as const, { description: 'The format of review comments.' })) },
  closed,
);
export type ListReviewsQuery = Static<typeof ListReviewsQuery>;
export const ListReviewersQuery = Type.Object(ListQuery, closed);
export type ListReviewersQuery = Static<typeof ListReviewersQuery>;

export const RequestReviewersBody = Type.Object(
  {
    users: Type.Array(Id, { maxItems: 100, description: 'Ids of users to ask for a review; each needs the review level on the space.' }),
    subject: Type.Optional(Type.String({ maxLength: 200, description: 'A new subject for the change request.' })),
  },
  closed,
);
export type RequestReviewersBody = Static<typeof RequestReviewersBody>;

export const SubmitReviewBody = Type.Object(
  {
    status: StringEnum(REVIEW_STATUSES, { description: 'approved, or changes-requested.' }),
    comment: Type.Optional(BodyInput),
  },
  closed,
);
export type SubmitReviewBody = Static<typeof SubmitReviewBody>;

export const RequestedReviewerSchema = Type.Object({
  object: Type.Literal('change-request-requested-reviewer'),
  kind: Type.Literal('user'),
  user: UserSchema,
  revision: Type.String({ description: 'The change request\'s revision when the review was asked for.' }),
  requestedBy: UserSchema,
  createdAt: Timestamp,
});
export type RequestedReviewer = Static<typeof RequestedReviewerSchema>;

export const RequestedReviewersAnswer = Type.Object({ users: Type.Array(RequestedReviewerSchema) });

export const ReviewSchema = Type.Object({
  object: Type.Literal('change-request-review'),
  id: Type.String(),
  revision: Type.String({ description: 'The revision of the change request the review was made against.' }),
  reviewer: UserSchema,
  requestedBy: Type.Optional(UserSchema),
  status: StringEnum(REVIEW_STATUSES),
  comment: Type.Optional(CommentSchema),
  outdated: Type.Boolean({ description: 'The change request changed after this review (a Quire addition).' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Review = Static<typeof ReviewSchema>;

export const MergeRulesSchema = Type.Object({
  object: Type.Literal('merge-rules'),
  spaceId: Type.String(),
  minApprovals: Type.Integer({ minimum: 0, maximum: 20, description: 'At least this many approvals (each reviewer\'s latest review counts).' }),
  requiredReviewers: Type.Array(Type.String(), { description: 'Users who must each approve.' }),
  requiredTeams: Type.Array(Type.String(), { description: 'Teams of which a member must approve.' }),
  blockOnChangesRequested: Type.Boolean({ description: 'No merge while a reviewer\'s latest review requests changes.' }),
  requireCurrentApprovals: Type.Boolean({ description: 'Approvals made before the change request\'s last change do not count.' }),
  adminsCanBypass: Type.Boolean({ description: 'Administrators of the space may merge past the rules; each such merge is recorded.' }),
  updatedAt: Type.Optional(Timestamp),
});
export type MergeRulesAnswer = Static<typeof MergeRulesSchema>;

export const PutMergeRulesBody = Type.Object(
  {
    minApprovals: Type.Optional(Type.Integer({ minimum: 0, maximum: 20 })),
    requiredReviewers: Type.Optional(Type.Array(Id, { maxItems: 50 })),
    requiredTeams: Type.Optional(Type.Array(Id, { maxItems: 50 })),
    blockOnChangesRequested: Type.Optional(Type.Boolean({ default: true })),
    requireCurrentApprovals: Type.Optional(Type.Boolean({ default: true })),
    adminsCanBypass: Type.Optional(Type.Boolean({ default: true })),
  },
  closed,
);
export type PutMergeRulesBody = Static<typeof PutMergeRulesBody>;
