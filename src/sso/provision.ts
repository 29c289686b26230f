import type { Context } from '../context.ts';
import { inTransaction, nowIso } from '../context.ts';
import { SignInRefused } from './refusal.ts';

/** Who a federated sign-in says the person is, once the identity provider's answer has been checked. */
export interface FederatedIdentity {
  organizationId: string;
  email: string;
  displayName?: string;
  /** Whether the provider itself decides who joins (SAML: the organization's own IdP), or the organization's e-mail domains do (OIDC). */
  joins: 'provider' | 'email-domain';
  /** The role of someone who joins (null: guest). */
  defaultRole: string | null;
  defaultTeamId: string | null;
}

const ADDRESS = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * The user this identity signs in as. An account that belongs to another organization too is refused (see
 * below). A member signs in as they are (their role unchanged); a disabled member is refused. Someone who is not a member joins on a first sign-in when the provider decides who
 * joins, or when their address is in one of the organization's e-mail domains, with the provider's default
 * role and default team; anyone else is refused with what to ask for.
 */
export async function provisionFederatedUser(ctx: Context, identity: FederatedIdentity): Promise<string> {
  const email = identity.email.trim().toLowerCase();
  if (!ADDRESS.test(email) || email.length > 254) {
    throw new SignInRefused('The identity provider did not give an e-mail address for you, which Quire needs to know who you are. Ask your administrator to release the e-mail claim or attribute to Quire.', 'no-email');
  }
  return inTransaction(ctx, async (tx) => {
    const organization = await tx.db.selectFrom('organizations').select(['id', 'email_domains']).where('id', '=', identity.organizationId).executeTakeFirst();
    if (!organization) throw new SignInRefused('This sign-in belongs to an organization that no longer exists.', 'no-organization', 404);
    let user = await tx.db.selectFrom('users').select(['id']).where('email', '=', email).executeTakeFirst();
    if (user) {
      // An organization's administrators choose its identity provider, which can assert any address. A
      // session is the user's everywhere, so that provider may only sign in an account that is in no other
      // organization: otherwise one organization's admins could become a member of another organization.
      const elsewhere = await tx.db.selectFrom('members').select('organization_id').where('user_id', '=', user.id).where('organization_id', '!=', organization.id).executeTakeFirst();
      if (elsewhere) {
        throw new SignInRefused(
          'This address has a Quire account that also belongs to other organizations, so the single sign-on of one organization cannot sign it in. Sign in with your password, a passkey or an e-mail link instead.',
          'member-elsewhere',
          403,
        );
      }
    }
    const member = user
      ? await tx.db.selectFrom('members').select(['disabled']).where('organization_id', '=', organization.id).where('user_id', '=', user.id).executeTakeFirst()
      : undefined;
    if (member) {
      if (member.disabled) throw new SignInRefused('Your membership of this organization is disabled. Ask one of its administrators to enable it.', 'member-disabled', 403);
      return user!.id;
    }
    if (identity.joins === 'email-domain') {
      const domains = JSON.parse(organization.email_domains) as string[];
      const domain = email.slice(email.lastIndexOf('@') + 1);
      if (!domains.includes(domain)) {
        throw new SignInRefused(
          `You are not a member of this organization, and it does not let people of ${domain} join by themselves. Ask one of its administrators to invite ${email}.`,
          'domain-not-allowed',
          403,
        );
      }
    }
    const now = nowIso(tx);
    if (!user) {
      user = { id: tx.ids.next() };
      await tx.db.insertInto('users').values({ id: user.id, email, display_name: identity.displayName?.trim().slice(0, 100) || email.split('@')[0], photo_url: null, created_at: now }).execute();
    }
    await tx.db.insertInto('members').values({ organization_id: organization.id, user_id: user.id, role: identity.defaultRole, disabled: 0, sso: 1, joined_at: now, last_seen_at: null }).execute();
    if (identity.defaultTeamId) {
      const team = await tx.db.selectFrom('teams').select('id').where('id', '=', identity.defaultTeamId).where('organization_id', '=', organization.id).executeTakeFirst();
      if (team) {
        await tx.db.insertInto('team_members').values({ team_id: team.id, user_id: user.id, role: 'member', added_at: now }).onConflict((oc) => oc.columns(['team_id', 'user_id']).doNothing()).execute();
      }
    }
    return user.id;
  });
}
