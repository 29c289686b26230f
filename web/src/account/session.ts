import { createContext } from 'preact';
import { useContext } from 'preact/hooks';
import { ApiError, useCsrfToken } from '../api/client.ts';
import { api } from '../api/operations.ts';
import type { Session } from '../api/types.ts';

/** The signed-in person, known before any screen shows (GET /auth/session). */
export const SessionContext = createContext<Session | null>(null);

export function useSession(): Session {
  const session = useContext(SessionContext);
  if (!session) throw new Error('The workspace renders screens only once the session is known.');
  return session;
}

/** The session, or null after sending the browser to the sign-in page (the session ended). */
export async function loadSession(): Promise<Session | null> {
  try {
    const session = await api.session();
    useCsrfToken(session.csrfToken);
    return session;
  } catch (error) {
    if (error instanceof ApiError && error.status === 401) {
      location.assign(`/sign-in?returnTo=${encodeURIComponent(location.pathname + location.search)}`);
      return null;
    }
    throw error;
  }
}
