import { Type, type Static } from 'typebox';
import { MemberRoleOrGuest, Timestamp } from '../../http/schemas.ts';
import { UserSchema } from '../users/schemas.ts';

export const MemberSchema = Type.Object(
  {
    object: Type.Literal('member'),
    id: Type.String({ description: 'The id of the user.' }),
    role: MemberRoleOrGuest,
    user: UserSchema,
    disabled: Type.Boolean(),
    joinedAt: Timestamp,
    lastSeenAt: Type.Optional(Timestamp),
    sso: Type.Boolean(),
    spaces: Type.Number({ description: 'How many spaces the member was given access to directly.' }),
    teams: Type.Number({ description: 'How many teams of the organization the member belongs to.' }),
  },
  { $id: 'Member' },
);
export type Member = Static<typeof MemberSchema>;
