import type { Static } from 'typebox';
import type { ResolvedSession, SessionRow } from '../../sessions/store.ts';
import { sessionEnds } from '../../sessions/store.ts';
import type { CurrentSession, SessionSchema } from './schemas.ts';

/** GET /auth/session: who is signed in, the CSRF token to echo, and when the session ends if unused. */
export function presentCurrentSession({ session, user }: ResolvedSession): CurrentSession {
  return {
    user: { id: user.id, displayName: user.display_name, email: user.email, ...(user.photo_url ? { photoURL: user.photo_url } : {}) },
    csrfToken: session.csrf_token,
    expiresAt: sessionEnds(session),
  };
}

/** One of the caller's sessions (never its secret, never its CSRF token). */
export function presentSession(row: SessionRow, currentId: string | undefined): Static<typeof SessionSchema> {
  return {
    object: 'session',
    id: row.id,
    method: row.method,
    ...(row.device ? { device: row.device } : {}),
    ...(row.ip ? { ip: row.ip } : {}),
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiresAt: sessionEnds(row),
    current: row.id === currentId,
  };
}
