import { Type, type Static } from 'typebox';
import { StringEnum, Timestamp } from '../../http/schemas.ts';
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
