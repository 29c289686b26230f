import type { Context } from '../../context.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { BadRequest } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import type { MemberRoleOrGuest } from '../../policy/roles.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { findOrCreateUser, isEmail, normalizeEmail } from '../users/service.ts';
import type { InviteUsersBody } from './schemas.ts';
import { createPasswordLink } from '../../sessions/password-links.ts';
import { createPendingInvitations } from './pending.ts';

export interface InviteUsersResult {
  /** The users added, in the order of the request. */
  users: string[];
  invited: number;
  /** For each person this invitation created: the one-time link that sets their first password. */
  signInLinks?: Array<{ userId: string; email: string; url: string; expiresAt: string }>;
  /** People Quire knew already: invited, and members once they accept. */
  pendingInvitations?: Array<{ email: string; expiresAt: string }>;
  /** The organization's title, for the invite mail (not part of the answer). */
  organizationTitle?: string;
}

interface Invitation {
  email: string;
  role: MemberRoleOrGuest;
}

/**
 * Reads the entries of an invitation: every address must be valid (the first bad one is named, and
 * nothing is done); an address given twice counts once, with the role of its first entry.
 */
function invitations(body: InviteUsersBody, defaultRole: MemberRoleOrGuest): Invitation[] {
  const byEmail = new Map<string, Invitation>();
  body.emails.forEach((entry, index) => {
    const raw = typeof entry === 'string' ? entry : entry.email;
    const role = typeof entry === 'string' || entry.role === undefined ? defaultRole : entry.role;
    if (!isEmail(raw)) {
      const field = typeof entry === 'string' ? `emails.${index}` : `emails.${index}.email`;
      throw new BadRequest(`The body member "${field}" is ${JSON.stringify(raw)}, which is not an e-mail address such as ada@example.com. Nobody was invited.`);
    }
    const email = normalizeEmail(raw);
    if (!byEmail.has(email)) byEmail.set(email, { email, role });
  });
  return [...byEmail.values()];
}

/**
 * Adds people to an organization by e-mail address, creating the users Quire does not know yet. People who
 * are already members (or guests) keep their membership as it is and are not counted. Someone Quire knew
 * already (who may belong to other organizations) is not added: they get an invitation to accept
 * (pending.ts), listed in `pendingInvitations` and not counted. All or nothing.
 */
export async function inviteUsers(ctx: Context, organizationId: string, body: InviteUsersBody): Promise<InviteUsersResult> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'invites.manage', actor);
    const defaultRole = body.role !== undefined ? body.role : (organization.default_role as MemberRoleOrGuest);
    const wanted = invitations(body, defaultRole);
    const users: Array<{ id: string; role: MemberRoleOrGuest; created: boolean }> = [];
    for (const invitation of wanted) {
      const user = await findOrCreateUser(tx, invitation.email);
      users.push({ id: user.id, role: invitation.role, created: user.created });
    }
    const now = nowIso(tx);
    const members = await tx.db.selectFrom('members').select('user_id').where('organization_id', '=', organization.id).where('user_id', 'in', users.map((user) => user.id)).execute();
    const already = new Set(members.map((row) => row.user_id));
    const known = users.filter((user) => !user.created && !already.has(user.id));
    const pendingExpiry = known.length > 0 ? await createPendingInvitations(tx, organization.id, known.map((user) => ({ userId: user.id, role: user.role })), Boolean(body.sso), requireActor(tx).userId) : undefined;
    const newcomers = users.filter((user) => user.created);
    // Memberships that already exist are left alone, even when another request adds them at the same time.
    const inserted = newcomers.length === 0 ? [] : await tx.db
      .insertInto('members')
      .values(
        newcomers.map((user) => ({
          organization_id: organization.id,
          user_id: user.id,
          role: user.role,
          disabled: 0 as const,
          sso: body.sso ? (1 as const) : (0 as const),
          joined_at: now,
          last_seen_at: null,
        })),
      )
      .onConflict((conflict) => conflict.columns(['organization_id', 'user_id']).doNothing())
      .returning('user_id')
      .execute();
    const added = new Set(inserted.map((row) => row.user_id));
    const ids = users.filter((user) => added.has(user.id)).map((user) => user.id);
    // The link that sets a newcomer's first password is mailed where mail is configured (invites/mail.ts),
    // else shown to the administrator, this once, to pass on. Only its hash is kept. Only people this invitation created get
    // one: a person Quire knew already is not this administrator's to give a password to (they may belong
    // to other organizations); they sign in as before, or get a reset from the operator.
    const signInLinks: NonNullable<InviteUsersResult['signInLinks']> = [];
    for (const [index, invitation] of wanted.entries()) {
      const user = users[index];
      if (!user.created || !added.has(user.id)) continue;
      const link = await createPasswordLink(tx, user.id, 'invite', requireActor(tx).userId);
      signInLinks.push({ userId: user.id, email: invitation.email, ...link });
    }
    const pendingInvitations = known.map((user) => ({ email: wanted[users.indexOf(user)].email, expiresAt: pendingExpiry! }));
    return {
      users: ids,
      invited: ids.length,
      organizationTitle: organization.title,
      ...(signInLinks.length > 0 ? { signInLinks } : {}),
      ...(pendingInvitations.length > 0 ? { pendingInvitations } : {}),
    };
  });
}
