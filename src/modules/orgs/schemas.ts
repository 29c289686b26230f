import { Type, type Static } from 'typebox';
import { ListQuery, MemberRoleOrGuest, StringEnum, Timestamp, Url } from '../../http/schemas.ts';

export const ORGANIZATION_TYPES = ['business', 'community'] as const;
export const ORGANIZATION_USE_CASES = ['internalDocs', 'docsSite', 'audienceControlledSite', 'productDocs', 'teamKnowledgeBase', 'designSystem', 'openSourceDocs', 'notes', 'other'] as const;
export const ORGANIZATION_COMMUNITY_TYPES = ['nonProfit', 'openSource', 'education'] as const;

export const OrganizationTitle = Type.String({ minLength: 2, maxLength: 255, description: 'Name of the organization' });
export const OrganizationHostname = Type.String({
  minLength: 3,
  maxLength: 32,
  pattern: '^[a-z0-9]([a-z0-9-]*[a-z0-9])?$',
  description: 'Default hostname label of the organization: lowercase letters, digits and inner hyphens.',
});
export const EmailDomain = Type.String({
  minLength: 3,
  maxLength: 253,
  pattern: '^(?=.{3,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?\\.)+[A-Za-z]{2,63}$',
  description: 'A domain name such as example.com',
});
export const SitePointer = Type.Object(
  { type: Type.Literal('site'), site: Type.String({ minLength: 1 }) },
  { additionalProperties: false },
);

export const OrganizationPermissionsSchema = Type.Object({
  view: Type.Boolean(),
  admin: Type.Boolean(),
  ownTeam: Type.Boolean(),
  createContent: Type.Boolean(),
  createOpenAPISpec: Type.Boolean(),
  ingestConversations: Type.Boolean(),
  viewBilling: Type.Boolean(),
  listMembers: Type.Boolean(),
  listTeams: Type.Boolean(),
  listIntegrations: Type.Boolean(),
});

export const OrganizationSchema = Type.Object(
  {
    object: Type.Literal('organization'),
    id: Type.String(),
    title: Type.String(),
    createdAt: Timestamp,
    emailDomains: Type.Array(Type.String()),
    hostname: Type.Optional(Type.String()),
    type: StringEnum(ORGANIZATION_TYPES),
    useCase: Type.Optional(StringEnum(ORGANIZATION_USE_CASES)),
    communityType: Type.Optional(StringEnum(ORGANIZATION_COMMUNITY_TYPES)),
    defaultRole: Type.Optional(MemberRoleOrGuest),
    defaultContent: Type.Optional(SitePointer),
    sso: Type.Boolean(),
    ai: Type.Boolean(),
    inviteLinks: Type.Boolean(),
    plan: Type.String(),
    urls: Type.Object({ location: Type.String({ format: 'uri' }), app: Type.String({ format: 'uri' }), logo: Type.Optional(Type.String()) }),
    trial: Type.Object({ status: Type.String() }),
    internal_isOnNewTrial: Type.Boolean(),
    permissions: OrganizationPermissionsSchema,
  },
  { $id: 'Organization' },
);
export type Organization = Static<typeof OrganizationSchema>;

export const OrganizationParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });

export const UpdateOrganizationBody = Type.Object(
  {
    title: Type.Optional(OrganizationTitle),
    emailDomains: Type.Optional(Type.Array(EmailDomain, { maxItems: 100 })),
    hostname: Type.Optional(OrganizationHostname),
    defaultRole: Type.Optional(MemberRoleOrGuest),
    defaultContent: Type.Optional(Type.Union([SitePointer, Type.Null()])),
    logo: Type.Optional(Type.Union([Url, Type.Null()])),
    sso: Type.Optional(Type.Boolean()),
    ai: Type.Optional(Type.Boolean()),
    inviteLinks: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type UpdateOrganizationBody = Static<typeof UpdateOrganizationBody>;

export const ListOrganizationsQuery = Type.Object(ListQuery, { additionalProperties: false });

export const EmailDomainParams = Type.Object({ emailDomain: Type.String({ minLength: 1, maxLength: 253 }) });
export const EmailDomainOrganizations = Type.Object({ organizations: Type.Array(OrganizationSchema) });
