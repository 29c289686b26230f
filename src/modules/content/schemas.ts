import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';
import { REVISION_TYPES } from '../../content/revisions.ts';
import { ChangeRequestSchema } from '../change-requests/schemas.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const SpaceParams = Type.Object({ spaceId: Id });
export const PageParams = Type.Object({ spaceId: Id, pageId: Id });
export const FileParams = Type.Object({ spaceId: Id, fileId: Id });
export const PathParams = Type.Object({ spaceId: Id, '*': Type.String({ maxLength: 2048, description: 'The path of the page, such as "guides/install".' }) });
export const RevisionParams = Type.Object({ spaceId: Id, revisionId: Id });
export const RevisionPageParams = Type.Object({ spaceId: Id, revisionId: Id, pageId: Id });
export const RevisionFileParams = Type.Object({ spaceId: Id, revisionId: Id, fileId: Id });
export const RevisionPathParams = Type.Object({ spaceId: Id, revisionId: Id, '*': Type.String({ maxLength: 2048 }) });

const revisionFlags = {
  metadata: Type.Optional(Type.Boolean({ default: true, description: 'false leaves out the Git metadata of pages and files.' })),
  computed: Type.Optional(Type.Boolean({ default: true, description: 'false skips computed content (Quire stores none yet).' })),
};

export const RevisionQuery = Type.Object(revisionFlags, { additionalProperties: false });
export type RevisionQuery = Static<typeof RevisionQuery>;

export const FilesQuery = Type.Object({ ...ListQuery, ...revisionFlags }, { additionalProperties: false });
export type FilesQuery = Static<typeof FilesQuery>;

export const DOCUMENT_FORMATS = ['document', 'markdown'] as const;
export const PageQuery = Type.Object(
  {
    format: Type.Optional(StringEnum(DOCUMENT_FORMATS, { description: 'The format of the page body: the JSON document (default) or Markdown.' })),
    evaluated: Type.Optional(Type.Boolean({ default: false, description: 'true evaluates the expressions (variables) of the body.' })),
    ...revisionFlags,
  },
  { additionalProperties: false },
);
export type PageQuery = Static<typeof PageQuery>;

/** A content reference in a body: `{ kind: 'url', url }`, `{ kind: 'page', page }` and the other kinds. */
const RefText = Type.String({ minLength: 1, maxLength: 2048 });
const closed = { additionalProperties: false } as const;
export const ContentRefSchema = Type.Union([
  Type.Object({ kind: Type.Literal('file'), file: RefText }, closed),
  Type.Object({ kind: Type.Literal('url'), url: Type.String({ minLength: 1, maxLength: 2048, format: 'uri' }) }, closed),
  Type.Object({ kind: Type.Literal('page'), page: RefText, space: Type.Optional(RefText) }, closed),
  Type.Object({ kind: Type.Literal('anchor'), anchor: RefText, space: Type.Optional(RefText), page: Type.Optional(RefText) }, closed),
  Type.Object({ kind: Type.Literal('user'), user: RefText }, closed),
  Type.Object({ kind: Type.Literal('collection'), collection: RefText }, closed),
  Type.Object({ kind: Type.Literal('space'), space: RefText }, closed),
  Type.Object({ kind: Type.Literal('reusable-content'), reusableContent: RefText, space: Type.Optional(RefText) }, closed),
  Type.Object({ kind: Type.Literal('openapi'), spec: RefText }, closed),
]);

export const ApplyTemplateBody = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 100, description: 'The id of a built-in template: product-docs, api-reference, knowledge-base.' }),
    params: Type.Optional(
      Type.Object(
        { contentRefs: Type.Optional(Type.Record(Type.String({ maxLength: 100 }), ContentRefSchema, { maxProperties: 50, description: 'Content references that fill the named slots of the template.' })) },
        { additionalProperties: false },
      ),
    ),
  },
  { additionalProperties: false },
);
export type ApplyTemplateBody = Static<typeof ApplyTemplateBody>;

const GitBlobSchema = Type.Object({ oid: Type.String(), path: Type.String() });
const VariablesSchema = Type.Record(Type.String(), Type.Union([Type.String(), Type.Number(), Type.Boolean()]));

export const LayoutSchema = Type.Object({
  width: StringEnum(['default', 'wide'] as const),
  cover: Type.Boolean(),
  coverSize: StringEnum(['hero', 'full'] as const),
  title: Type.Boolean(),
  description: Type.Boolean(),
  tableOfContents: Type.Boolean(),
  outline: Type.Boolean(),
  pagination: Type.Boolean(),
  metadata: Type.Boolean(),
});

/**
 * A page of a revision: a document, a group or a link. Children (`pages`) have the same shape; they are
 * declared loosely so the serializer writes the tree as the presenter built it, at any depth.
 */
export const RevisionPageSchema = Type.Object(
  {
    id: Type.String(),
    title: Type.String(),
    kind: StringEnum(['sheet', 'group', 'link'] as const),
    type: StringEnum(['document', 'group', 'link'] as const),
    slug: Type.Optional(Type.String()),
    path: Type.Optional(Type.String()),
    description: Type.Optional(Type.String()),
    emoji: Type.Optional(Type.String()),
    icon: Type.Optional(Type.String()),
    hidden: Type.Optional(Type.Boolean()),
    noIndex: Type.Optional(Type.Boolean()),
    noRobotsIndex: Type.Optional(Type.Boolean()),
    layout: Type.Optional(LayoutSchema),
    cover: Type.Optional(Type.Unknown({ description: 'RevisionPageDocumentCover' })),
    variables: Type.Optional(VariablesSchema),
    urls: Type.Optional(Type.Object({ app: Type.String({ format: 'uri' }) })),
    target: Type.Optional(Type.Unknown({ description: 'ContentRef' })),
    href: Type.Optional(Type.String()),
    git: Type.Optional(GitBlobSchema),
    documentId: Type.Optional(Type.String({ description: 'The hash of the page body; absent for an empty page.' })),
    document: Type.Optional(Type.Unknown({ description: 'The body as a JSON document (format=document).' })),
    markdown: Type.Optional(Type.String({ description: 'The body as Markdown (format=markdown).' })),
    pages: Type.Optional(Type.Array(Type.Unknown({ description: 'RevisionPage' }))),
  },
  { $id: 'RevisionPage' },
);
export type RevisionPage = Static<typeof RevisionPageSchema>;

export const RevisionFileSchema = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    contentType: Type.String(),
    downloadURL: Type.String({ description: 'A signed URL, valid for one to two hours, that serves the bytes without a token.' }),
    size: Type.Number(),
    dimensions: Type.Optional(Type.Object({ width: Type.Number(), height: Type.Number() })),
    git: Type.Optional(GitBlobSchema),
  },
  { $id: 'RevisionFile' },
);
export type RevisionFile = Static<typeof RevisionFileSchema>;

export const RevisionSchema = Type.Object(
  {
    object: Type.Literal('revision'),
    id: Type.String(),
    type: StringEnum(REVISION_TYPES),
    parents: Type.Array(Type.String()),
    pages: Type.Array(RevisionPageSchema),
    files: Type.Array(RevisionFileSchema),
    reusableContents: Type.Array(Type.Unknown()),
    variables: VariablesSchema,
    createdAt: Timestamp,
    urls: Type.Object({ app: Type.String({ format: 'uri' }) }),
    mergedFrom: Type.Optional(ChangeRequestSchema),
    git: Type.Optional(
      Type.Object({
        oid: Type.String(),
        message: Type.String(),
        createdByGitBook: Type.Boolean({ description: 'True for the commits Quire wrote (exports).' }),
        url: Type.Optional(Type.String()),
        ref: Type.Optional(Type.String()),
      }),
    ),
  },
  { $id: 'Revision' },
);
export type Revision = Static<typeof RevisionSchema>;

export const PagesSchema = Type.Object({ pages: Type.Array(RevisionPageSchema) });
