/**
 * Whether a request carries a session cookie (either name the sessions use: `quire_session`, or
 * `__Host-quire_session` behind https). Only its presence is looked at: the shell holds nothing private,
 * and the application asks `GET /auth/session` and goes to the sign-in page itself when the session has ended.
 */
export function hasSessionCookie(header: string | undefined): boolean {
  if (!header) return false;
  return header.split(';').some((part) => {
    const name = part.slice(0, part.indexOf('=')).trim();
    return (name === 'quire_session' || name === '__Host-quire_session') && part.slice(part.indexOf('=') + 1).trim() !== '';
  });
}

/** `/sign-in?returnTo=<the path asked for>`; only same-origin paths go into returnTo. */
export function signInAddress(url: string): string {
  const path = url.startsWith('/') && !url.startsWith('//') ? url : '/';
  return `/sign-in?returnTo=${encodeURIComponent(path)}`;
}
