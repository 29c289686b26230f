import { Type, type Static } from 'typebox';
import { ListQuery, MemberRoleOrGuest, StringEnum, Timestamp, Url } from '../../http/schemas.ts';
import { TeamSchema } from '../teams/schemas.ts';

export const SAML_PROVIDER_STATUSES = ['active', 'pending'] as const;
export type SamlProviderStatus = (typeof SAML_PROVIDER_STATUSES)[number];

/**
 * What Quire answers for an `ssoURL` that is not set yet: a URI that names nothing. It is never a valid
 * input address (only http and https are), so it cannot be mistaken for a configured one.
 */
export const UNSET_SSO_URL = 'about:blank';

export const SamlProviderLabel = Type.String({ minLength: 1, maxLength: 30, description: 'The name people see on the login page.' });
export const SamlProviderEntityId = Type.String({ maxLength: 1024, description: 'The entity ID of the identity provider; "" when not set.' });
export const SamlProviderCertificate = Type.String({
  maxLength: 10000,
  description: 'The X.509 signing certificate of the identity provider, in PEM form; "" when not set.',
});

export const SamlProviderSchema = Type.Object(
  {
    object: Type.Literal('saml-provider'),
    id: Type.String(),
    label: Type.String(),
    ssoURL: Type.String({ description: `Where the identity provider receives login requests; "${UNSET_SSO_URL}" when not set.` }),
    entityID: SamlProviderEntityId,
    certificate: SamlProviderCertificate,
    defaultTeam: Type.Optional(TeamSchema),
    defaultRole: MemberRoleOrGuest,
    createdAt: Timestamp,
    status: StringEnum(SAML_PROVIDER_STATUSES, { description: 'active when ssoURL, entityID and certificate are all set; pending otherwise.' }),
    service: Type.Object(
      {
        acsURL: Type.String({ format: 'uri', description: 'Where the identity provider posts its assertions (Assertion Consumer Service).' }),
        startURL: Type.String({ format: 'uri', description: 'Where a login through this provider starts.' }),
        entityID: Type.String({ description: 'The entity ID of this server for this provider (its metadata URL).' }),
      },
      { description: 'What to configure in the identity provider: this server\'s side of the connection.' },
    ),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'SamlProvider' },
);
export type SamlProvider = Static<typeof SamlProviderSchema>;

export const SamlListParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });
export const SamlProviderParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  samlProviderId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ListSamlProvidersQuery = Type.Object(ListQuery, { additionalProperties: false });

/** The members of a create or update body. null (or "" for the text members) clears a member. */
const providerMembers = {
  entityID: Type.Optional(Type.Union([SamlProviderEntityId, Type.Null()])),
  certificate: Type.Optional(Type.Union([SamlProviderCertificate, Type.Null()])),
  ssoURL: Type.Optional(Type.Union([Url, Type.Null()])),
  defaultTeam: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100, description: 'A team of the organization that people who log in join.' }), Type.Null()])),
  defaultRole: Type.Optional(MemberRoleOrGuest),
};

export const CreateSamlProviderBody = Type.Object({ label: SamlProviderLabel, ...providerMembers }, { additionalProperties: false });
export type CreateSamlProviderBody = Static<typeof CreateSamlProviderBody>;

export const UpdateSamlProviderBody = Type.Object({ label: Type.Optional(SamlProviderLabel), ...providerMembers }, { additionalProperties: false });
export type UpdateSamlProviderBody = Static<typeof UpdateSamlProviderBody>;


export const SsoLoginSchema = Type.Object({
  id: Type.String(),
  label: Type.String(),
  startURL: Type.String({ format: 'uri', description: 'Open this address to log in through the provider.' }),
});
export const SsoLoginsSchema = Type.Object({ items: Type.Array(SsoLoginSchema) });
export type SsoLogin = Static<typeof SsoLoginSchema>;
