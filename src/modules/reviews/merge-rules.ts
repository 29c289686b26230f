import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { loadMergeRules } from '../../access/reviews.ts';
import { spaceAccess } from '../../access/spaces.ts';
import { BadRequest } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import { NO_MERGE_RULES, type MergeRules } from '../../policy/merge-rules.ts';
import type { PutMergeRulesBody } from './schemas.ts';

export interface MergeRulesView {
  spaceId: string;
  rules: MergeRules;
  updatedAt: string | null;
}

/** The merge rules of a space (anyone who can read it); a space without rules answers the rules that let every merge through. */
export async function getMergeRules(ctx: Context, spaceId: string): Promise<MergeRulesView> {
  const { space, actor } = await spaceAccess(ctx, spaceId);
  authorize(ctx, 'space.view', actor);
  const row = await ctx.db.selectFrom('space_merge_rules').select('updated_at').where('space_id', '=', space.id).executeTakeFirst();
  return { spaceId: space.id, rules: (await loadMergeRules(ctx, space.id)) ?? NO_MERGE_RULES, updatedAt: row?.updated_at ?? null };
}

/**
 * Sets the merge rules of a space (administrators of the space). Members left out take their defaults:
 * no minimum, nobody required, changes requested block, outdated approvals do not count, administrators
 * may bypass. Required reviewers must be members of the organization, required teams its teams.
 */
export async function putMergeRules(ctx: Context, spaceId: string, body: PutMergeRulesBody): Promise<MergeRulesView> {
  return inTransaction(ctx, async (tx) => {
    const { space, actor } = await spaceAccess(tx, spaceId);
    authorize(tx, 'space.admin', actor);
    const reviewers = [...new Set(body.requiredReviewers ?? [])];
    const teams = [...new Set(body.requiredTeams ?? [])];
    if (reviewers.length > 0) {
      const found = new Set((await tx.db.selectFrom('members').select('user_id').where('organization_id', '=', space.organization_id).where('user_id', 'in', reviewers).execute()).map((row) => row.user_id));
      const missing = reviewers.filter((id) => !found.has(id));
      if (missing.length > 0) throw new BadRequest(`The body member "requiredReviewers" names ${missing.map((id) => `"${id}"`).join(', ')}, who are not members of this organization.`);
    }
    if (teams.length > 0) {
      const found = new Set((await tx.db.selectFrom('teams').select('id').where('organization_id', '=', space.organization_id).where('id', 'in', teams).execute()).map((row) => row.id));
      const missing = teams.filter((id) => !found.has(id));
      if (missing.length > 0) throw new BadRequest(`The body member "requiredTeams" names ${missing.map((id) => `"${id}"`).join(', ')}, which are not teams of this organization.`);
    }
    const now = nowIso(tx);
    const values = {
      min_approvals: body.minApprovals ?? 0,
      required_reviewers: JSON.stringify(reviewers),
      required_teams: JSON.stringify(teams),
      block_changes_requested: body.blockOnChangesRequested === false ? (0 as const) : (1 as const),
      require_current_approvals: body.requireCurrentApprovals === false ? (0 as const) : (1 as const),
      admins_can_bypass: body.adminsCanBypass === false ? (0 as const) : (1 as const),
      updated_by: actor.userId,
      updated_at: now,
    };
    await tx.db
      .insertInto('space_merge_rules')
      .values({ space_id: space.id, ...values })
      .onConflict((oc) => oc.column('space_id').doUpdateSet(values))
      .execute();
    return { spaceId: space.id, rules: (await loadMergeRules(tx, space.id))!, updatedAt: now };
  });
}
