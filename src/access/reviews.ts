import type { Context } from '../context.ts';
import { nowIso } from '../context.ts';
import type { ChangeRequestRow } from '../db/rows.ts';
import { Forbidden } from '../errors.ts';
import { allows } from '../policy/index.ts';
import { mayMergePast, mergeRefusal, mergeRuleViolations, type LatestReview, type MergeRules, type ReviewState } from '../policy/merge-rules.ts';
import type { SpaceActor } from '../policy/space.ts';
import { spaceRules } from '../policy/space.ts';

/**
 * Reviews and merge rules as the rest of Quire reads them: the rules of a space, the review state of
 * change requests, and the check every merge goes through (src/modules/change-requests/merge-service.ts).
 */

function ids(text: string): string[] {
  const value: unknown = JSON.parse(text);
  return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
}

/** The merge rules of a space; null when it has none. */
export async function loadMergeRules(ctx: Pick<Context, 'db'>, spaceId: string): Promise<MergeRules | null> {
  const row = await ctx.db.selectFrom('space_merge_rules').selectAll().where('space_id', '=', spaceId).executeTakeFirst();
  if (!row) return null;
  return {
    minApprovals: Number(row.min_approvals),
    requiredReviewers: ids(row.required_reviewers),
    requiredTeams: ids(row.required_teams),
    blockOnChangesRequested: Boolean(row.block_changes_requested),
    requireCurrentApprovals: Boolean(row.require_current_approvals),
    adminsCanBypass: Boolean(row.admins_can_bypass),
  };
}

/** The review state of change requests (two queries for any number): each reviewer's latest review, and the members of required teams. */
export async function reviewStates(ctx: Pick<Context, 'db'>, changeRequests: Array<Pick<ChangeRequestRow, 'id' | 'revision'>>, rules: MergeRules): Promise<Map<string, ReviewState>> {
  const states = new Map<string, ReviewState>();
  if (changeRequests.length === 0) return states;
  const [reviews, members] = await Promise.all([
    ctx.db
      .selectFrom('change_request_reviews')
      .select(['change_request_id', 'reviewer_id', 'status', 'revision'])
      .where('change_request_id', 'in', changeRequests.map((cr) => cr.id))
      .orderBy('created_at', 'asc')
      .orderBy('id', 'asc')
      .execute(),
    rules.requiredTeams.length === 0
      ? Promise.resolve([])
      : ctx.db.selectFrom('team_members').select(['team_id', 'user_id']).where('team_id', 'in', rules.requiredTeams).execute(),
  ]);
  const teamMembers = new Map<string, string[]>();
  for (const row of members) teamMembers.set(row.team_id, [...(teamMembers.get(row.team_id) ?? []), row.user_id]);
  const revisionOf = new Map(changeRequests.map((cr) => [cr.id, cr.revision]));
  const latest = new Map<string, Map<string, LatestReview>>();
  for (const review of reviews) {
    const byReviewer = latest.get(review.change_request_id) ?? new Map<string, LatestReview>();
    byReviewer.set(review.reviewer_id, {
      reviewerId: review.reviewer_id,
      status: review.status as LatestReview['status'],
      outdated: review.revision !== revisionOf.get(review.change_request_id),
    });
    latest.set(review.change_request_id, byReviewer);
  }
  for (const cr of changeRequests) states.set(cr.id, { latest: [...(latest.get(cr.id)?.values() ?? [])], teamMembers });
  return states;
}

/**
 * Whether the caller may merge each change request: the merge level, and the space's merge rules met (or
 * passed by an administrator when the rules allow it). What `permissions.merge` says.
 */
export async function mergePermissions(ctx: Pick<Context, 'db'>, spaceId: string, actor: SpaceActor, changeRequests: Array<Pick<ChangeRequestRow, 'id' | 'revision'>>): Promise<Map<string, boolean>> {
  const result = new Map<string, boolean>();
  const level = spaceRules.merge(actor);
  const rules = level ? await loadMergeRules(ctx, spaceId) : null;
  const states = rules ? await reviewStates(ctx, changeRequests, rules) : new Map<string, ReviewState>();
  for (const cr of changeRequests) {
    const state = states.get(cr.id);
    result.set(cr.id, level && (!rules || !state || mayMergePast(actor, rules, mergeRuleViolations(rules, state))));
  }
  return result;
}

/**
 * The merge rules' check, after the merge level was authorized: 403 naming each rule the change request does
 * not meet, unless an administrator may pass them; inside the merging transaction, such a pass is recorded.
 */
export async function enforceMergeRules(ctx: Context, access: { space: { id: string }; actor: SpaceActor; changeRequest: Pick<ChangeRequestRow, 'id' | 'revision'> }): Promise<void> {
  const rules = await loadMergeRules(ctx, access.space.id);
  if (!rules) return;
  const state = (await reviewStates(ctx, [access.changeRequest], rules)).get(access.changeRequest.id)!;
  const violations = mergeRuleViolations(rules, state);
  if (!allows(ctx, 'changeRequest.mergeRules', access.actor, rules, violations)) throw new Forbidden(mergeRefusal(violations));
  if (violations.length === 0 || !ctx.db.isTransaction) return;
  await ctx.db
    .insertInto('merge_rule_bypasses')
    .values({
      id: ctx.ids.next(),
      space_id: access.space.id,
      change_request_id: access.changeRequest.id,
      user_id: access.actor.userId,
      rules: JSON.stringify(violations.map((violation) => violation.rule)),
      created_at: nowIso(ctx),
    })
    .execute();
}
