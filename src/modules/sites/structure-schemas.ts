import { SiteSchema } from './schemas.ts';
import { Type, type Static } from 'typebox';
import { ListQuery } from '../../http/schemas.ts';
import { SpaceSchema } from '../spaces/schemas.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const Uri = Type.String({ format: 'uri' });

export const SectionTitle = Type.String({ minLength: 2, maxLength: 128, description: 'Title of the site section (2 to 128 characters).' });
export const SectionDescription = Type.String({ maxLength: 256, description: 'Description of the site section (at most 256 characters).' });
export const StructurePath = Type.String({ minLength: 1, maxLength: 100, description: 'One URL segment (1 to 100 characters, no "/").' });
export const Condition = Type.String({
  minLength: 1,
  maxLength: 1024,
  description: 'An expression over the visitor (for example `visitor.claims.beta == true`): the item is shown only when it holds.',
});
export const Icon = Type.String({ maxLength: 50, description: 'Name of the icon (at most 50 characters).' });
export const GroupTitle = Type.String({ minLength: 1, maxLength: 100, description: 'Title of the section group (1 to 100 characters).' });

/** The Space object, without its $id: it appears more than once in one answer (a structure), which a $id forbids. */
const EmbeddedSpace = Type.Object(SpaceSchema.properties, { description: 'The space it publishes, as the caller sees it.' });

const Nullable = <T extends Parameters<typeof Type.Union>[0][number]>(schema: T) => Type.Union([schema, Type.Null()]);

export const SiteSpaceSchema = Type.Object(
  {
    object: Type.Literal('site-space'),
    id: Type.String(),
    path: Type.String(),
    title: Type.String({ description: 'The title of the space it publishes.' }),
    default: Type.Boolean({ description: 'Whether it is the default site space of its section (or of the site root).' }),
    space: EmbeddedSpace,
    urls: Type.Object({
      location: Uri,
      published: Type.Optional(Type.String({ format: 'uri', description: 'Only when the site is published.' })),
    }),
    section: Type.Optional(Type.String({ description: 'The section holding it.' })),
    condition: Type.Optional(Type.String()),
  },
  { description: 'A space published in a site.' },
);
export type SiteSpace = Static<typeof SiteSpaceSchema>;

export const SiteSectionSchema = Type.Object(
  {
    object: Type.Literal('site-section'),
    id: Type.String(),
    title: Type.String(),
    path: Type.String(),
    default: Type.Boolean({ description: 'Whether it is the default section of the site.' }),
    siteSpaces: Type.Array(SiteSpaceSchema),
    urls: Type.Object({
      location: Uri,
      published: Type.Optional(Type.String({ format: 'uri', description: 'Only when the site is published.' })),
    }),
    description: Type.Optional(Type.String()),
    condition: Type.Optional(Type.String()),
    sectionGroup: Type.Optional(Type.String({ description: 'The group holding it.' })),
    icon: Type.Optional(Type.String()),
  },
  { description: 'A section of a site.' },
);
export type SiteSection = Static<typeof SiteSectionSchema>;

export const SiteSectionGroupSchema = Type.Object(
  {
    object: Type.Literal('site-section-group'),
    id: Type.String(),
    title: Type.String(),
    sections: Type.Array(SiteSectionSchema),
    icon: Type.Optional(Type.String()),
  },
  { description: 'A group of sections of a site.' },
);
export type SiteSectionGroup = Static<typeof SiteSectionGroupSchema>;

export const SiteStructureSchema = Type.Union([
  Type.Object({ type: Type.Literal('sections'), structure: Type.Array(Type.Union([SiteSectionSchema, SiteSectionGroupSchema])) }),
  Type.Object({ type: Type.Literal('siteSpaces'), structure: Type.Array(SiteSpaceSchema) }),
]);
export type SiteStructure = Static<typeof SiteStructureSchema>;

export const SiteStructureItemSchema = Type.Union([SiteSpaceSchema, SiteSectionSchema, SiteSectionGroupSchema]);
export type SiteStructureItem = Static<typeof SiteStructureItemSchema>;

// Params

export const SiteParams = Type.Object({ organizationId: Id, siteId: Id });
export const SectionParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionId: Id });
export const GroupParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionGroupId: Id });
export const GroupSectionParams = Type.Object({ organizationId: Id, siteId: Id, siteSectionGroupId: Id, siteSectionId: Id });
export const SiteSpaceParams = Type.Object({ organizationId: Id, siteId: Id, siteSpaceId: Id });

const ShareKey = Type.Optional(Type.String({ minLength: 1, maxLength: 256, description: 'For share-link sites: an active share key, carried by the published URLs.' }));

export const ListSectionsQuery = Type.Object({ ...ListQuery, shareKey: ShareKey }, { additionalProperties: false });
export type ListSectionsQuery = Static<typeof ListSectionsQuery>;
export const ListGroupsQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListGroupsQuery = Static<typeof ListGroupsQuery>;
export const ListSiteSpacesQuery = Type.Object(
  {
    ...ListQuery,
    shareKey: ShareKey,
    default: Type.Optional(Type.Boolean({ description: 'true: only default site spaces (the `default` member); false: only the others; omitted: all.' })),
  },
  { additionalProperties: false },
);
export type ListSiteSpacesQuery = Static<typeof ListSiteSpacesQuery>;
export const ShareKeyQuery = Type.Object({ shareKey: ShareKey }, { additionalProperties: false });
export type ShareKeyQuery = Static<typeof ShareKeyQuery>;
export const PublishedQuery = Type.Object(
  {
    shareKey: ShareKey,
    jwt_token: Type.Optional(Type.String({ minLength: 1, maxLength: 8192, description: 'Quire extension: a visitor JWT signed with the site\'s key (visitor-auth sites and adaptive content).' })),
  },
  { additionalProperties: false },
);
export type PublishedQuery = Static<typeof PublishedQuery>;

// Bodies

export const CreateSectionBody = Type.Object(
  {
    spaceId: Id,
    title: Type.Optional(Nullable(SectionTitle)),
    icon: Type.Optional(Nullable(Icon)),
  },
  { additionalProperties: false },
);
export type CreateSectionBody = Static<typeof CreateSectionBody>;

export const UpdateSectionBody = Type.Object(
  {
    title: Type.Optional(SectionTitle),
    path: Type.Optional(StructurePath),
    defaultSiteSpace: Type.Optional(Id),
    condition: Type.Optional(Nullable(Condition)),
    icon: Type.Optional(Nullable(Icon)),
    description: Type.Optional(Nullable(SectionDescription)),
  },
  { additionalProperties: false },
);
export type UpdateSectionBody = Static<typeof UpdateSectionBody>;

export const CreateGroupBody = Type.Object(
  {
    title: GroupTitle,
    icon: Type.Optional(Nullable(Icon)),
    sections: Type.Optional(Type.Array(Id, { maxItems: 1000, description: 'Sections to move into the group, in this order.' })),
  },
  { additionalProperties: false },
);
export type CreateGroupBody = Static<typeof CreateGroupBody>;

export const UpdateGroupBody = Type.Object({ title: Type.Optional(GroupTitle), icon: Type.Optional(Nullable(Icon)) }, { additionalProperties: false });
export type UpdateGroupBody = Static<typeof UpdateGroupBody>;

export const AddSectionToGroupBody = Type.Object({ sectionId: Id }, { additionalProperties: false });
export type AddSectionToGroupBody = Static<typeof AddSectionToGroupBody>;

export const CreateSiteSpaceBody = Type.Object({ spaceId: Id, sectionId: Type.Optional(Id) }, { additionalProperties: false });
export type CreateSiteSpaceBody = Static<typeof CreateSiteSpaceBody>;

export const UpdateSiteSpaceBody = Type.Object(
  { path: Type.Optional(StructurePath), condition: Type.Optional(Nullable(Condition)), spaceId: Type.Optional(Id) },
  { additionalProperties: false },
);
export type UpdateSiteSpaceBody = Static<typeof UpdateSiteSpaceBody>;

// Moves (deprecated operations, and sortSiteStructure)

const SectionPointer = Type.Object({ type: Type.Literal('site-section'), siteSection: Id }, { additionalProperties: false });
export const MoveSectionBody = Type.Object(
  { position: Type.Optional(Type.Object({ before: Type.Optional(SectionPointer), after: Type.Optional(SectionPointer) }, { additionalProperties: false })) },
  { additionalProperties: false },
);
export type MoveSectionBody = Static<typeof MoveSectionBody>;

const GroupPointer = Type.Object(
  { type: Type.Union([Type.Literal('site-section'), Type.Literal('site-section-group')]), id: Id },
  { additionalProperties: false },
);
export const MoveGroupBody = Type.Object(
  { position: Type.Optional(Type.Object({ before: Type.Optional(GroupPointer), after: Type.Optional(GroupPointer) }, { additionalProperties: false })) },
  { additionalProperties: false },
);
export type MoveGroupBody = Static<typeof MoveGroupBody>;

const SiteSpacePointer = Type.Object({ type: Type.Literal('site-space'), siteSpace: Id }, { additionalProperties: false });
export const MoveSiteSpaceBody = Type.Object(
  { position: Type.Optional(Type.Object({ before: Type.Optional(SiteSpacePointer), after: Type.Optional(SiteSpacePointer) }, { additionalProperties: false })) },
  { additionalProperties: false },
);
export type MoveSiteSpaceBody = Static<typeof MoveSiteSpaceBody>;

const ItemPointer = Type.Object(
  { type: Type.Union([Type.Literal('site-space'), Type.Literal('site-section'), Type.Literal('site-section-group')]), id: Id },
  { additionalProperties: false },
);
export type ItemPointer = Static<typeof ItemPointer>;
export const SortStructureBody = Type.Object(
  {
    item: ItemPointer,
    position: Type.Object({ before: Type.Optional(ItemPointer), after: Type.Optional(ItemPointer) }, { additionalProperties: false }),
  },
  { additionalProperties: false },
);
export type SortStructureBody = Static<typeof SortStructureBody>;

/** Pointers as the services take them: what kind, which id. */
export interface Pointer {
  type: 'site-space' | 'site-section' | 'site-section-group';
  id: string;
}
export interface MovePosition {
  before?: Pointer;
  after?: Pointer;
}

/** The published profile of a site (getPublishedContentSite). */
export const PublishedContentSiteSchema = Type.Object({
  object: Type.Literal('published-content-site'),
  site: SiteSchema,
  structure: SiteStructureSchema,
  customizations: Type.Object({
    site: Type.Unsafe<object>({ type: 'object', additionalProperties: true, description: 'SiteCustomizationSettings of the site, complete.' }),
    siteSpaces: Type.Record(Type.String(), Type.Unsafe<object>({ type: 'object', additionalProperties: true })),
  }),
  scripts: Type.Array(Type.Unsafe<object>({ type: 'object', additionalProperties: true }), { description: 'Integration scripts: always empty.' }),
});
