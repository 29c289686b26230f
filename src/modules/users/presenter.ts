import type { Context } from '../../context.ts';
import type { ApiToken, User } from './schemas.ts';
import { tokenStatus, type TokenRow } from './tokens.ts';
import type { UserRow } from '../../db/rows.ts';


/** A user as the caller may see them: `email` is null when the caller may not see the address. */
export type VisibleUserRow = Omit<UserRow, 'email'> & { email: string | null };

export function presentUser(ctx: Pick<Context, 'config'>, row: VisibleUserRow): User {
  const user: User = {
    object: 'user',
    id: row.id,
    displayName: row.display_name,
    urls: { location: `${ctx.config.publicUrl}/v1/users/${row.id}` },
  };
  if (row.email !== null) user.email = row.email;
  if (row.photo_url) user.photoURL = row.photo_url;
  return user;
}

/** An API token without its secret. */
export function presentApiToken(ctx: Pick<Context, 'clock'>, row: TokenRow): ApiToken {
  const token: ApiToken = { object: 'api-token', id: row.id, status: tokenStatus(ctx, row), createdAt: row.created_at };
  if (row.name) token.name = row.name;
  if (row.expires_at) token.expiresAt = row.expires_at;
  if (row.last_used_at) token.lastUsedAt = row.last_used_at;
  if (row.revoked_at) token.revokedAt = row.revoked_at;
  return token;
}
