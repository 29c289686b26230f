import type { Context } from '../../context.ts';
import { nowIso, requireActor } from '../../context.ts';
import { BadRequest } from '../../errors.ts';
import { listUserSessions, type SessionRow } from '../../sessions/store.ts';
import { allUserTokens, type TokenRow } from '../users/tokens.ts';
import { myPendingInvitations, type PendingInvitation } from '../invites/pending.ts';

export interface AccountView {
  user: { id: string; email: string; displayName: string; photoURL: string | null };
  hasPassword: boolean;
  sessions: SessionRow[];
  tokens: TokenRow[];
  organizations: Array<{ id: string; title: string; role: string | null }>;
  /** Invitations waiting for this person's answer. */
  invitations: PendingInvitation[];
  passkeys: Array<{ id: string; name: string; createdAt: string; lastUsedAt: string | null }>;
  recoveryCodesLeft: number;
}

/** Everything the account page shows of the signed-in person (never a secret). */
export async function loadAccount(ctx: Context): Promise<AccountView> {
  const userId = requireActor(ctx).userId;
  const user = await ctx.db.selectFrom('users').select(['id', 'email', 'display_name', 'photo_url']).where('id', '=', userId).executeTakeFirstOrThrow();
  const password = await ctx.db.selectFrom('user_passwords').select('user_id').where('user_id', '=', userId).executeTakeFirst();
  const organizations = await ctx.db
    .selectFrom('members')
    .innerJoin('organizations', 'organizations.id', 'members.organization_id')
    .select(['organizations.id', 'organizations.title', 'members.role'])
    .where('members.user_id', '=', userId)
    .orderBy('organizations.title')
    .execute();
  const passkeys = await ctx.db.selectFrom('passkeys').select(['id', 'name', 'created_at', 'last_used_at']).where('user_id', '=', userId).orderBy('created_at').execute();
  const codes = await ctx.db.selectFrom('recovery_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('user_id', '=', userId).where('used_at', 'is', null).executeTakeFirstOrThrow();
  const now = nowIso(ctx);
  return {
    user: { id: user.id, email: user.email, displayName: user.display_name, photoURL: user.photo_url },
    hasPassword: password !== undefined,
    sessions: await listUserSessions(ctx, userId),
    tokens: (await allUserTokens(ctx, userId)).filter((token) => token.revoked_at === null && (token.expires_at === null || token.expires_at > now)),
    organizations,
    invitations: await myPendingInvitations(ctx),
    passkeys: passkeys.map((row) => ({ id: row.id, name: row.name, createdAt: row.created_at, lastUsedAt: row.last_used_at })),
    recoveryCodesLeft: Number(codes.n),
  };
}

/** A photo address from the profile form: blank keeps the current one; otherwise an absolute http(s) URL. */
export function photoAddress(raw: string | undefined): string | undefined {
  const value = (raw ?? '').trim();
  if (value === '') return undefined;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new BadRequest('The photo address must be a whole address such as https://example.com/me.png.');
  }
  if ((url.protocol !== 'https:' && url.protocol !== 'http:') || value.length > 2048) throw new BadRequest('The photo address must start with https:// (or http://) and have at most 2048 characters.');
  return value;
}
