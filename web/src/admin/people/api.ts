/**
 * The settings screens' calls: each an operation of web/src/api/operations.ts (so checked against
 * `/openapi.json` like the rest of the workspace), typed with the members these screens read.
 */
import { request } from '../../api/client.ts';
import { OPERATIONS } from '../../api/operations.ts';
import type { List, User } from '../../api/types.ts';

export type Operation = keyof typeof OPERATIONS;

export const ROLES = ['admin', 'create', 'review', 'edit', 'comment', 'read'] as const;
export type Role = (typeof ROLES)[number];

/** What each role may do, in one sentence each (shown beside role pickers). */
export const ROLE_WORDS: Record<Role, string> = {
  admin: 'Admin: everything, including people, settings and billing',
  create: 'Create: make spaces and collections, and edit',
  review: 'Review: approve and merge change requests',
  edit: 'Edit: write in change requests',
  comment: 'Comment: read and comment',
  read: 'Read: read only',
};

export function url(operation: Operation, params: Record<string, string> = {}, query?: Record<string, string | undefined>): string {
  const filled = OPERATIONS[operation][1].replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? ''));
  const defined = query ? Object.entries(query).filter((entry): entry is [string, string] => entry[1] !== undefined && entry[1] !== '') : [];
  return defined.length ? `${filled}?${new URLSearchParams(defined).toString()}` : filled;
}

export function call<T>(operation: Operation, params?: Record<string, string>, body?: unknown, query?: Record<string, string | undefined>): Promise<T> {
  return request<T>(OPERATIONS[operation][0], url(operation, params, query), body);
}

export interface Member {
  id: string;
  role: Role | null;
  user: User;
  disabled: boolean;
  joinedAt: string;
  lastSeenAt?: string;
  sso: boolean;
  spaces: number;
  teams: number;
}

export interface Team {
  id: string;
  title: string;
  members: number;
  spaces: number;
  permissions: { admin: boolean; view: boolean };
}

export interface InviteLink {
  id: string;
  role: Role | null;
  redundant: boolean;
}

export interface UserPermission {
  permission: Role;
  user: User;
}

export interface TeamPermission {
  permission: Role;
  team: Team;
}

export interface OrganizationDetails {
  id: string;
  title: string;
  emailDomains: string[];
  defaultRole?: Role | null;
  sso: boolean;
  inviteLinks: boolean;
  urls: { location: string; app: string };
  permissions: { admin: boolean };
}

export type Page<T> = List<T>;

/** Every item of a paged list (the settings screens show whole lists of an organization's people). */
export async function all<T>(operation: Operation, params: Record<string, string>, query: Record<string, string> = {}): Promise<T[]> {
  const items: T[] = [];
  let page: string | undefined;
  do {
    const answer = await call<List<T>>(operation, params, undefined, { ...query, limit: '1000', page });
    items.push(...answer.items);
    page = answer.next?.page;
  } while (page);
  return items;
}
