import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';
import { TEAM_ROLES } from '../../policy/roles.ts';

export const TeamTitle = Type.String({ minLength: 1, maxLength: 64, description: 'Title of the team' });
export const TeamRole = StringEnum(TEAM_ROLES, { description: 'owner: can manage the team members; member: belongs to the team.' });

export const TeamSchema = Type.Object(
  {
    object: Type.Literal('team'),
    id: Type.String(),
    title: Type.String(),
    members: Type.Integer({ description: 'How many members the team has.' }),
    spaces: Type.Number({ description: 'How many spaces the team was given access to.' }),
    createdAt: Timestamp,
    permissions: Type.Object({ admin: Type.Boolean(), view: Type.Boolean() }),
  },
  { $id: 'Team' },
);
export type Team = Static<typeof TeamSchema>;

/** `{ role }` of a user inside a team. */
export const TeamMembershipSchema = Type.Object({ role: TeamRole });

export const TeamParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  teamId: Type.String({ minLength: 1, maxLength: 100 }),
});
export const TeamMemberParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  teamId: Type.String({ minLength: 1, maxLength: 100 }),
  userId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const ListTeamsQuery = Type.Object(
  {
    ...ListQuery,
    owner: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'A user id: only the teams that member can manage.' })),
    title: Type.Optional(Type.String({ maxLength: 255, description: 'Only teams whose title contains this text, ignoring case.' })),
  },
  { additionalProperties: false },
);
export type ListTeamsQuery = Static<typeof ListTeamsQuery>;

export const ListTeamMembersQuery = Type.Object(ListQuery, { additionalProperties: false });

/** A user named in a body: their id, or their e-mail address (any case). */
const UserReference = Type.String({ minLength: 1, maxLength: 254, description: 'A user id or an e-mail address.' });
const MAX_USERS = 1000;

export const CreateTeamBody = Type.Object(
  {
    title: TeamTitle,
    members: Type.Optional(Type.Array(Type.String({ minLength: 1, maxLength: 100 }), { maxItems: MAX_USERS, description: 'Ids of members of the organization to put in the team.' })),
  },
  { additionalProperties: false },
);
export type CreateTeamBody = Static<typeof CreateTeamBody>;

export const UpdateTeamBody = Type.Object({ title: TeamTitle }, { additionalProperties: false });
export type UpdateTeamBody = Static<typeof UpdateTeamBody>;

export const UpdateTeamMembersBody = Type.Object(
  {
    add: Type.Optional(Type.Array(UserReference, { maxItems: MAX_USERS, description: 'Users to add to the team.' })),
    remove: Type.Optional(Type.Array(UserReference, { maxItems: MAX_USERS, description: 'Users to remove from the team; removal wins over "add".' })),
    memberships: Type.Optional(
      Type.Record(Type.String(), Type.Object({ role: TeamRole }, { additionalProperties: false }), {
        maxProperties: MAX_USERS,
        description: 'The role in the team of users being added or already in it.',
      }),
    ),
  },
  { additionalProperties: false },
);
export type UpdateTeamMembersBody = Static<typeof UpdateTeamMembersBody>;

export const PutTeamMemberBody = Type.Object({ role: Type.Optional(TeamRole) }, { additionalProperties: false });
export type PutTeamMemberBody = Static<typeof PutTeamMemberBody>;

/** A team of a member, with the member's role in it (listTeamsForOrganizationMember). */
export const MemberTeamSchema = Type.Object({ team: TeamSchema, member: TeamMembershipSchema });
export type MemberTeam = Static<typeof MemberTeamSchema>;
