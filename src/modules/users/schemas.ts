import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';

export const UserSchema = Type.Object(
  {
    object: Type.Literal('user'),
    id: Type.String(),
    displayName: Type.String(),
    email: Type.Optional(Type.String()),
    photoURL: Type.Optional(Type.String()),
    urls: Type.Object({ location: Type.String({ format: 'uri' }) }),
  },
  { $id: 'User' },
);
export type User = Static<typeof UserSchema>;

export const UserParams = Type.Object({ userId: Type.String({ minLength: 1, maxLength: 100 }) });

export const UpdateUserBody = Type.Object(
  {
    displayName: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Full name of the user.' })),
    photoURL: Type.Optional(Type.String({ format: 'uri', maxLength: 2048, description: 'Address of the user\'s picture.' })),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateUserBody = Static<typeof UpdateUserBody>;

/** An API token as its owner sees it: never its secret (shown once, at creation, as `token`). */
export const ApiTokenSchema = Type.Object(
  {
    object: Type.Literal('api-token'),
    id: Type.String(),
    name: Type.Optional(Type.String()),
    status: StringEnum(['active', 'expired', 'revoked'] as const, { description: 'Whether the token is accepted now.' }),
    createdAt: Timestamp,
    expiresAt: Type.Optional(Timestamp),
    lastUsedAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it was last used, to the minute.' })),
    revokedAt: Type.Optional(Timestamp),
  },
  { $id: 'ApiToken' },
);
export type ApiToken = Static<typeof ApiTokenSchema>;

export const CreatedApiTokenSchema = Type.Intersect([ApiTokenSchema, Type.Object({ token: Type.String({ description: 'The secret: shown this once, keep it safe.' }) })]);

export const CreateApiTokenBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'What the token is for.' })),
    expiresIn: Type.Optional(Type.String({ maxLength: 20, description: 'Lifetime, such as 90m, 12h, 30d or 2w. None: it never expires.' })),
    expiresAt: Type.Optional(Type.String({ format: 'date-time', description: 'When it stops working (instead of expiresIn).' })),
  },
  { additionalProperties: false },
);
export type CreateApiTokenBody = Static<typeof CreateApiTokenBody>;

export const ApiTokenParams = Type.Object({ tokenId: Type.String({ minLength: 1, maxLength: 100 }) });
export const ListApiTokensQuery = Type.Object(ListQuery, { additionalProperties: false });
