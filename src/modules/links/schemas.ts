import { Type, type Static, type TObject } from 'typebox';
import { ListQuery, StringEnum } from '../../http/schemas.ts';
import { RevisionFileSchema as RevisionFileWithId, RevisionPageSchema as RevisionPageWithId } from '../content/schemas.ts';
import { OrganizationSchema as OrganizationWithId } from '../orgs/schemas.ts';
import { SpaceSchema as SpaceWithId } from '../spaces/schemas.ts';

/**
 * The shared object schemas without their `$id`: a location holds them several times in one answer, and a
 * schema id may appear only once in a response schema.
 */
function inline<T extends TObject>(schema: T): T {
  const { $id: _id, ...rest } = schema as T & { $id?: string };
  return rest as T;
}
const OrganizationSchema = inline(OrganizationWithId);
const SpaceSchema = inline(SpaceWithId);
const RevisionPageSchema = inline(RevisionPageWithId);
const RevisionFileSchema = inline(RevisionFileWithId);

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const SpaceParams = Type.Object({ spaceId: Id });
export const PageParams = Type.Object({ spaceId: Id, pageId: Id });
export const FileParams = Type.Object({ spaceId: Id, fileId: Id });

export const LINK_STATUSES = ['ok', 'broken', 'in-app'] as const;
export const LINK_RELATIONS = ['reference', 'dependsOn'] as const;

const linksQuery = {
  ...ListQuery,
  status: Type.Optional(
    StringEnum(LINK_STATUSES, { description: 'Only links with this status: ok, broken (the target is missing), in-app (a URL to an address of this server).' }),
  ),
};

export const LinksQuery = Type.Object(linksQuery, { additionalProperties: false });
export type LinksQuery = Static<typeof LinksQuery> & { brokenContext?: 'change-request' | 'space' };

/** The links of a change request: `brokenContext=change-request` leaves out the links that were already broken in the space. */
export const ChangeRequestLinksQuery = Type.Object(
  {
    ...linksQuery,
    brokenContext: Type.Optional(
      StringEnum(['change-request', 'space'] as const, { description: 'change-request: broken links are listed only when the change request broke them; space (default): every broken link.' }),
    ),
  },
  { additionalProperties: false },
);
export type ChangeRequestLinksQuery = Static<typeof ChangeRequestLinksQuery>;

export const BacklinksQuery = Type.Object(ListQuery, { additionalProperties: false });
export type BacklinksQuery = Static<typeof BacklinksQuery>;

/** An anchor (a heading id) within a page. */
const AnchorLocation = Type.Object({ type: Type.Literal('anchor'), anchor: Type.String({ description: 'The anchor within the page.' }) });

/** A page of a space; its child pages are not included (`pages` is empty). */
export const PageLocationSchema = Type.Object({
  kind: Type.Literal('page'),
  organization: OrganizationSchema,
  space: SpaceSchema,
  page: RevisionPageSchema,
  internalLocation: Type.Optional(AnchorLocation),
});
export type PageLocation = Static<typeof PageLocationSchema>;

export const FileLocationSchema = Type.Object({ kind: Type.Literal('file'), organization: OrganizationSchema, space: SpaceSchema, file: RevisionFileSchema });
export type FileLocation = Static<typeof FileLocationSchema>;

export const SpaceLocationSchema = Type.Object({ kind: Type.Literal('space'), organization: OrganizationSchema, space: SpaceSchema });

/** A URL; also how a missing or unreadable target is shown: the reference as it is written. */
export const UrlLocationSchema = Type.Object({ kind: Type.Literal('url'), url: Type.String() });

export const ContentLocationSchema = Type.Union([PageLocationSchema, FileLocationSchema, SpaceLocationSchema, UrlLocationSchema]);
export type ContentLocation = Static<typeof ContentLocationSchema>;

export const LinkUsageSchema = Type.Object({
  status: StringEnum(LINK_STATUSES),
  relation: StringEnum(LINK_RELATIONS, { description: 'reference: the page points at the target; dependsOn: the page shows it (images, files, embeds, covers).' }),
  targetReference: ContentLocationSchema,
  locationReferences: Type.Array(PageLocationSchema, { description: 'The pages where a link to the target is found.' }),
});
export type LinkUsage = Static<typeof LinkUsageSchema>;

export const LinksListSchema = Type.Object({
  next: Type.Optional(Type.Object({ page: Type.String() })),
  count: Type.Number({ description: 'How many links the list holds with the status filter applied.' }),
  stats: Type.Object({
    total: Type.Number({ description: 'How many links (distinct targets) the list holds, without the status filter.' }),
    broken: Type.Object({
      total: Type.Number({ description: 'How many of them are broken.' }),
      changeRequest: Type.Number({ description: 'How many were broken by the change request (always 0 outside change requests).' }),
    }),
  }),
  items: Type.Array(LinkUsageSchema),
});
export type LinksList = Static<typeof LinksListSchema>;
