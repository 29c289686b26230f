import { Type, type Static } from 'typebox';
import { ListQuery, MemberRoleOrGuest, OrderQuery, StringEnum, Timestamp } from '../../http/schemas.ts';
import { MEMBER_ROLES } from '../../policy/roles.ts';
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

export const MemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  userId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const MEMBER_SORTS = ['joinedAt', 'lastSeenAt'] as const;
export const MEMBER_ROLE_FILTERS = [...MEMBER_ROLES, 'guest'] as const;

export const ListMembersQuery = Type.Object(
  {
    ...ListQuery,
    order: OrderQuery,
    role: Type.Optional(StringEnum(MEMBER_ROLE_FILTERS, { description: 'Only members with this role; "guest" for guests.' })),
    search: Type.Optional(Type.String({ maxLength: 256, description: 'Only members whose display name or e-mail address contains this text (any case).' })),
    sort: Type.Optional(
      StringEnum(MEMBER_SORTS, { default: 'joinedAt', description: 'The property to sort by. With lastSeenAt, only members who have been seen are listed.' }),
    ),
  },
  { additionalProperties: false },
);
export type ListMembersQuery = Static<typeof ListMembersQuery>;

export const UpdateMemberBody = Type.Object(
  { role: Type.Optional(MemberRoleOrGuest) },
  { additionalProperties: false },
);
export type UpdateMemberBody = Static<typeof UpdateMemberBody>;

/** The answer of a ping: a signed token of claims about the caller, under the name the public client reads. */
export const PingResponse = Type.Object({
  gitbookVisitorClaims: Type.String({ description: 'A JWT (HS256, signed with the organization\'s key) of claims about the caller, valid one hour.' }),
});

export const ListMemberTeamsQuery = Type.Object(
  {
    ...ListQuery,
    title: Type.Optional(Type.String({ maxLength: 256, description: 'Only teams whose title contains this text (any case).' })),
  },
  { additionalProperties: false },
);
export type ListMemberTeamsQuery = Static<typeof ListMemberTeamsQuery>;

