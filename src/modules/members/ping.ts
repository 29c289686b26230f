import { SignJWT } from 'jose';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { requireMember } from './queries.ts';

/** How long the claims returned by a ping stay valid. */
export const VISITOR_CLAIMS_LIFETIME_SECONDS = 60 * 60;

/** The claims a ping signs: who the caller is in the organization. */
export interface VisitorClaims {
  sub: string;
  email: string;
  name: string;
  organization: string;
  role: string | null;
  teams: string[];
}

/**
 * Records that the caller was active in the organization now (members.last_seen_at) and answers a JWT of
 * claims about them, signed HS256 with the organization's own key and valid one hour, issued by this
 * Quire instance (its public URL).
 */
export async function ping(ctx: Context, organizationId: string): Promise<string> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'organization.ping', actor);
    const now = tx.clock.now();
    await tx.db
      .updateTable('members')
      .set({ last_seen_at: nowIso(tx) })
      .where('organization_id', '=', organization.id)
      .where('user_id', '=', actor.userId)
      .execute();
    const member = await requireMember(tx, organization.id, actor.userId);
    const teams = await tx.db
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .select('teams.id')
      .where('team_members.user_id', '=', actor.userId)
      .where('teams.organization_id', '=', organization.id)
      .orderBy('teams.id')
      .execute();
    const claims: VisitorClaims = {
      sub: actor.userId,
      email: member.user.email,
      name: member.user.display_name,
      organization: organization.id,
      role: member.role,
      teams: teams.map((team) => team.id),
    };
    const issuedAt = Math.floor(now.getTime() / 1000);
    return new SignJWT({ ...claims })
      .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
      .setIssuer(tx.config.publicUrl)
      .setIssuedAt(issuedAt)
      .setExpirationTime(issuedAt + VISITOR_CLAIMS_LIFETIME_SECONDS)
      .sign(tx.secrets.decrypt(organization.signing_key));
  });
}
