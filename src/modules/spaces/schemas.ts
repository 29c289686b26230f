import { Type, type Static } from 'typebox';
import { ListQuery, MemberRole, OrderQuery, StringEnum, Timestamp, Url } from '../../http/schemas.ts';
import { MEMBER_ROLES } from '../../policy/roles.ts';
import { SPACE_VISIBILITIES } from '../../policy/space.ts';

export const SPACE_EDIT_MODES = ['live', 'locked'] as const;

/** The languages a space may declare (the client's TranslationLanguage). */
export const SPACE_LANGUAGES = [
  'en', 'fr', 'de', 'es', 'it', 'pt', 'ru', 'ja', 'zh', 'ko', 'ar', 'hi', 'nl', 'pl', 'tr', 'sv', 'no', 'da', 'fi', 'el', 'cs', 'hu', 'ro', 'th',
  'vi', 'id', 'ms', 'he', 'uk', 'sk', 'bg', 'hr', 'lt', 'lv', 'et', 'sl',
] as const;

export const SpaceTitle = Type.String({ maxLength: 50, description: 'Title of the space' });
export const Emoji = Type.String({ maxLength: 50, format: 'emoji', description: 'Unicode character (or code point) of the emoji' });
export const SpaceEditModeSchema = StringEnum(SPACE_EDIT_MODES, { description: 'live: editable; locked: every content change is refused.' });
export const SpaceVisibilitySchema = StringEnum(SPACE_VISIBILITIES, { description: 'Who may read the space.' });
export const SpaceLanguage = StringEnum(SPACE_LANGUAGES, { description: 'The language of the content.' });

/** A default level: 'inherit' from the parent collection, a role every member gets at most, or null for no access. */
export const DefaultLevel = Type.Union([StringEnum([...MEMBER_ROLES, 'inherit'] as const), Type.Null()], {
  description: 'Default level of members on the content: "inherit" from the parent collection, a member role, or null (no access but for administrators).',
});
export type DefaultLevel = Static<typeof DefaultLevel>;

export const SpacePermissionsSchema = Type.Object({
  view: Type.Boolean(),
  access: Type.Boolean(),
  admin: Type.Boolean(),
  viewInviteLinks: Type.Boolean(),
  edit: Type.Boolean(),
  triggerGitSync: Type.Boolean(),
  comment: Type.Boolean(),
  merge: Type.Boolean(),
  review: Type.Boolean(),
});

export const SpaceSchema = Type.Object(
  {
    object: Type.Literal('space'),
    id: Type.String(),
    type: Type.Literal('document', { description: 'The kind of space; every Quire space holds documents.' }),
    title: Type.String(),
    emoji: Type.String({ description: 'The emoji of the space; an empty string when it has none.' }),
    visibility: SpaceVisibilitySchema,
    createdAt: Timestamp,
    updatedAt: Timestamp,
    deletedAt: Type.Optional(Timestamp),
    editMode: SpaceEditModeSchema,
    language: Type.Optional(SpaceLanguage),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri' }),
      published: Type.Optional(Type.String({ format: 'uri' })),
      public: Type.Optional(Type.String({ format: 'uri' })),
      icon: Type.Optional(Type.String({ format: 'uri' })),
    }),
    organization: Type.String(),
    parent: Type.Optional(Type.String({ description: 'The parent collection.' })),
    revision: Type.String({ description: 'The current revision.' }),
    defaultLevel: DefaultLevel,
    comments: Type.Number(),
    changeRequests: Type.Number(),
    changeRequestsOpen: Type.Number(),
    changeRequestsDraft: Type.Number(),
    permissions: SpacePermissionsSchema,
    gitSync: Type.Optional(
      Type.Object({
        repoName: Type.Optional(Type.String()),
        installationProvider: Type.Optional(StringEnum(['github', 'gitlab', 'github-legacy'] as const)),
        integration: Type.Optional(Type.String()),
        url: Type.Optional(Type.String()),
        updatedAt: Type.Optional(Timestamp),
      }),
    ),
  },
  { $id: 'Space' },
);
export type Space = Static<typeof SpaceSchema>;

/** `{ permission, space }`: a space a member can access, with their level on it. */
export const MemberSpaceSchema = Type.Object({ permission: MemberRole, space: SpaceSchema });
export type MemberSpace = Static<typeof MemberSpaceSchema>;

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const SpaceParams = Type.Object({ spaceId: Id });
export const MemberSpacesParams = Type.Object({ organizationId: Id, userId: Id });

export const GetSpaceQuery = Type.Object(
  { shareKey: Type.Optional(Type.String({ maxLength: 256, description: 'The key of a share link (accepted; share links are not served yet).' })) },
  { additionalProperties: false },
);

export const ListSpacesQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListSpacesQuery = Static<typeof ListSpacesQuery>;
export const ListMemberSpacesQuery = Type.Object({ ...ListQuery, order: OrderQuery }, { additionalProperties: false });
export type ListMemberSpacesQuery = Static<typeof ListMemberSpacesQuery>;

export const ApplySpaceTemplate = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, description: 'The id of the template.' }),
    params: Type.Optional(Type.Object({ contentRefs: Type.Optional(Type.Record(Type.String(), Type.Unknown())) })),
  },
  { additionalProperties: false },
);

export const CreateSpaceBody = Type.Object(
  {
    title: Type.Optional(SpaceTitle),
    emoji: Type.Optional(Emoji),
    parent: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'The collection to create the space in.' })),
    editMode: Type.Optional(SpaceEditModeSchema),
    visibility: Type.Optional(SpaceVisibilitySchema),
    template: Type.Optional(ApplySpaceTemplate),
  },
  { additionalProperties: false },
);
export type CreateSpaceBody = Static<typeof CreateSpaceBody>;

export const UpdateSpaceBody = Type.Object(
  {
    editMode: Type.Optional(SpaceEditModeSchema),
    title: Type.Optional(SpaceTitle),
    defaultLevel: Type.Optional(DefaultLevel),
    emoji: Type.Optional(Type.Union([Emoji, Type.Null()], { description: 'An emoji (replaces the icon), or null to remove it.' })),
    icon: Type.Optional(Type.Union([Url, Type.Null()], { description: 'The URL of an icon (replaces the emoji), or null to remove it.' })),
    language: Type.Optional(Type.Union([SpaceLanguage, Type.Null()])),
    visibility: Type.Optional(SpaceVisibilitySchema),
  },
  { additionalProperties: false },
);
export type UpdateSpaceBody = Static<typeof UpdateSpaceBody>;

/** Points at a sibling in the content tree: a space or a collection. */
export const ContentPointer = Type.Union([
  Type.Object({ type: Type.Literal('space'), space: Id }, { additionalProperties: false }),
  Type.Object({ type: Type.Literal('collection'), collection: Id }, { additionalProperties: false }),
]);
export type ContentPointer = Static<typeof ContentPointer>;

export const ContentPosition = Type.Object(
  { before: Type.Optional(ContentPointer), after: Type.Optional(ContentPointer) },
  { additionalProperties: false, description: 'Where among its new siblings: before or after one of them (at the end when absent).' },
);
export type ContentPosition = Static<typeof ContentPosition>;

export const MoveBody = Type.Object(
  {
    parent: Type.Optional(Type.Union([Id, Type.Null()], { description: 'The collection to move into, or null for the root of the organization.' })),
    position: Type.Optional(ContentPosition),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type MoveBody = Static<typeof MoveBody>;

export const TransferBody = Type.Object({ organization: Id }, { additionalProperties: false });
export type TransferBody = Static<typeof TransferBody>;
