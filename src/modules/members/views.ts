import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import type { UserRow } from '../../db/rows.ts';

/** A membership as services load it: the user, the membership row, and its counts. */
export interface MemberView {
  user: UserRow;
  role: MemberRoleOrGuest;
  disabled: boolean;
  sso: boolean;
  joinedAt: string;
  lastSeenAt: string | null;
  spaces: number;
  teams: number;
}
