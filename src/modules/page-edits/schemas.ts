import { Type, type Static } from 'typebox';
import { StringEnum } from '../../http/schemas.ts';
import { LAYOUT_PRESETS } from '../../content/nodes.ts';
import { ContentRefSchema, RevisionPageSchema } from '../content/schemas.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const closed = { additionalProperties: false } as const;

/**
 * A page body as the JSON document the reads give (`GET …/page/{pageId}?format=document`). Its nodes are
 * checked when the document is written as Markdown (an unknown or malformed node is a 400 naming it), so
 * that a node this schema does not list is carried through, never dropped.
 */
export const DocumentInput = Type.Object(
  {
    object: Type.Literal('document'),
    data: Type.Optional(Type.Object({}, { additionalProperties: true })),
    nodes: Type.Array(Type.Object({}, { additionalProperties: true }), { maxItems: 100_000 }),
  },
  { ...closed, description: 'The page body as a JSON document (the shape of GET …/content/page/{pageId}?format=document).' },
);
export type DocumentInput = Static<typeof DocumentInput>;

const LayoutInput = Type.Union(
  [
    StringEnum(LAYOUT_PRESETS),
    Type.Object(
      {
        width: Type.Optional(StringEnum(['default', 'wide'] as const)),
        cover: Type.Optional(Type.Boolean()),
        coverSize: Type.Optional(StringEnum(['hero', 'full'] as const)),
        title: Type.Optional(Type.Boolean()),
        description: Type.Optional(Type.Boolean()),
        tableOfContents: Type.Optional(Type.Boolean()),
        outline: Type.Optional(Type.Boolean()),
        pagination: Type.Optional(Type.Boolean()),
        metadata: Type.Optional(Type.Boolean()),
      },
      closed,
    ),
  ],
  { description: 'A preset (docs, editorial, landing) or the layout options to set; options left out keep their value.' },
);

const CoverInput = Type.Union([
  Type.Object(
    {
      ref: Type.Optional(ContentRefSchema),
      refDark: Type.Optional(ContentRefSchema),
      yPos: Type.Optional(Type.Number({ description: 'The vertical position of the cover image; 0 by default.' })),
    },
    closed,
  ),
  Type.Null(),
], { description: 'The page cover; null removes it.' });

const Title = Type.String({ minLength: 1, maxLength: 500 });
const Emoji = Type.Union([Type.String({ minLength: 1, maxLength: 50 }), Type.Null()], { description: 'An emoji (or its code point in hex, as GitBook writes it); null removes it.' });
const IconName = Type.String({ minLength: 1, maxLength: 50, pattern: '^[a-z0-9-]+$', description: 'Name of the icon, as GitBook names them (Font Awesome names such as "gear"): lowercase letters, digits and dashes.' });
const Icon = Type.Union([IconName, Type.Null()], { description: 'The page\'s icon (it replaces the emoji: a page shows one or the other); null removes it.' });
const Position = Type.Integer({ minimum: 0, maximum: 100_000, description: 'The place among the siblings (0 is first); the end when absent.' });
const BaseRevision = Type.String({
  minLength: 1,
  maxLength: 100,
  description:
    'The revision the editor loaded the page from. When the page changed since then, the change is merged with this one (line by line for the body, field by field for the settings); when they cannot be combined, 409 and nothing is written.',
});

export const CreatePageBody = Type.Object(
  {
    title: Title,
    type: Type.Optional(StringEnum(['document', 'group', 'link'] as const, { default: 'document', description: 'document (default), group (top level only) or link.' })),
    parent: Type.Optional(Type.Union([Id, Type.Null()], { description: 'The parent page; the top level when absent or null.' })),
    position: Type.Optional(Position),
    document: Type.Optional(DocumentInput),
    href: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, format: 'uri', description: 'Link pages: the address they point to (this or "target" is required for them).' })),
    target: Type.Optional(
      Type.Union(
        [
          Type.Object({ kind: Type.Literal('url'), url: Type.String({ minLength: 1, maxLength: 2048, format: 'uri' }) }, closed),
          Type.Object({ kind: Type.Literal('page'), page: Id }, closed),
        ],
        { description: 'Link pages: where they point as a content reference, an address or a page of this content (instead of "href").' },
      ),
    ),
    emoji: Type.Optional(Type.String({ minLength: 1, maxLength: 50 })),
    icon: Type.Optional(IconName),
    description: Type.Optional(Type.String({ maxLength: 1000 })),
    slug: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
  },
  { ...closed, description: 'A new page.' },
);
export type CreatePageBody = Static<typeof CreatePageBody>;

export const PatchPageBody = Type.Object(
  {
    title: Type.Optional(Title),
    description: Type.Optional(Type.Union([Type.String({ maxLength: 1000 }), Type.Null()], { description: 'null or "" removes it.' })),
    slug: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100 }), Type.Null()], { description: 'The slug the page asks for; null makes it follow the title again.' })),
    emoji: Type.Optional(Emoji),
    icon: Type.Optional(Icon),
    parent: Type.Optional(Type.Union([Id, Type.Null()], { description: 'Moves the page (with its subtree) under this page; null moves it to the top level.' })),
    position: Type.Optional(Position),
    document: Type.Optional(DocumentInput),
    layout: Type.Optional(LayoutInput),
    cover: Type.Optional(CoverInput),
    href: Type.Optional(Type.String({ minLength: 1, maxLength: 2048, format: 'uri', description: 'Link pages: points the link at this address instead.' })),
    target: Type.Optional(
      Type.Union(
        [
          Type.Object({ kind: Type.Literal('url'), url: Type.String({ minLength: 1, maxLength: 2048, format: 'uri' }) }, closed),
          Type.Object({ kind: Type.Literal('page'), page: Id }, closed),
        ],
        { description: 'Link pages: points the link at an address or at a page of this content (instead of "href").' },
      ),
    ),
    baseRevision: Type.Optional(BaseRevision),
  },
  { ...closed, description: 'What to change; members left out keep their value.' },
);
export type PatchPageBody = Static<typeof PatchPageBody>;

export const DeletePageQuery = Type.Object({ baseRevision: Type.Optional(BaseRevision) }, closed);
export type DeletePageQuery = Static<typeof DeletePageQuery>;

export const SpacePageParams = Type.Object({ spaceId: Id, pageId: Id });
export const SpaceParams = Type.Object({ spaceId: Id });

const Revision = Type.String({ description: 'The id of the new revision: the change request\'s (or the space\'s) content after the write.' });

/** The page (as GET …/content/page/{pageId} answers it, its body as a document) and the new revision. */
export const CreatedPageSchema = Type.Intersect([RevisionPageSchema, Type.Object({ revision: Revision })]);
export const PageWriteSchema = Type.Object({ page: RevisionPageSchema, revision: Revision });
