import { Type, type Static } from 'typebox';
import { Timestamp } from '../../http/schemas.ts';
import { UserSchema } from '../users/schemas.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const closed = { additionalProperties: false };

export const ApiInformationSchema = Type.Object({
  version: Type.String({ description: 'The version of Quire answering.' }),
  build: Type.String({ description: 'When this version was built (ISO 8601).' }),
});

export const SpaceParams = Type.Object({ spaceId: Id });
export const ChangeRequestParams = Type.Object({ spaceId: Id, changeRequestId: Id });
export const ReusableContentParams = Type.Object({ spaceId: Id, reusableContentId: Id });
export const RevisionReusableContentParams = Type.Object({ spaceId: Id, revisionId: Id, reusableContentId: Id });
export const ChangeRequestReusableContentParams = Type.Object({ spaceId: Id, changeRequestId: Id, reusableContentId: Id });
export const DocumentParams = Type.Object({ spaceId: Id, documentId: Type.String({ minLength: 1, maxLength: 200 }) });
export const RevisionPageParams = Type.Object({ spaceId: Id, revisionId: Id, pageId: Id });

export const ContentFlagsQuery = Type.Object(
  {
    metadata: Type.Optional(Type.Boolean({ default: true, description: 'false leaves out Git metadata (`git`).' })),
    computed: Type.Optional(Type.Boolean({ default: true, description: 'Accepted; reusable contents are stored content.' })),
  },
  closed,
);
export type ContentFlagsQuery = Static<typeof ContentFlagsQuery>;

export const DocumentQuery = Type.Object({ schema: Type.Optional(Type.Union([Type.Literal('current'), Type.Literal('next')], { description: 'Accepted; Quire writes one schema.' })) }, closed);
export const EvaluatedQuery = Type.Object({ evaluated: Type.Optional(Type.Boolean({ default: false, description: 'true evaluates the expressions (variables) of the body.' })) }, closed);
export type EvaluatedQuery = Static<typeof EvaluatedQuery>;

export const ContributorSchema = Type.Object({ user: UserSchema, count: Type.Integer({ description: 'How many revisions of the change request they wrote.' }), updatedAt: Timestamp });
export type Contributor = Static<typeof ContributorSchema>;

export const ReusableContentSchema = Type.Object({
  id: Type.String(),
  title: Type.String(),
  git: Type.Optional(Type.Object({ oid: Type.String(), path: Type.String() })),
  document: Type.Optional(Type.String({ description: 'The id of its body document (GET /spaces/{spaceId}/documents/{documentId}); absent when empty.' })),
});
export type ReusableContent = Static<typeof ReusableContentSchema>;

/** A JSON document (`{ object: 'document', data, nodes }`). */
export const JsonDocumentSchema = Type.Object(
  { object: Type.Literal('document'), data: Type.Record(Type.String(), Type.Unknown()), nodes: Type.Array(Type.Unknown()) },
  { additionalProperties: true },
);

export const EmbedQuery = Type.Object({ url: Type.String({ minLength: 1, maxLength: 2048, description: 'The address to resolve.' }) }, closed);
export const EmbedSchema = Type.Object({
  type: Type.Union([Type.Literal('link'), Type.Literal('rich')]),
  title: Type.String(),
  site: Type.String(),
  icon: Type.Optional(Type.String()),
  html: Type.Optional(Type.String({ description: 'For "rich": the HTML the site offers through oEmbed.' })),
});
