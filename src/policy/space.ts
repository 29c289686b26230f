import type { MemberRole, MemberRoleOrGuest } from './roles.ts';
import { roleAtLeast } from './roles.ts';

export const SPACE_VISIBILITIES = ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] as const;
export type SpaceVisibility = (typeof SPACE_VISIBILITIES)[number];

/** A stored default level: inherit from the parent, a role every member gets, or 'none' (no one by default). */
export type StoredLevel = 'inherit' | MemberRole | 'none';

/**
 * The level a caller has on a piece of content (a space or a collection):
 * - organization administrators administer all content;
 * - other members get the first default level set on the content or one of its parent collections
 *   ('none' gives no access; when every level is 'inherit', members keep their organization role);
 *   a level never raises a member above the role they hold;
 * - guests and outsiders get no level.
 * Grants on the content (src/access/grants.ts) then raise this level, never lower it (`raisedLevel`).
 * `chain` is the content's own stored level, then its parents', nearest first.
 */
export function effectiveLevel(orgRole: MemberRoleOrGuest | undefined, chain: StoredLevel[]): MemberRole | null {
  if (orgRole === undefined || orgRole === null) return null;
  if (orgRole === 'admin') return 'admin';
  const set = chain.find((level) => level !== 'inherit');
  if (set === undefined) return orgRole;
  if (set === 'none') return null;
  return roleAtLeast(orgRole, set) ? set : orgRole;
}

/** The caller on one space: their level, and what the space's visibility opens to anyone. */
export interface SpaceActor {
  userId: string;
  /** Their role in the space's organization; undefined for outsiders. */
  orgRole: MemberRoleOrGuest | undefined;
  level: MemberRole | null;
  visibility: SpaceVisibility;
  /** The request carried the space's valid share key. */
  sharedWith: boolean;
}

/** Public and unlisted content can be read by anyone; share-link content by holders of its key. */
function openlyReadable(a: SpaceActor): boolean {
  return a.visibility === 'public' || a.visibility === 'unlisted' || (a.visibility === 'share-link' && a.sharedWith);
}

export const spaceRules = {
  view: (a: SpaceActor) => roleAtLeast(a.level, 'read') || openlyReadable(a),
  access: (a: SpaceActor) => roleAtLeast(a.level, 'read'),
  admin: (a: SpaceActor) => a.level === 'admin',
  comment: (a: SpaceActor) => roleAtLeast(a.level, 'comment'),
  edit: (a: SpaceActor) => roleAtLeast(a.level, 'edit'),
  review: (a: SpaceActor) => roleAtLeast(a.level, 'review'),
  merge: (a: SpaceActor) => roleAtLeast(a.level, 'review'),
  /** Import from and export to the space's Git repository, and change or remove its sync: the edit level. */
  triggerGitSync: (a: SpaceActor) => roleAtLeast(a.level, 'edit'),
  /** Create content in the organization: spaces and collections. */
  create: (a: SpaceActor) => roleAtLeast(a.level, 'create'),
};

export interface SpacePermissions {
  view: boolean;
  access: boolean;
  admin: boolean;
  viewInviteLinks: boolean;
  edit: boolean;
  triggerGitSync: boolean;
  comment: boolean;
  merge: boolean;
  review: boolean;
}

export function spacePermissions(a: SpaceActor): SpacePermissions {
  return {
    view: spaceRules.view(a),
    access: spaceRules.access(a),
    admin: spaceRules.admin(a),
    viewInviteLinks: spaceRules.admin(a),
    edit: spaceRules.edit(a),
    triggerGitSync: spaceRules.triggerGitSync(a),
    comment: spaceRules.comment(a),
    merge: spaceRules.merge(a),
    review: spaceRules.review(a),
  };
}

/** The caller on one collection. */
export interface CollectionActor {
  userId: string;
  orgRole: MemberRoleOrGuest | undefined;
  level: MemberRole | null;
}

export const collectionRules = {
  view: (a: CollectionActor) => roleAtLeast(a.level, 'read'),
  admin: (a: CollectionActor) => a.level === 'admin',
  create: (a: CollectionActor) => roleAtLeast(a.level, 'create'),
};

export function collectionPermissions(a: CollectionActor) {
  return { view: collectionRules.view(a), admin: collectionRules.admin(a), viewInviteLinks: collectionRules.admin(a), create: collectionRules.create(a) };
}
