import type { Context } from '../../context.ts';
import type { UsersTable } from '../../db/types.ts';
import type { User } from './schemas.ts';

export type UserRow = Pick<UsersTable, 'id' | 'email' | 'display_name' | 'photo_url'>;

export function presentUser(ctx: Pick<Context, 'config'>, row: UserRow): User {
  const user: User = {
    object: 'user',
    id: row.id,
    displayName: row.display_name,
    email: row.email,
    urls: { location: `${ctx.config.publicUrl}/v1/users/${row.id}` },
  };
  if (row.photo_url) user.photoURL = row.photo_url;
  return user;
}
