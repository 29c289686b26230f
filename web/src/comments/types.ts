/** Comments and replies as `/openapi.json` describes them (`Comment`, `CommentReply`): the members the panel uses. */
import type { User } from '../api/types.ts';

export interface Reaction {
  emoji: string;
  count: number;
  users: Array<{ user: User }>;
}

export interface CommentPermissions {
  edit: boolean;
  reply: boolean;
  delete: boolean;
}

export interface Comment {
  id: string;
  status: 'open' | 'resolved';
  postedBy: User;
  postedAt: string;
  editedAt?: string;
  resolvedBy?: User;
  reactions: Reaction[];
  replies: number;
  body: { markdown?: string };
  target: { page?: { id: string; title: string; outdated: boolean }; node?: { id: string; preview?: string } };
  permissions: CommentPermissions;
}

export interface CommentReply {
  id: string;
  postedBy: User;
  postedAt: string;
  editedAt?: string;
  reactions: Reaction[];
  body: { markdown?: string };
  permissions: CommentPermissions;
}

/** Where a discussion lives: a space's own, or a change request's. */
export interface CommentPlace {
  spaceId: string;
  changeRequestId?: string;
}

export type CommentFilter = 'open' | 'resolved' | 'all';
