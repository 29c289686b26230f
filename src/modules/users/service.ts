import type { ExpressionBuilder } from 'kysely';
import type { Context } from '../../context.ts';
import type { DB } from '../../db/types.ts';
import { inTransaction, nowIso, requireActor } from '../../context.ts';
import { BadRequest, NotFound, nonBlank } from '../../errors.ts';
import { authorize } from '../../policy/index.ts';
import type { UpdateUserBody } from './schemas.ts';
import type { UserRow } from '../../db/rows.ts';
import type { VisibleUserRow } from './presenter.ts';

export { issueApiToken } from './tokens.ts';
// In their own module so the command line checks an address without loading the services.
export { isEmail, normalizeEmail } from './email.ts';
import { normalizeEmail } from './email.ts';

const USER_COLUMNS = ['users.id', 'users.email', 'users.display_name', 'users.photo_url'] as const;

/** The name shown for a user created from an address alone: the part before the @. */
function nameFromEmail(email: string): string {
  return email.split('@')[0];
}

export async function getAuthenticatedUser(ctx: Context): Promise<UserRow> {
  const actor = requireActor(ctx);
  const row = await ctx.db.selectFrom('users').select(USER_COLUMNS).where('users.id', '=', actor.userId).executeTakeFirst();
  if (!row) throw new NotFound('Your user no longer exists.');
  return row;
}

/**
 * A user is visible to themselves and to anyone who shares an organization with them; to anyone else it
 * does not exist. Their e-mail address is shown to themselves and to those who share an organization with
 * them as a member with a role; a guest (who cannot list the members either) sees the name, not the address.
 */
export async function getVisibleUser(ctx: Context, userId: string): Promise<VisibleUserRow> {
  const actor = requireActor(ctx);
  const shared = (eb: ExpressionBuilder<DB, 'users'>, asMember: boolean) => {
    let query = eb
      .selectFrom('members as theirs')
      .innerJoin('members as mine', 'mine.organization_id', 'theirs.organization_id')
      .select('theirs.user_id')
      .whereRef('theirs.user_id', '=', 'users.id')
      .where('mine.user_id', '=', actor.userId);
    if (asMember) query = query.where('mine.role', 'is not', null);
    return eb.exists(query);
  };
  const row = await ctx.db
    .selectFrom('users')
    .select(USER_COLUMNS)
    .select((eb) => eb.or([eb('users.id', '=', actor.userId), shared(eb, true)]).as('email_visible'))
    .where('users.id', '=', userId)
    .where((eb) => eb.or([eb('users.id', '=', actor.userId), shared(eb, false)]))
    .executeTakeFirst();
  if (!row) throw new NotFound(`No user "${userId}" is visible to you.`);
  const { email_visible: emailVisible, ...user } = row;
  // SQLite answers 1 or 0, PostgreSQL true or false.
  return emailVisible === true || Number(emailVisible) === 1 ? user : { ...user, email: null };
}

/** The user with this address, created (named after the address) when there is none. */
export async function findOrCreateUser(ctx: Context, email: string, displayName?: string): Promise<UserRow & { created: boolean }> {
  const address = normalizeEmail(email);
  const existing = await ctx.db.selectFrom('users').select(USER_COLUMNS).where('users.email', '=', address).executeTakeFirst();
  if (existing) return { ...existing, created: false };
  const row = { id: ctx.ids.next(), email: address, display_name: displayName?.trim() || nameFromEmail(address), photo_url: null };
  await ctx.db.insertInto('users').values({ ...row, created_at: nowIso(ctx) }).execute();
  return { ...row, created: true };
}

/**
 * Changes a user's profile (display name, photo address): only their own. Another user the caller can see
 * is refused with 403; one they cannot see answers 404, as for reads.
 */
export async function updateUser(ctx: Context, userId: string, patch: UpdateUserBody): Promise<VisibleUserRow> {
  return inTransaction(ctx, async (tx) => {
    const user = await getVisibleUser(tx, userId);
    authorize(tx, 'user.update', requireActor(tx).userId, user.id);
    const changes: { display_name?: string; photo_url?: string } = {};
    if (patch.displayName !== undefined) {
      changes.display_name = nonBlank(patch.displayName, 'displayName', 'give the name others will see.');
    }
    if (patch.photoURL !== undefined) changes.photo_url = patch.photoURL;
    if (Object.keys(changes).length === 0) throw new BadRequest('The body needs "displayName" or "photoURL": the profile fields to change.');
    await tx.db.updateTable('users').set(changes).where('id', '=', user.id).execute();
    return getVisibleUser(tx, user.id);
  });
}
