import { userLevelOnSpace } from '../../access/spaces.ts';
import type { JobRun } from '../../jobs/types.ts';
import { createMailer } from '../../mail/mailer.ts';
import { mentionMail } from '../../mail/mention.ts';
import type { MentionMailPayload } from './mention-mail-job.ts';

/** The longest excerpt of the comment a mail quotes. */
const EXCERPT = 500;

/**
 * Sends each mentioned person a mail with the words and a link to the thread in the workspace. What the
 * payload names is read again: a comment deleted since sends nothing, a person who lost access to the
 * space is left out. A run that fails part way is run again whole (a person may get a mail twice, never none).
 */
export const runMentionMail: JobRun<MentionMailPayload> = async (ctx, payload) => {
  if (!ctx.config.smtpUrl) return;
  const comment = await ctx.db.selectFrom('comments').selectAll().where('id', '=', payload.commentId).executeTakeFirst();
  if (!comment) return;
  const reply = payload.replyId ? await ctx.db.selectFrom('comment_replies').selectAll().where('id', '=', payload.replyId).executeTakeFirst() : undefined;
  if (payload.replyId && !reply) return;
  const space = await ctx.db.selectFrom('spaces').selectAll().where('id', '=', comment.space_id).executeTakeFirst();
  if (!space) return;
  const changeRequest = comment.change_request_id ? await ctx.db.selectFrom('change_requests').select(['number', 'subject']).where('id', '=', comment.change_request_id).executeTakeFirst() : undefined;
  const authorId = reply?.author_id ?? comment.author_id;
  const author = authorId ? await ctx.db.selectFrom('users').select('display_name').where('id', '=', authorId).executeTakeFirst() : undefined;
  const page = (JSON.parse(comment.target ?? '{}') as { page?: string }).page;
  const base = `${ctx.config.publicUrl}/o/${space.organization_id}/s/${space.id}`;
  const link = comment.change_request_id ? `${base}/cr/${comment.change_request_id}${page ? `/p/${page}` : '/review'}` : `${base}${page ? `/p/${page}` : ''}`;
  const where = changeRequest ? `change request #${changeRequest.number}${changeRequest.subject ? ` "${changeRequest.subject}"` : ''} of ${space.title}` : space.title;
  const words = (reply?.body ?? comment.body).replace(/\[([^\]]*)\]\(users\/[^)\s]+ "mention"\)/g, '@$1');
  const excerpt = words.length > EXCERPT ? `${words.slice(0, EXCERPT)}…` : words;
  const mailer = createMailer(ctx.config);
  try {
    for (const userId of payload.userIds) {
      if ((await userLevelOnSpace(ctx, space, userId)) === null) continue;
      const user = await ctx.db.selectFrom('users').select('email').where('id', '=', userId).executeTakeFirst();
      if (!user) continue;
      await mailer.send(mentionMail(user.email, { author: author?.display_name || 'Someone', where, excerpt, link }));
    }
  } finally {
    mailer.close();
  }
};
