import { DocumentInput } from '../page-edits/schemas.ts';
import { Type, type Static } from 'typebox';
import { StringEnum, Timestamp } from '../../http/schemas.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const SpaceParams = Type.Object({ spaceId: Id });
export const RevisionParams = Type.Object({ spaceId: Id, revisionId: Id });
export const ChangeRequestParams = Type.Object({ spaceId: Id, changeRequestId: Id });

export const ListRevisionsQuery = Type.Object(
  {
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 50, default: 20, description: 'At most this many revisions (20 by default).' })),
    page: Type.Optional(Type.String({ ...Id, description: 'The cursor from `next.page` of the previous answer: the revision to continue the history from.' })),
  },
  { additionalProperties: false },
);
export type ListRevisionsQuery = Static<typeof ListRevisionsQuery>;

const ChangedPageEntry = Type.Object({
  id: Type.String(),
  title: Type.String(),
  change: StringEnum(['page_created', 'page_deleted', 'page_moved', 'page_edited'] as const, { description: 'What the revision did to the page.' }),
});

const Author = Type.Object({ object: Type.Literal('user'), id: Type.String(), displayName: Type.String(), photoURL: Type.Optional(Type.String()) });

export const HistoryEntrySchema = Type.Object({
  object: Type.Literal('revision-history-entry'),
  id: Type.String({ description: 'The revision (read it with getRevisionById, its changes with getRevisionSemanticChanges).' }),
  type: Type.String({ description: 'edits, merge, rollback, update or computed.' }),
  parents: Type.Array(Type.String()),
  createdAt: Timestamp,
  createdBy: Type.Optional(Author),
  mergedFrom: Type.Optional(Type.Object({ id: Type.String(), number: Type.Number(), subject: Type.Optional(Type.String()) }, { description: 'For a merge: the change request it merged.' })),
  pages: Type.Array(ChangedPageEntry, { description: 'The pages the revision changed from its first parent (at most 50).' }),
  morePages: Type.Optional(Type.Number({ description: 'How many changed pages were left out of `pages`.' })),
  otherChanges: Type.Number({ description: 'How many changes were not to pages (files, reusable contents, variables).' }),
});
export type HistoryEntry = Static<typeof HistoryEntrySchema>;

export const HistorySchema = Type.Object({
  next: Type.Optional(Type.Object({ page: Type.String() })),
  items: Type.Array(HistoryEntrySchema),
});

export const RestoreRevisionBody = Type.Object(
  {
    pageId: Type.Optional(Type.String({ ...Id, description: 'Restore only this page (its title, settings and text) as it was in the revision; without it, the whole space.' })),
    subject: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'The change request\'s subject; "Restore …" by default.' })),
  },
  { additionalProperties: false },
);
export type RestoreRevisionBody = Static<typeof RestoreRevisionBody>;

export const BlockChoiceSchema = Type.Object(
  {
    take: StringEnum(['space', 'change-request', 'both', 'edited'] as const, {
      description: 'For one conflicting run of blocks: the space\'s blocks, the change request\'s, both (the change request\'s first), or the `markdown` or `document` given (a document, as the editor gives it, is written as Markdown by the page writer over the change request\'s side of the run).',
    }),
    markdown: Type.Optional(Type.String({ maxLength: 200_000, description: 'With "edited": the run\'s blocks as Markdown (empty: none). Send this or `document`.' })),
    document: Type.Optional(DocumentInput),
  },
  { additionalProperties: false },
);

const Resolution = Type.Object(
  {
    pageId: Id,
    take: StringEnum(['change-request', 'space', 'edited', 'blocks'] as const, {
      description: 'Keep the change request\'s version of the page, the space\'s, the `title` and `markdown` given, or its text merged block by block with one of `blocks` per conflicting run (getChangeRequestPageConflict).',
    }),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'With "edited": the page\'s title (the space\'s when absent). With "blocks": the title (when absent, a rename made on one side only is kept, the space\'s when both renamed it).' })),
    markdown: Type.Optional(Type.String({ maxLength: 2_000_000, description: 'With "edited": the page\'s text as Markdown.' })),
    blocks: Type.Optional(Type.Array(BlockChoiceSchema, { maxItems: 1000, description: 'With "blocks": one choice per conflicting run, in the order getChangeRequestPageConflict lists them.' })),
  },
  { additionalProperties: false },
);

export const ConflictRevisions = Type.Object(
  {
    space: Id,
    changeRequest: Id,
    base: Type.Optional(Type.String({ ...Id, description: 'Ignored: the read\'s `revisions` may be sent back as they are.' })),
  },
  { additionalProperties: false, description: 'The space\'s and the change request\'s heads the choices were made on (`revisions` of getChangeRequestPageConflict): 409 when either moved since.' },
);

export const ResolveConflictsBody = Type.Object(
  {
    resolutions: Type.Array(Resolution, { minItems: 1, maxItems: 200, description: 'One per conflicting page.' }),
    revisions: Type.Optional(ConflictRevisions),
  },
  { additionalProperties: false },
);

export const PageConflictParams = Type.Object({ spaceId: Id, changeRequestId: Id, pageId: Id });

const SideSchema = Type.Object({
  markdown: Type.String({ description: 'The run\'s blocks in this version, as Markdown (empty: none).' }),
  document: Type.Object({ object: Type.Literal('document'), data: Type.Record(Type.String(), Type.Unknown()), nodes: Type.Array(Type.Unknown()) }, { additionalProperties: true }),
});

export const PageConflictSchema = Type.Object({
  object: Type.Literal('change-request-page-conflict'),
  pageId: Type.String(),
  title: Type.Object({ base: Type.Optional(Type.String()), space: Type.String(), changeRequest: Type.String() }),
  revisions: Type.Object({ base: Type.String(), space: Type.String(), changeRequest: Type.String() }),
  conflicts: Type.Number({ description: 'How many runs conflict (choices to send).' }),
  runs: Type.Array(
    Type.Object({
      status: StringEnum(['unchanged', 'space', 'change-request', 'merged', 'conflict'] as const, {
        description: 'unchanged; changed on one side only (taken); changed on both without overlapping lines (merged); or a conflict to choose.',
      }),
      conflict: Type.Optional(Type.Number({ description: 'For a conflict: its index among the choices.' })),
      base: SideSchema,
      space: SideSchema,
      changeRequest: SideSchema,
      result: Type.Optional(SideSchema),
    }),
  ),
});

export const PreviewBlocksBody = Type.Object(
  {
    blocks: Type.Array(BlockChoiceSchema, { maxItems: 1000, description: 'One choice per conflicting run.' }),
    revisions: Type.Optional(ConflictRevisions),
  },
  { additionalProperties: false },
);

export const PreviewBlocksSchema = Type.Object({
  markdown: Type.String({ description: 'The page\'s text once resolved with these choices.' }),
  document: SideSchema.properties.document,
});
export type ResolveConflictsBody = Static<typeof ResolveConflictsBody>;
