import { Type, type Static } from 'typebox';
import { ChangeRequestSchema } from '../change-requests/schemas.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const ChangeRequestChangesParams = Type.Object({ spaceId: Id, changeRequestId: Id });
export const RevisionChangesParams = Type.Object({ spaceId: Id, revisionId: Id });

export const ChangesQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 1000, default: 10, description: 'At most this many changes (10 by default); `more` says how many were left out.' })),
    metadata: Type.Optional(Type.Boolean({ description: 'Accepted; changes carry no Git metadata.' })),
    computed: Type.Optional(Type.Boolean({ description: 'Accepted; changes are always of the stored content.' })),
  },
  { additionalProperties: false },
);
export type ChangesQuery = Static<typeof ChangesQuery>;

const Loose = (properties: Parameters<typeof Type.Object>[0]) => Type.Object(properties, { additionalProperties: true });
const ChangedPage = Loose({ id: Type.String(), type: Type.String(), title: Type.String() });

/** One change; the members of each type are those of the client's RevisionSemanticChange, plus `diff` (Markdown lines) on edits. */
export const SemanticChangeSchema = Loose({
  type: Type.String(),
  page: Type.Optional(ChangedPage),
  parent: Type.Optional(Loose({ before: Type.Optional(ChangedPage), after: Type.Optional(ChangedPage) })),
  attributes: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  file: Type.Optional(Loose({ id: Type.String(), name: Type.String(), contentType: Type.String(), downloadURL: Type.String() })),
  reusableContent: Type.Optional(Loose({ id: Type.String(), title: Type.String() })),
  variables: Type.Optional(Type.Record(Type.String(), Type.Unknown())),
  diff: Type.Optional(Type.String({ description: 'A unified line diff of the Markdown (a Quire addition).' })),
});

export const SemanticChangesSchema = Type.Object({
  mergedFrom: Type.Optional(ChangeRequestSchema),
  changes: Type.Array(SemanticChangeSchema),
  more: Type.Optional(Type.Number({ description: 'How many changes were left out above the limit.' })),
});
export type SemanticChanges = Static<typeof SemanticChangesSchema>;
