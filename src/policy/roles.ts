/** Member roles of an organization, from the most to the least powerful; null is a guest. */
export const MEMBER_ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type MemberRole = (typeof MEMBER_ROLES)[number];
export type MemberRoleOrGuest = MemberRole | null;

export const TEAM_ROLES = ['owner', 'member'] as const;
export type TeamRole = (typeof TEAM_ROLES)[number];

/** guest 0, read 1, comment 2, edit 3, review 4, create 5, admin 6. */
export function roleRank(role: MemberRoleOrGuest): number {
  return role === null ? 0 : MEMBER_ROLES.length - MEMBER_ROLES.indexOf(role);
}

/** True when `role` grants at least what `required` grants. */
export function roleAtLeast(role: MemberRoleOrGuest, required: MemberRoleOrGuest): boolean {
  return roleRank(role) >= roleRank(required);
}

export function isMemberRole(value: unknown): value is MemberRole {
  return typeof value === 'string' && (MEMBER_ROLES as readonly string[]).includes(value);
}
