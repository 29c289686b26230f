import { Type, type Static } from 'typebox';
import { ListQuery, MemberRoleOrGuest } from '../../http/schemas.ts';

export const OrganizationParams = Type.Object({ organizationId: Type.String({ minLength: 1, maxLength: 100 }) });
export const InviteParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  inviteId: Type.String({ minLength: 1, maxLength: 100 }),
});

// ---- invitations by e-mail ----

const InviteEntry = Type.Union([
  Type.String({ description: 'The e-mail address of a person to add, with the default role.' }),
  Type.Object(
    {
      email: Type.String({ description: 'The e-mail address of a person to add.' }),
      role: Type.Optional(MemberRoleOrGuest),
    },
    { additionalProperties: false, description: 'An address with its own role (null for a guest); without role, the default role.' },
  ),
]);

export const InviteUsersBody = Type.Object(
  {
    emails: Type.Array(InviteEntry, { minItems: 1, maxItems: 100, description: 'The people to add: 1 to 100 addresses.' }),
    /** The role of entries that give none; the organization's default role when left out; null adds guests. */
    role: Type.Optional(MemberRoleOrGuest),
    sso: Type.Optional(Type.Boolean({ description: 'Add the people as SSO members of the organization (default false).' })),
  },
  { additionalProperties: false },
);
export type InviteUsersBody = Static<typeof InviteUsersBody>;

export const InviteUsersResult = Type.Object({
  users: Type.Array(Type.String(), { description: 'The ids of the users who were added, in the order of the request.' }),
  invited: Type.Number({ description: 'How many users were added. Addresses that were already members are not counted.' }),
  signInLinks: Type.Optional(
    Type.Array(
      Type.Object({
        userId: Type.String(),
        email: Type.String(),
        url: Type.String({ description: 'The one-time link that sets the person\'s first password and signs them in. Shown in this answer only: pass it on to the person.' }),
        expiresAt: Type.String({ format: 'date-time' }),
      }),
      { description: 'Quire\'s own: for each person this invitation created (new to this Quire), the link that sets their first password (valid 7 days, once). Where mail is configured (QUIRE_SMTP_URL) the links are mailed to the people instead, and only a link whose mail failed is here.' },
    ),
  ),
  pendingInvitations: Type.Optional(
    Type.Array(
      Type.Object({
        email: Type.String(),
        expiresAt: Type.String({ format: 'date-time' }),
      }),
      {
        description:
          'Quire\'s own: people Quire knew already (who may belong to other organizations). They are not added: each gets an invitation to accept on their account page (mailed where mail is configured) or with POST /v1/orgs/{organizationId}/invites/{inviteId}, and becomes a member only then. Not counted in users and invited.',
      },
    ),
  ),
});

export const PendingInvitationSchema = Type.Object({
  object: Type.Literal('invitation'),
  id: Type.String({ description: 'The invitation\'s id: accept it with POST /v1/orgs/{organizationId}/invites/{id}, decline it with DELETE.' }),
  organization: Type.Object({ id: Type.String(), title: Type.String() }),
  role: MemberRoleOrGuest,
  expiresAt: Type.String({ format: 'date-time' }),
});
export type PendingInvitationView = Static<typeof PendingInvitationSchema>;

// ---- invite links ----

export const CreateLinkInviteBody = Type.Union([
  Type.Object({ role: MemberRoleOrGuest }, { additionalProperties: false, description: 'An invite to the organization with a role (null for a guest).' }),
  Type.Object(
    { level: MemberRoleOrGuest, space: Type.String({ minLength: 1, maxLength: 100 }) },
    { additionalProperties: false, description: 'An invite to one space of the organization.' },
  ),
  Type.Object(
    { level: MemberRoleOrGuest, collection: Type.String({ minLength: 1, maxLength: 100 }) },
    { additionalProperties: false, description: 'An invite to one collection of the organization.' },
  ),
]);
export type CreateLinkInviteBody = Static<typeof CreateLinkInviteBody>;

export const UpdateLinkInviteBody = Type.Union([
  Type.Object({ role: MemberRoleOrGuest }, { additionalProperties: false, description: 'The role the invite gives (null for a guest).' }),
  Type.Object({ level: MemberRoleOrGuest }, { additionalProperties: false, description: 'The level a content invite gives (refused: only organization invites exist).' }),
]);
export type UpdateLinkInviteBody = Static<typeof UpdateLinkInviteBody>;

export const JoinedSchema = Type.Object({}, { description: 'Joined: the caller is now a member of the organization.' });

export const InviteLinkSchema = Type.Object(
  {
    object: Type.Literal('invite'),
    id: Type.String({ description: 'The id of the invite link, which is also its secret.' }),
    role: MemberRoleOrGuest,
    redundant: Type.Boolean({ description: 'True when the caller already has every right the invite grants.' }),
  },
  { $id: 'InviteLink' },
);
export type InviteLink = Static<typeof InviteLinkSchema>;

export const ListLinkInvitesQuery = Type.Object(ListQuery, { additionalProperties: false });

