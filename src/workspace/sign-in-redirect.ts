/** `/sign-in?returnTo=<the path asked for>`; only same-origin paths go into returnTo. */
export function signInAddress(url: string): string {
  const path = url.startsWith('/') && !url.startsWith('//') ? url : '/';
  return `/sign-in?returnTo=${encodeURIComponent(path)}`;
}
