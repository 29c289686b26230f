/** A remote address with a user name and password (or access token) put in it, as Git over HTTPS takes them. */
export function withCredentials(address: string, user: string, secret: string): string {
  if (!secret) return address;
  try {
    const parsed = new URL(address);
    parsed.username = encodeURIComponent(user || 'git');
    parsed.password = encodeURIComponent(secret);
    return parsed.toString();
  } catch {
    return address;
  }
}

/** A branch as Git Sync takes it: `main` becomes `refs/heads/main`; a full ref is kept. */
export function branchRef(branch: string): string {
  const trimmed = branch.trim();
  return trimmed.startsWith('refs/') ? trimmed : `refs/heads/${trimmed}`;
}
