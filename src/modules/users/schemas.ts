import { Type, type Static } from 'typebox';

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
