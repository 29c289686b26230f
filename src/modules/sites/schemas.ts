import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';
import { SITE_VISIBILITIES } from '../../policy/site.ts';

export const SITE_TYPES = ['basic', 'premium', 'ultimate', 'sponsored', 'legacy-basic', 'legacy-premium'] as const;
export const SITE_AGENTS_CONTEXTS = ['excluded', 'included'] as const;

export const SiteType = StringEnum(SITE_TYPES, { description: 'The type of the site. Quire has no plans: the type is stored and shown, and changes nothing.' });
export const SiteTitle = Type.String({ minLength: 2, maxLength: 128, description: 'Title of the site' });
export const SiteVisibility = StringEnum(SITE_VISIBILITIES, {
  description: 'Who can read the published site: public (anyone, indexed), unlisted (anyone, not indexed), share-link (holders of a share link), visitor-auth (visitors with a JWT signed with the site key).',
});
export const SiteAgentsContext = StringEnum(SITE_AGENTS_CONTEXTS, { description: 'Whether agents may read the site.' });

/** One URL path segment: the site is served at {QUIRE_PUBLIC_URL}/sites/{organizationId}/{basename}. */
export const SiteBasename = Type.String({
  minLength: 1,
  maxLength: 100,
  pattern: '^[A-Za-z0-9._-]+$',
  description: 'The last segment of the site address: letters, digits, "-", "_" and "." only. Unique in the organization.',
});
/** The client document's SiteHostname. */
export const SiteHostname = Type.String({
  maxLength: 512,
  pattern: '^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$',
  description: 'A custom hostname that serves the site at its root, e.g. docs.example.com (lower case, at least three labels). Unique across Quire.',
});
/** The client document's SiteProxyOrigin. */
export const SiteProxyOrigin = Type.String({
  maxLength: 512,
  pattern: '^([\\w-]+\\.)*[\\w-]+\\.[a-zA-Z]{2,}(\\/[\\w-]+)+$',
  description: 'Where the site is proxied from: a host and a path, e.g. example.com/docs.',
});

export const SiteSchema = Type.Object(
  {
    object: Type.Literal('site'),
    id: Type.String(),
    type: SiteType,
    title: Type.String(),
    hostname: Type.Optional(Type.String()),
    basename: Type.Optional(Type.String()),
    proxy: Type.Optional(Type.Object({ origin: Type.String(), target: Type.String({ description: 'The published address requests at the origin are proxied to.' }) })),
    visibility: SiteVisibility,
    published: Type.Boolean(),
    siteSpaces: Type.Number({ description: 'How many site spaces the site has (their spaces not in the trash).' }),
    createdAt: Timestamp,
    adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() })),
    agentsContext: SiteAgentsContext,
    features: Type.Array(
      Type.Object({ id: Type.String(), plan: SiteType, frozen: Type.Boolean() }),
      { description: 'Premium features of the site: always empty, Quire has no plans.' },
    ),
    defaultSpace: Type.Union([Type.String(), Type.Null()], {
      description: 'The id of the space of the default site space (of the default section when the site has sections); null when there is none.',
    }),
    urls: Type.Object({
      location: Type.String({ format: 'uri' }),
      app: Type.String({ format: 'uri', description: 'Quire has no separate app: the same as location.' }),
      published: Type.Optional(Type.String({ format: 'uri', description: 'Only when the site is published.' })),
    }),
  },
  { $id: 'Site' },
);
export type Site = Static<typeof SiteSchema>;

const Id = Type.String({ minLength: 1, maxLength: 100 });

export const SiteParams = Type.Object({ organizationId: Id, siteId: Id });
export type SiteParams = Static<typeof SiteParams>;
export const ShareLinkParams = Type.Object({ organizationId: Id, siteId: Id, shareLinkId: Id });
export type ShareLinkParams = Static<typeof ShareLinkParams>;

export const ListSitesQuery = Type.Object(
  {
    ...ListQuery,
    space: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only sites that publish this space.' })),
    title: Type.Optional(Type.String({ maxLength: 255, description: 'Only sites whose title contains this text, ignoring case.' })),
    published: Type.Optional(Type.Boolean({ description: 'Only published (true) or unpublished (false) sites.' })),
    type: Type.Optional(Type.Array(SiteType, { maxItems: 10, description: 'Only sites of these types.' })),
  },
  { additionalProperties: false },
);
export type ListSitesQuery = Static<typeof ListSitesQuery>;

export const CreateSiteBody = Type.Object(
  {
    type: Type.Optional(SiteType),
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibility),
    spaces: Type.Optional(
      Type.Union([
        Type.Array(Id, { maxItems: 100, description: 'Spaces of the organization to publish, each as a site space at the root; the first is the default.' }),
        StringEnum(['sample', 'empty'] as const, { description: 'Create a new space for the site: empty, or with the product-docs template.' }),
      ]),
    ),
  },
  { additionalProperties: false },
);
export type CreateSiteBody = Static<typeof CreateSiteBody>;

export const UpdateSiteBody = Type.Object(
  {
    title: Type.Optional(SiteTitle),
    visibility: Type.Optional(SiteVisibility),
    basename: Type.Optional(SiteBasename),
    adaptiveContent: Type.Optional(Type.Object({ enabled: Type.Boolean() }, { additionalProperties: false })),
    agentsContext: Type.Optional(SiteAgentsContext),
    defaultSiteSpace: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A site space to make the default of the root, or of the default section.' })),
    defaultSiteSection: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A section to make the default.' })),
    proxy: Type.Optional(Type.Union([SiteProxyOrigin, Type.Null()], { description: 'A proxy origin such as example.com/docs, or null to remove it.' })),
    hostname: Type.Optional(Type.Union([SiteHostname, Type.Null()], { description: 'Quire addition: a custom hostname, or null to remove it.' })),
  },
  { additionalProperties: false },
);
export type UpdateSiteBody = Static<typeof UpdateSiteBody>;

export const ShareLinkName = Type.String({ minLength: 0, maxLength: 50, description: 'Name of the share link' });

export const ShareLinkSchema = Type.Object(
  {
    object: Type.Literal('share-link'),
    id: Type.String(),
    createdAt: Timestamp,
    name: Type.String(),
    active: Type.Boolean(),
    urls: Type.Object({ published: Type.Optional(Type.String({ format: 'uri', description: 'The published address of the site with the share key.' })) }),
  },
  { $id: 'ShareLink' },
);
export type ShareLink = Static<typeof ShareLinkSchema>;

export const ListShareLinksQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListShareLinksQuery = Static<typeof ListShareLinksQuery>;

export const CreateShareLinkBody = Type.Object({ name: ShareLinkName }, { additionalProperties: false });
export type CreateShareLinkBody = Static<typeof CreateShareLinkBody>;

export const UpdateShareLinkBody = Type.Object(
  { active: Type.Optional(Type.Boolean()), name: Type.Optional(ShareLinkName) },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateShareLinkBody = Static<typeof UpdateShareLinkBody>;

export const VISITOR_AUTH_BACKENDS = ['custom', 'integration'] as const;

export const PublishingAuthSchema = Type.Object(
  {
    object: Type.Literal('publishing-auth'),
    backend: Type.Literal('custom'),
    privateKey: Type.String({ description: 'The key that signs visitor JWTs (HS256).' }),
    fallbackURL: Type.Optional(Type.String({ format: 'uri', description: 'Where visitors without a valid JWT are sent.' })),
  },
  { $id: 'SitePublishingAuth' },
);
export type PublishingAuth = Static<typeof PublishingAuthSchema>;

export const UpdatePublishingAuthBody = Type.Object(
  {
    backend: StringEnum(VISITOR_AUTH_BACKENDS, { description: 'Only "custom": Quire has no integrations.' }),
    fallbackURL: Type.Optional(
      Type.Union([Type.String({ format: 'uri', maxLength: 2048 }), Type.Null()], { description: 'An http(s) URL visitors without a valid JWT are sent to; null removes it; omitted leaves it.' }),
    ),
  },
  { additionalProperties: false },
);
export type UpdatePublishingAuthBody = Static<typeof UpdatePublishingAuthBody>;

/** A JSON Schema: checked precisely by the service (src/sites/adaptive-schema.ts), so its messages are the ones a caller reads. */
const LooseObject = Type.Object({}, { additionalProperties: true });

export const AdaptiveSchemaSchema = Type.Object(
  {
    object: Type.Literal('site-adaptive-schema'),
    jsonSchema: LooseObject,
    updatedAt: Timestamp,
  },
  { $id: 'SiteAdaptiveSchema' },
);
export type AdaptiveSchema = Static<typeof AdaptiveSchemaSchema>;

export const UpdateAdaptiveSchemaBody = Type.Object(
  { jsonSchema: Type.Object({}, { additionalProperties: true, description: 'A draft-07 JSON Schema of the visitor claims.' }) },
  { additionalProperties: false },
);
export type UpdateAdaptiveSchemaBody = Static<typeof UpdateAdaptiveSchemaBody>;

export const TemplateConditionsSchema = Type.Object({
  items: Type.Array(Type.Object({ description: Type.String(), condition: Type.String() })),
});
