import { Type, type Static } from 'typebox';
import { ListQuery, MemberRole, MemberRoleOrGuest } from '../../http/schemas.ts';
import { TeamSchema } from '../teams/schemas.ts';
import { UserSchema } from '../users/schemas.ts';

const Id = Type.String({ minLength: 1, maxLength: 100 });
const MAX_INVITED = 1000;

export const SpaceParams = Type.Object({ spaceId: Id });
export const SpaceUserParams = Type.Object({ spaceId: Id, userId: Id });
export const SpaceTeamParams = Type.Object({ spaceId: Id, teamId: Id });
export const CollectionParams = Type.Object({ collectionId: Id });
export const CollectionUserParams = Type.Object({ collectionId: Id, userId: Id });
export const CollectionTeamParams = Type.Object({ collectionId: Id, teamId: Id });

export const ListPermissionsQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListPermissionsQuery = Static<typeof ListPermissionsQuery>;

export const AggregateQuery = Type.Object(
  { ...ListQuery, role: Type.Optional(MemberRole) },
  { additionalProperties: false },
);
export type AggregateQuery = Static<typeof AggregateQuery>;

/** `{ role }`: the role to give; null takes the grant away. */
export const UpdatePermissionBody = Type.Object(
  { role: MemberRoleOrGuest },
  { additionalProperties: false, description: 'The role to give on the content; null removes what was given.' },
);
export type UpdatePermissionBody = Static<typeof UpdatePermissionBody>;

export const InviteBody = Type.Object(
  {
    role: MemberRoleOrGuest,
    users: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: MAX_INVITED, description: 'Ids of users of the organization (guests included).' })),
    teams: Type.Optional(Type.Array(Id, { minItems: 1, maxItems: MAX_INVITED, description: 'Ids of teams of the organization.' })),
  },
  { additionalProperties: false },
);
export type InviteBody = Static<typeof InviteBody>;

export const UserPermissionSchema = Type.Object({ permission: MemberRole, user: UserSchema }, { $id: 'UserContentPermission' });
export type UserPermission = Static<typeof UserPermissionSchema>;

export const TeamPermissionSchema = Type.Object({ permission: MemberRole, team: TeamSchema }, { $id: 'TeamContentPermission' });
export type TeamPermission = Static<typeof TeamPermissionSchema>;
