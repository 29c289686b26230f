import type { SpaceActor } from './space.ts';
import { spaceRules } from './space.ts';

/** What a change request of a space needs before it merges (GET|PUT /v1/spaces/{spaceId}/merge-rules). */
export interface MergeRules {
  /** At least this many approvals. */
  minApprovals: number;
  /** Users who must each have approved. */
  requiredReviewers: string[];
  /** Teams of which at least one member must have approved. */
  requiredTeams: string[];
  /** No merge while a reviewer's latest review requests changes. */
  blockOnChangesRequested: boolean;
  /** Approvals made before the change request's last change do not count. */
  requireCurrentApprovals: boolean;
  /** Administrators of the space may merge past the rules (each such merge is recorded). */
  adminsCanBypass: boolean;
}

/** No rules: anyone with the merge level merges. What a space without merge rules has. */
export const NO_MERGE_RULES: MergeRules = {
  minApprovals: 0,
  requiredReviewers: [],
  requiredTeams: [],
  blockOnChangesRequested: false,
  requireCurrentApprovals: false,
  adminsCanBypass: true,
};

/** The latest review of one reviewer on a change request. */
export interface LatestReview {
  reviewerId: string;
  status: 'approved' | 'changes-requested';
  /** Made against an older revision of the change request than its current one. */
  outdated: boolean;
}

/** The reviews state of one change request, as the rules read it. */
export interface ReviewState {
  latest: LatestReview[];
  /** The members of each required team. */
  teamMembers: Map<string, string[]>;
}

/** A rule a change request does not meet: its name and a sentence a person can act on. */
export interface RuleViolation {
  rule: 'min-approvals' | 'required-reviewers' | 'required-teams' | 'changes-requested';
  message: string;
}

/** The rules a change request does not meet (none: it may merge). */
export function mergeRuleViolations(rules: MergeRules, state: ReviewState): RuleViolation[] {
  const violations: RuleViolation[] = [];
  const approvals = state.latest.filter((review) => review.status === 'approved');
  const counted = approvals.filter((review) => !rules.requireCurrentApprovals || !review.outdated);
  const approvers = new Set(counted.map((review) => review.reviewerId));
  const outdatedNote = rules.requireCurrentApprovals && counted.length < approvals.length ? ` (${approvals.length - counted.length} approval made before the last change no longer counts)` : '';
  if (counted.length < rules.minApprovals) {
    violations.push({ rule: 'min-approvals', message: `it needs ${rules.minApprovals} approval${rules.minApprovals === 1 ? '' : 's'} and has ${counted.length}${outdatedNote}` });
  }
  const missing = rules.requiredReviewers.filter((id) => !approvers.has(id));
  if (missing.length > 0) violations.push({ rule: 'required-reviewers', message: `it needs the approval of ${missing.map((id) => `"${id}"`).join(', ')}${outdatedNote}` });
  const teams = rules.requiredTeams.filter((team) => !(state.teamMembers.get(team) ?? []).some((id) => approvers.has(id)));
  if (teams.length > 0) violations.push({ rule: 'required-teams', message: `it needs the approval of a member of team ${teams.map((id) => `"${id}"`).join(', ')}${outdatedNote}` });
  if (rules.blockOnChangesRequested) {
    const requesting = state.latest.filter((review) => review.status === 'changes-requested');
    if (requesting.length > 0) violations.push({ rule: 'changes-requested', message: `${requesting.map((review) => `"${review.reviewerId}"`).join(', ')} requested changes` });
  }
  return violations;
}

/** Whether a caller may merge a change request that breaks `violations`: administrators when the rules let them bypass. */
export function mayMergePast(actor: SpaceActor, rules: MergeRules, violations: RuleViolation[]): boolean {
  return violations.length === 0 || (rules.adminsCanBypass && spaceRules.admin(actor));
}

/** The answer to a merge refused by the rules: each rule by name, what it needs. */
export function mergeRefusal(violations: RuleViolation[]): string {
  const list = violations.map((violation) => `rule "${violation.rule}": ${violation.message}`).join('; ');
  return `This change request cannot be merged yet under the space's merge rules: ${list}. Get the reviews it needs, or ask an administrator of the space.`;
}
