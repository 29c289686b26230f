import type { Context } from '../../context.ts';
import { parseMarkdown } from '../../content/markdown/parse.ts';
import { userLevelOnSpace } from '../../access/spaces.ts';
import type { CommentScope } from '../../access/comments.ts';
import { enqueue } from '../../jobs/queue.ts';
import { mentionMailJob } from './mention-mail-job.ts';

/**
 * Mentions of people in comments and replies. A mention is GitBook's: `[Name](users/<id> "mention")` in
 * Markdown, an inline `mention` whose ref is `{ kind: "user" }` in a document. When a comment or reply is
 * posted, the people it mentions who may read the space (members with a level on it; never the author)
 * are told: the organization's webhooks get `comment.mentioned` always, and each person gets a mail when
 * the server sends mail (QUIRE_SMTP_URL), through a job enqueued in the same transaction, so a post and
 * its notices commit together and a mail server that is down is tried again.
 */

/** Most people one comment can notify: a longer list is a broadcast, not a mention. */
export const MAX_MENTIONS = 50;

/** The ids of the people a Markdown body mentions, in order, each once. */
export function mentionedUserIds(markdown: string): string[] {
  const found = new Set<string>();
  const walk = (nodes: unknown[]) => {
    for (const node of nodes) {
      if (!node || typeof node !== 'object') continue;
      const { type, data, nodes: children } = node as { type?: string; data?: { ref?: { kind?: string; user?: string } }; nodes?: unknown[] };
      if (type === 'mention' && data?.ref?.kind === 'user' && data.ref.user) found.add(data.ref.user);
      if (Array.isArray(children)) walk(children);
      const fragments = (node as { fragments?: unknown[] }).fragments;
      if (Array.isArray(fragments)) walk(fragments);
    }
  };
  walk(parseMarkdown(markdown).document.nodes);
  return [...found].slice(0, MAX_MENTIONS);
}

/** Tells the people `markdown` mentions (in the transaction of the post). Returns who was told. */
export async function notifyMentions(tx: Context, scope: CommentScope, post: { commentId: string; replyId: string | null; authorId: string; markdown: string }): Promise<string[]> {
  const told: string[] = [];
  for (const userId of mentionedUserIds(post.markdown)) {
    if (userId === post.authorId) continue;
    if ((await userLevelOnSpace(tx, scope.space, userId)) === null) continue;
    told.push(userId);
  }
  if (told.length === 0) return told;
  await tx.events.emit(tx, 'comment.mentioned', {
    organizationId: scope.space.organization_id,
    actorId: post.authorId,
    spaceId: scope.space.id,
    changeRequestId: scope.changeRequest?.id ?? null,
    commentId: post.commentId,
    replyId: post.replyId,
    mentionedUserIds: told,
  });
  if (tx.config.smtpUrl) await enqueue(tx, mentionMailJob, { commentId: post.commentId, replyId: post.replyId, userIds: told });
  return told;
}
