import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { Forbidden } from '../../errors.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';

/**
 * Invitations a person answers. An administrator who invites by address someone Quire already knew (who
 * may belong to other organizations, and whose e-mail address the organization would then read) makes an
 * invitation, not a membership: the person sees it on their account page (and by mail where mail is
 * configured) and accepts or declines it there, or with POST /v1/orgs/{organizationId}/invites/{inviteId}.
 * Only acceptance makes the membership. Inviting again refreshes the invitation (role, SSO flag, expiry).
 */
export const INVITATION_DAYS = 30;

export interface PendingInvitation {
  id: string;
  organizationId: string;
  organizationTitle: string;
  role: MemberRoleOrGuest;
  expiresAt: string;
}

export interface NewInvitation {
  userId: string;
  role: MemberRoleOrGuest;
}

/** Makes (or refreshes) the invitations of people who are not members yet; returns their expiry. */
export async function createPendingInvitations(tx: Context, organizationId: string, invitations: NewInvitation[], sso: boolean, invitedBy: string): Promise<string> {
  const now = tx.clock.now();
  const expiresAt = new Date(now.getTime() + INVITATION_DAYS * 86_400_000).toISOString();
  for (const invitation of invitations) {
    await tx.db
      .insertInto('member_invitations')
      .values({
        id: tx.ids.next(),
        organization_id: organizationId,
        user_id: invitation.userId,
        role: invitation.role,
        sso: sso ? 1 : 0,
        invited_by: invitedBy,
        created_at: now.toISOString(),
        expires_at: expiresAt,
      })
      .onConflict((conflict) =>
        conflict.columns(['organization_id', 'user_id']).doUpdateSet({ role: invitation.role, sso: sso ? 1 : 0, invited_by: invitedBy, created_at: now.toISOString(), expires_at: expiresAt }),
      )
      .execute();
  }
  return expiresAt;
}

/** The signed-in person's invitations that are still open, newest first. */
export async function myPendingInvitations(ctx: Context): Promise<PendingInvitation[]> {
  const rows = await ctx.db
    .selectFrom('member_invitations')
    .innerJoin('organizations', 'organizations.id', 'member_invitations.organization_id')
    .select(['member_invitations.id', 'member_invitations.organization_id', 'organizations.title', 'member_invitations.role', 'member_invitations.expires_at'])
    .where('member_invitations.user_id', '=', requireActor(ctx).userId)
    .where('member_invitations.expires_at', '>', nowIso(ctx))
    .orderBy('member_invitations.created_at', 'desc')
    .orderBy('member_invitations.id')
    .execute();
  return rows.map((row) => ({ id: row.id, organizationId: row.organization_id, organizationTitle: row.title, role: row.role as MemberRoleOrGuest, expiresAt: row.expires_at }));
}

/**
 * Accepts one of the caller's open invitations: the membership is made with the invitation's role and SSO
 * flag (a membership that exists already is left as it is) and the invitation is spent. Undefined when the
 * caller has no such invitation (another person's is the same as none).
 */
export async function acceptInvitation(ctx: Context, organizationId: string, invitationId: string): Promise<'joined' | undefined> {
  const userId = requireActor(ctx).userId;
  return inTransaction(ctx, async (tx) => {
    const invitation = await tx.db
      .selectFrom('member_invitations')
      .selectAll()
      .where('id', '=', invitationId)
      .where('organization_id', '=', organizationId)
      .where('user_id', '=', userId)
      .where('expires_at', '>', nowIso(tx))
      .executeTakeFirst();
    if (!invitation) return undefined;
    const removed = await tx.db.deleteFrom('member_invitations').where('id', '=', invitation.id).executeTakeFirst();
    if (Number(removed.numDeletedRows) !== 1) return undefined;
    const member = await tx.db.selectFrom('members').select('disabled').where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
    if (member?.disabled) throw new Forbidden('Your membership of this organization is disabled: an invitation cannot enable it. Ask its administrators.');
    await tx.db
      .insertInto('members')
      .values({ organization_id: organizationId, user_id: userId, role: invitation.role, disabled: 0, sso: invitation.sso, joined_at: nowIso(tx), last_seen_at: null })
      .onConflict((conflict) => conflict.columns(['organization_id', 'user_id']).doNothing())
      .execute();
    return 'joined';
  });
}

/** Declines one of the caller's invitations; false when they had none by that id. */
export async function declineInvitation(ctx: Context, organizationId: string, invitationId: string): Promise<boolean> {
  const userId = requireActor(ctx).userId;
  return inTransaction(ctx, async (tx) => {
    const result = await tx.db.deleteFrom('member_invitations').where('id', '=', invitationId).where('organization_id', '=', organizationId).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}
