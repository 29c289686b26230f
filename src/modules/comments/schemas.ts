import { Type, type Static } from 'typebox';
import { ListQuery, OrderQuery, StringEnum, Timestamp } from '../../http/schemas.ts';
import { MemberSchema } from '../members/schemas.ts';
import { UserSchema } from '../users/schemas.ts';

/** The longest comment or reply body, in characters of Markdown (a document is measured once written as Markdown). */
export const MAX_COMMENT_LENGTH = 20_000;
/** The most reactions one update may add or remove. */
export const MAX_REACTIONS_PER_UPDATE = 20;

const Id = Type.String({ minLength: 1, maxLength: 100 });
const closed = { additionalProperties: false } as const;

export const SpaceCommentsParams = Type.Object({ spaceId: Id });
export const SpaceCommentParams = Type.Object({ spaceId: Id, commentId: Id });
export const SpaceReplyParams = Type.Object({ spaceId: Id, commentId: Id, commentReplyId: Id });
export const ChangeRequestCommentsParams = Type.Object({ spaceId: Id, changeRequestId: Id });
export const ChangeRequestCommentParams = Type.Object({ spaceId: Id, changeRequestId: Id, commentId: Id });
export const ChangeRequestReplyParams = Type.Object({ spaceId: Id, changeRequestId: Id, commentId: Id, commentReplyId: Id });

export type { CommentPlace } from '../../access/comments.ts';

/**
 * A body as sent: `{ markdown }`, or `{ document }` (the JSON document model of page bodies; its nodes are
 * checked when it is written as Markdown). One of the two, checked by the service so the error says so.
 * Comments are stored as Markdown.
 */
export const BodyInput = Type.Object(
  {
    markdown: Type.Optional(Type.String({ minLength: 1, maxLength: MAX_COMMENT_LENGTH, description: 'The body as Markdown.' })),
    document: Type.Optional(
      Type.Object(
        {
          object: Type.Literal('document'),
          data: Type.Optional(Type.Object({}, { additionalProperties: true })),
          nodes: Type.Array(Type.Object({}, { additionalProperties: true }), { minItems: 1, maxItems: 1000 }),
        },
        { ...closed, description: 'The body as a JSON document.' },
      ),
    ),
  },
  { ...closed, description: 'The body: { markdown } or { document }.' },
);
export type BodyInput = Static<typeof BodyInput>;

const Emoji = Type.String({ minLength: 1, maxLength: 50, description: 'An emoji, such as "🎉".' });
const Reactions = (description: string) => Type.Optional(Type.Array(Emoji, { maxItems: MAX_REACTIONS_PER_UPDATE, description }));

export const PostCommentBody = Type.Object(
  {
    body: BodyInput,
    page: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The id of the page the comment is about.' })),
    node: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'The id of the block of that page the comment is about (needs page).' })),
    tableCell: Type.Optional(
      Type.Object(
        { record: Type.String({ minLength: 1, maxLength: 200 }), definition: Type.String({ minLength: 1, maxLength: 200 }) },
        { ...closed, description: 'The table cell the comment is about (needs page).' },
      ),
    ),
  },
  closed,
);
export type PostCommentBody = Static<typeof PostCommentBody>;

export const PostReplyBody = Type.Object({ body: BodyInput }, closed);
export type PostReplyBody = Static<typeof PostReplyBody>;

export const UpdateCommentBody = Type.Object(
  {
    resolved: Type.Optional(Type.Boolean({ description: 'true resolves the comment, false opens it again.' })),
    body: Type.Optional(BodyInput),
    addedReactions: Reactions('Emoji the caller reacts with.'),
    removedReactions: Reactions('Emoji the caller takes back.'),
  },
  { ...closed, minProperties: 1 },
);
export type UpdateCommentBody = Static<typeof UpdateCommentBody>;

export const UpdateReplyBody = Type.Object(
  { body: Type.Optional(BodyInput), addedReactions: Reactions('Emoji the caller reacts with.'), removedReactions: Reactions('Emoji the caller takes back.') },
  { ...closed, minProperties: 1 },
);
export type UpdateReplyBody = Static<typeof UpdateReplyBody>;

export const FORMATS = ['document', 'markdown'] as const;
export type BodyFormat = (typeof FORMATS)[number];
const Format = Type.Optional(StringEnum(FORMATS, { description: 'The format of bodies: the JSON document (default) or Markdown.' }));

export const FormatQuery = Type.Object({ format: Format }, closed);
export type FormatQuery = Static<typeof FormatQuery>;

export const COMMENT_STATUS_FILTERS = ['all', 'open', 'resolved'] as const;
export const ListCommentsQuery = Type.Object(
  {
    ...ListQuery,
    order: OrderQuery,
    status: Type.Optional(StringEnum(COMMENT_STATUS_FILTERS, { default: 'all', description: 'Only comments with this status (default: all).' })),
    format: Format,
    targetPage: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only comments about this page.' })),
    authors: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: 100, description: 'Only comments by these users.' })),
  },
  closed,
);
export type ListCommentsQuery = Static<typeof ListCommentsQuery>;

export const ListRepliesQuery = Type.Object({ ...ListQuery, format: Format }, closed);
export type ListRepliesQuery = Static<typeof ListRepliesQuery>;

export const ListCommentersQuery = Type.Object({ ...ListQuery }, closed);
export type ListCommentersQuery = Static<typeof ListCommentersQuery>;

// ── Answers ──────────────────────────────────────────────────────────────────────────────────────

const BodySchema = Type.Object(
  { markdown: Type.Optional(Type.String()), document: Type.Optional(Type.Unknown({ description: 'JSONDocument' })) },
  { description: '{ markdown } or { document }, as asked with `format`.' },
);

const ReactionSchema = Type.Object({
  emoji: Type.String(),
  count: Type.Number({ description: 'How many users reacted with this emoji.' }),
  users: Type.Array(Type.Object({ user: UserSchema, reactedAt: Timestamp })),
});

const PermissionsSchema = Type.Object({
  view: Type.Boolean(),
  edit: Type.Boolean({ description: 'The caller may change the body.' }),
  reply: Type.Boolean({ description: 'The caller may reply and react.' }),
  react: Type.Boolean({ description: 'The same as reply.' }),
  delete: Type.Boolean(),
});

const Urls = Type.Object({ location: Type.String({ format: 'uri' }) });

export const TargetSchema = Type.Object({
  space: Type.String(),
  revision: Type.String({ description: 'The revision the comment was posted on.' }),
  changeRequest: Type.Optional(Type.String()),
  page: Type.Optional(
    Type.Object({
      id: Type.String(),
      title: Type.String(),
      emoji: Type.Optional(Type.String()),
      icon: Type.Optional(Type.String()),
      path: Type.String(),
      outdated: Type.Boolean({ description: 'The page body changed (or the page went away) since the comment was posted.' }),
    }),
  ),
  node: Type.Optional(Type.Object({ id: Type.String(), preview: Type.Optional(Type.String()) })),
  tableCell: Type.Optional(Type.Object({ record: Type.String(), definition: Type.String() })),
});
export type Target = Static<typeof TargetSchema>;

export const CommentSchema = Type.Object(
  {
    object: Type.Literal('comment'),
    id: Type.String(),
    status: StringEnum(['open', 'resolved'] as const),
    postedBy: UserSchema,
    postedAt: Timestamp,
    editedAt: Type.Optional(Timestamp),
    resolvedAt: Type.Optional(Timestamp),
    resolvedBy: Type.Optional(UserSchema),
    reactions: Type.Array(ReactionSchema),
    replies: Type.Number(),
    body: BodySchema,
    target: TargetSchema,
    urls: Urls,
    permissions: PermissionsSchema,
  },
  { $id: 'Comment' },
);
export type Comment = Static<typeof CommentSchema>;

export const ReplySchema = Type.Object(
  {
    object: Type.Literal('comment-reply'),
    id: Type.String(),
    postedBy: UserSchema,
    postedAt: Timestamp,
    editedAt: Type.Optional(Timestamp),
    reactions: Type.Array(ReactionSchema),
    body: BodySchema,
    urls: Urls,
    permissions: PermissionsSchema,
  },
  { $id: 'CommentReply' },
);
export type Reply = Static<typeof ReplySchema>;

export const CommentersSchema = Type.Object({
  next: Type.Optional(Type.Object({ page: Type.String() })),
  count: Type.Number({ description: 'How many commenters there are.' }),
  total: Type.Number({ description: 'The same as count.' }),
  items: Type.Array(MemberSchema),
});
