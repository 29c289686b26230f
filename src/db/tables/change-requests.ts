import type { Flag } from './columns.ts';

/** Change requests, their reviews and merge rules, and comments. Column conventions: src/db/tables/columns.ts. */

export interface ChangeRequestsTable {
  id: string;
  space_id: string;
  /** Counts up per space, never reused. */
  number: number;
  subject: string | null;
  /** 'draft' | 'open' | 'archived' | 'merged' */
  status: string;
  revision_initial: string;
  /** The change request's own current revision. */
  revision: string;
  /** The last revision of the space that the change request includes (its merge base). */
  revision_merged_ancestor: string;
  revision_merged: string | null;
  agent_task_id: string | null;
  /** Open comments. */
  comments: number;
  created_by: string | null;
  created_at: string;
  updated_at: string;
  merged_at: string | null;
  merged_by: string | null;
}

/** A user who created a change request or wrote to its content. */
export interface ChangeRequestContributorsTable {
  change_request_id: string;
  user_id: string;
  /** When they first contributed. */
  contributed_at: string;
}

export interface CommentsTable {
  id: string;
  space_id: string;
  change_request_id: string | null;
  author_id: string;
  /** Markdown. */
  body: string;
  /** JSON: { page?, node?, tableCell?, bodyHash? } */
  target: string | null;
  /** 'open' | 'resolved' */
  status: string;
  resolved_at: string | null;
  resolved_by: string | null;
  edited_at: string | null;
  replies: number;
  created_at: string;
  updated_at: string;
}

export interface CommentRepliesTable {
  id: string;
  comment_id: string;
  author_id: string;
  body: string;
  edited_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface CommentReactionsTable {
  /** A comment or reply id. */
  subject_id: string;
  emoji: string;
  user_id: string;
  created_at: string;
}

/** A reviewer asked for on a change request. */
export interface ChangeRequestReviewersTable {
  change_request_id: string;
  user_id: string;
  requested_by: string;
  revision: string;
  created_at: string;
}

/** A review of a change request, against the revision it saw. */
export interface ChangeRequestReviewsTable {
  id: string;
  change_request_id: string;
  reviewer_id: string;
  requested_by: string | null;
  status: string;
  revision: string;
  comment_id: string | null;
  created_at: string;
  updated_at: string;
}

/** What a change request of a space needs before it merges. */
export interface SpaceMergeRulesTable {
  space_id: string;
  min_approvals: number;
  required_reviewers: string;
  required_teams: string;
  block_changes_requested: Flag;
  require_current_approvals: Flag;
  admins_can_bypass: Flag;
  updated_by: string;
  updated_at: string;
}

/** A merge an administrator made past the space's merge rules. */
export interface MergeRuleBypassesTable {
  id: string;
  space_id: string;
  change_request_id: string;
  user_id: string;
  rules: string;
  created_at: string;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface ChangeRequestsTables {
  change_requests: ChangeRequestsTable;
  change_request_contributors: ChangeRequestContributorsTable;
  comments: CommentsTable;
  comment_replies: CommentRepliesTable;
  comment_reactions: CommentReactionsTable;
  change_request_reviewers: ChangeRequestReviewersTable;
  change_request_reviews: ChangeRequestReviewsTable;
  space_merge_rules: SpaceMergeRulesTable;
  merge_rule_bypasses: MergeRuleBypassesTable;
}
