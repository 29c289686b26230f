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

const Resolution = Type.Object(
  {
    pageId: Id,
    take: StringEnum(['change-request', 'space', 'edited'] as const, { description: 'Keep the change request\'s version of the page, the space\'s, or the `title` and `markdown` given.' }),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 300, description: 'With "edited": the page\'s title (the space\'s when absent).' })),
    markdown: Type.Optional(Type.String({ maxLength: 2_000_000, description: 'With "edited": the page\'s text as Markdown.' })),
  },
  { additionalProperties: false },
);

export const ResolveConflictsBody = Type.Object(
  { resolutions: Type.Array(Resolution, { minItems: 1, maxItems: 200, description: 'One per conflicting page.' }) },
  { additionalProperties: false },
);
export type ResolveConflictsBody = Static<typeof ResolveConflictsBody>;
