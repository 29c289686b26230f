import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';
import { UserSchema } from '../users/schemas.ts';
import { CHANGE_REQUEST_STATUSES } from '../../access/change-requests.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const ChangeRequestId = Type.String({ minLength: 1, maxLength: 100, description: 'The id of the change request, or its number in the space.' });

export const SpaceParams = Type.Object({ spaceId: Id });
export const ChangeRequestParams = Type.Object({ spaceId: Id, changeRequestId: ChangeRequestId });
export const ChangeRequestPageParams = Type.Object({ spaceId: Id, changeRequestId: ChangeRequestId, pageId: Id });
export const ChangeRequestFileParams = Type.Object({ spaceId: Id, changeRequestId: ChangeRequestId, fileId: Id });
export const ChangeRequestPathParams = Type.Object({
  spaceId: Id,
  changeRequestId: ChangeRequestId,
  '*': Type.String({ maxLength: 2048, description: 'The path of the page, such as "guides/install".' }),
});

export const ChangeRequestStatusSchema = StringEnum(CHANGE_REQUEST_STATUSES, {
  description: 'draft: in progress; open: submitted for review; archived: set aside; merged: its content is in the space.',
});

/** The statuses a caller may set; `merged` is reached only by merging. */
export const SETTABLE_STATUSES = ['draft', 'open', 'archived'] as const;

export const ChangeRequestSubject = Type.String({ maxLength: 100, description: 'Subject of the change request (at most 100 characters).' });

export const CreateChangeRequestBody = Type.Object(
  {
    subject: Type.Optional(ChangeRequestSubject),
    agentTaskId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The id of the agent task the change request implements; stored as given.' })),
  },
  { additionalProperties: false },
);
export type CreateChangeRequestBody = Static<typeof CreateChangeRequestBody>;

export const UpdateChangeRequestBody = Type.Object(
  {
    subject: Type.Optional(ChangeRequestSubject),
    status: Type.Optional(StringEnum(SETTABLE_STATUSES, { description: 'draft ↔ open, draft or open → archived, archived → draft or open. A merged change request cannot change.' })),
  },
  { additionalProperties: false },
);
export type UpdateChangeRequestBody = Static<typeof UpdateChangeRequestBody>;

export const ListChangeRequestsQuery = Type.Object(
  {
    ...ListQuery,
    status: Type.Optional(StringEnum(CHANGE_REQUEST_STATUSES, { default: 'open', description: 'Only change requests with this status (default open).' })),
    contributor: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A user id: only change requests that user created or wrote content to (imports, updates).' })),
  },
  { additionalProperties: false },
);
export type ListChangeRequestsQuery = Static<typeof ListChangeRequestsQuery>;

export const ChangeRequestSchema = Type.Object(
  {
    object: Type.Literal('change-request'),
    id: Type.String(),
    number: Type.Number({ description: 'Counts up per space from 1, never reused.' }),
    status: ChangeRequestStatusSchema,
    subject: ChangeRequestSubject,
    createdBy: UserSchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    revision: Type.String({ description: 'The change request\'s current revision (its head).' }),
    revisionInitial: Type.String({ description: 'The revision of the space the change request was created from.' }),
    revisionMergedAncestor: Type.Optional(Type.String({ description: 'The last revision of the space whose content the change request includes.' })),
    revisionMerged: Type.Optional(Type.String({ description: 'Once merged: the revision the merge made.' })),
    comments: Type.Number({ description: 'Open comments on the change request.' }),
    outdated: Type.Boolean({ description: 'True when the space\'s content moved past what the change request includes (never for a merged one).' }),
    urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }) }),
    permissions: Type.Optional(
      Type.Object(
        {
          edit: Type.Boolean({ description: 'Can change its content and settings (edit level).' }),
          review: Type.Boolean({ description: 'Can review it (review level, not its author).' }),
          merge: Type.Boolean({ description: 'Can merge it now: the merge level, and the space\'s merge rules met (or passed by an administrator).' }),
        },
        { description: 'What the caller may do with the change request (a Quire addition).' },
      ),
    ),
  },
  { $id: 'ChangeRequest' },
);
export type ChangeRequest = Static<typeof ChangeRequestSchema>;

/** One conflict of a merge or an update (see src/content/merge/types.ts for the kinds). */
export const MergeConflictSchema = Type.Object({
  kind: StringEnum(['body', 'title', 'settings', 'deleted-and-changed', 'moved', 'file', 'variable', 'reusable-content'] as const, {
    description:
      'body: both sides edited the same lines of the page; title, settings: both changed them differently; deleted-and-changed: one side deleted what the other changed; moved: both moved the page to different places; file, variable, reusable-content: both changed it differently.',
  }),
  pageId: Type.Optional(Type.String({ description: 'The conflicting page (page kinds).' })),
  path: Type.Optional(Type.String({ description: 'Its path, when it has one.' })),
  fileId: Type.Optional(Type.String({ description: 'The conflicting file (kind file).' })),
  variable: Type.Optional(Type.String({ description: 'The conflicting space variable (kind variable).' })),
  reusableContentId: Type.Optional(Type.String({ description: 'The conflicting reusable content (kind reusable-content).' })),
  title: Type.String({ description: 'The title of what conflicts.' }),
  detail: Type.String({ description: 'What both sides did, in a sentence.' }),
});

const conflictsMember = Type.Optional(
  Type.Array(MergeConflictSchema, { description: 'With result "conflicts": what conflicts, so it can be fixed (nothing was changed). Absent otherwise.' }),
);

export const MergeChangeRequestResult = Type.Object({
  revision: Type.String({ description: 'With "merge": the new revision of the space. With "conflicts": the change request\'s unchanged head.' }),
  result: StringEnum(['merge', 'conflicts'] as const),
  conflicts: conflictsMember,
});
export type MergeChangeRequestResult = Static<typeof MergeChangeRequestResult>;

export const UpdateChangeRequestResult = Type.Object({
  revision: Type.String({ description: 'The change request\'s head: the new "update" revision, or the unchanged head (already up to date, or conflicts).' }),
  result: StringEnum(['update', 'conflicts'] as const),
  conflicts: conflictsMember,
});
export type UpdateChangeRequestResult = Static<typeof UpdateChangeRequestResult>;
