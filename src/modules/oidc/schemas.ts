import { Type, type Static } from 'typebox';
import { ListQuery, MemberRoleOrGuest, Timestamp } from '../../http/schemas.ts';
import { TeamSchema } from '../teams/schemas.ts';

export const DEFAULT_OIDC_SCOPES = ['openid', 'email', 'profile'] as const;

const Label = Type.String({ minLength: 1, maxLength: 30, description: 'The name people see on the sign-in page.' });
const Issuer = Type.String({
  format: 'uri',
  maxLength: 2048,
  description: 'The issuer URL of the OpenID provider; its discovery document is read from <issuer>/.well-known/openid-configuration.',
});
const ClientId = Type.String({ minLength: 1, maxLength: 1024, description: 'The client id this server was registered with at the provider.' });
const ClientSecret = Type.String({
  minLength: 1,
  maxLength: 4096,
  description: 'The client secret given by the provider. Stored encrypted; never returned (see hasClientSecret).',
});
const Scope = Type.String({ pattern: '^[\\x21\\x23-\\x5B\\x5D-\\x7E]+$', maxLength: 200 });
const Scopes = Type.Array(Scope, { minItems: 1, maxItems: 30, description: 'The scopes asked for; "openid" is always added.' });

export const OidcProviderSchema = Type.Object(
  {
    object: Type.Literal('oidc-provider'),
    id: Type.String(),
    label: Type.String(),
    issuer: Type.String({ format: 'uri' }),
    clientId: Type.String(),
    hasClientSecret: Type.Boolean({ description: 'Whether a client secret is stored; the secret itself is never returned.' }),
    scopes: Type.Array(Type.String()),
    defaultTeam: Type.Optional(TeamSchema),
    defaultRole: MemberRoleOrGuest,
    createdAt: Timestamp,
    service: Type.Object(
      {
        redirectURL: Type.String({ format: 'uri', description: 'The redirect URI to register at the provider.' }),
        startURL: Type.String({ format: 'uri', description: 'Where a sign-in through this provider starts.' }),
      },
      { description: "What to configure at the provider: this server's side of the connection." },
    ),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'OidcProvider' },
);
export type OidcProvider = Static<typeof OidcProviderSchema>;

export const OidcListParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });
export const OidcProviderParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  oidcProviderId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const ListOidcProvidersQuery = Type.Object(ListQuery, { additionalProperties: false });

const optionalMembers = {
  clientSecret: Type.Optional(Type.Union([ClientSecret, Type.Null()], { description: 'null removes the stored secret (a public client).' })),
  scopes: Type.Optional(Scopes),
  defaultTeam: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 100, description: 'A team of the organization that people who join through the provider join.' }), Type.Null()])),
  defaultRole: Type.Optional(MemberRoleOrGuest),
};

export const CreateOidcProviderBody = Type.Object({ label: Label, issuer: Issuer, clientId: ClientId, ...optionalMembers }, { additionalProperties: false });
export type CreateOidcProviderBody = Static<typeof CreateOidcProviderBody>;

export const UpdateOidcProviderBody = Type.Object(
  { label: Type.Optional(Label), issuer: Type.Optional(Issuer), clientId: Type.Optional(ClientId), ...optionalMembers },
  { additionalProperties: false },
);
export type UpdateOidcProviderBody = Static<typeof UpdateOidcProviderBody>;

