import type { MemberRoleOrGuest } from './roles.ts';
import { roleAtLeast } from './roles.ts';

/** Who the caller is inside one organization. Outsiders have no OrganizationActor: they get 404. */
export interface OrganizationActor {
  userId: string;
  role: MemberRoleOrGuest;
  /** Owner of at least one team of the organization. */
  ownsTeam: boolean;
}

const isMember = (a: OrganizationActor) => a.role !== null;

export const organizationRules = {
  /** Members and guests see the organization itself. */
  view: () => true,
  admin: (a: OrganizationActor) => a.role === 'admin',
  createContent: (a: OrganizationActor) => roleAtLeast(a.role, 'create'),
  listMembers: isMember,
  /** A guest may still read their own membership. */
  viewMember: (a: OrganizationActor, userId: string) => isMember(a) || a.userId === userId,
  /** Administrators remove anyone; anybody may leave. */
  removeMember: (a: OrganizationActor, userId: string) => a.role === 'admin' || a.userId === userId,
  listTeams: isMember,
  /** The teams of a member are visible to members, and to that member. */
  listMemberTeams: (a: OrganizationActor, userId: string) => isMember(a) || a.userId === userId,
};

export interface OrganizationPermissions {
  view: boolean;
  admin: boolean;
  ownTeam: boolean;
  createContent: boolean;
  createOpenAPISpec: boolean;
  ingestConversations: boolean;
  viewBilling: boolean;
  listMembers: boolean;
  listTeams: boolean;
  listIntegrations: boolean;
}

/** The `permissions` object of an organization, computed by the same rules the routes enforce. */
export function organizationPermissions(a: OrganizationActor): OrganizationPermissions {
  return {
    view: organizationRules.view(),
    admin: organizationRules.admin(a),
    ownTeam: a.ownsTeam,
    createContent: organizationRules.createContent(a),
    createOpenAPISpec: organizationRules.createContent(a),
    ingestConversations: organizationRules.admin(a),
    viewBilling: organizationRules.admin(a),
    listMembers: organizationRules.listMembers(a),
    listTeams: organizationRules.listTeams(a),
    listIntegrations: organizationRules.listMembers(a),
  };
}
