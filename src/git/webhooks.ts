import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Push events from Git hosts: GitHub signs the raw body with HMAC-SHA256 of the webhook secret
 * (`X-Hub-Signature-256: sha256=<hex>`); GitLab sends the secret itself (`X-Gitlab-Token`). Both are
 * compared in constant time (`timingSafeEqual` over values of equal length), so the answer's timing does
 * not tell how much of a guess was right.
 */

export type Provider = 'github' | 'gitlab';

/** Whether `header` is GitHub's signature of `raw` with `secret`. */
export function verifyGitHub(secret: string, raw: Buffer, header: string): boolean {
  const match = /^sha256=([0-9a-f]{64})$/i.exec(header.trim());
  if (!match) return false;
  const expected = createHmac('sha256', secret).update(raw).digest();
  return timingSafeEqual(expected, Buffer.from(match[1], 'hex'));
}

/** Whether GitLab's token is the secret (both hashed first, so they have one length whatever was sent). */
export function verifyGitLab(secret: string, header: string): boolean {
  const digest = (text: string) => createHash('sha256').update(text, 'utf8').digest();
  return timingSafeEqual(digest(secret), digest(header));
}

/** What Quire reads from a push event. */
export interface PushEvent {
  ref: string;
  /** The commit the branch points at after the push; all zeros when the branch was deleted. */
  after: string;
  /** The committer of the pushed tip, when the host says (GitHub's `head_commit.committer`). */
  committer?: { name?: string; email?: string };
}

/** The push of an event body, or null when it is not one. */
export function readPush(body: unknown): PushEvent | null {
  if (!body || typeof body !== 'object') return null;
  const { ref, after, head_commit: head } = body as { ref?: unknown; after?: unknown; head_commit?: { committer?: { name?: unknown; email?: unknown } } | null };
  if (typeof ref !== 'string' || typeof after !== 'string') return null;
  const event: PushEvent = { ref, after };
  const committer = head?.committer;
  if (committer && typeof committer === 'object') event.committer = { name: typeof committer.name === 'string' ? committer.name : undefined, email: typeof committer.email === 'string' ? committer.email : undefined };
  return event;
}

export function isDeletion(after: string): boolean {
  return /^0+$/.test(after);
}
