/**
 * The spaces a person opened lately, kept in this browser (localStorage, per person): decision 0105 says why
 * here and not on the server. Only ids are kept; the home screen shows those the person may still read (the
 * ones the organization's space list gives), so a space they lost access to, or one deleted, drops out.
 */

/** How many opened spaces are remembered. */
const KEEP = 12;

interface Opened {
  id: string;
  organization: string;
  at: number;
}

const keyOf = (userId: string) => `quire:recent-spaces:${userId}`;

function read(userId: string): Opened[] {
  try {
    const parsed: unknown = JSON.parse(localStorage.getItem(keyOf(userId)) ?? '[]');
    if (!Array.isArray(parsed)) return [];
    return parsed.filter((entry): entry is Opened => typeof entry?.id === 'string' && typeof entry?.organization === 'string' && typeof entry?.at === 'number');
  } catch (error) {
    // Storage refused (private mode, a full quota) or a value from elsewhere: there is simply no history.
    if (error instanceof SyntaxError || error instanceof DOMException) return [];
    throw error;
  }
}

/** Notes that the person opened a space now (the most recent first, each space once). */
export function rememberSpace(userId: string, space: { id: string; organization: string }): void {
  const list = [{ id: space.id, organization: space.organization, at: Date.now() }, ...read(userId).filter((entry) => entry.id !== space.id)].slice(0, KEEP);
  try {
    localStorage.setItem(keyOf(userId), JSON.stringify(list));
  } catch (error) {
    // A browser that keeps nothing (storage disabled or full) has no history of opened spaces; nothing is lost.
    if (!(error instanceof DOMException)) throw error;
  }
}

/** The ids of the spaces of an organization the person opened lately, the most recent first. */
export function recentSpaceIds(userId: string, organizationId: string): string[] {
  return read(userId)
    .filter((entry) => entry.organization === organizationId)
    .map((entry) => entry.id);
}
