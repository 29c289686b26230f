/**
 * Where a sign-in sends the person afterwards: a path on this server only. Anything else (another host,
 * a scheme, `//host`, a backslash some browsers read as a slash, control characters) becomes `/`, so a
 * sign-in link can never be turned into a redirect to someone else's site.
 */
export function safeReturnTo(value: unknown): string {
  if (typeof value !== 'string' || value.length === 0 || value.length > 2048) return '/';
  if (!value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return '/';
  if (/[\u0000-\u001f\u007f]/.test(value)) return '/';
  try {
    const url = new URL(value, 'http://quire.invalid');
    if (url.origin !== 'http://quire.invalid') return '/';
    return url.pathname + url.search + url.hash;
  } catch {
    return '/';
  }
}
