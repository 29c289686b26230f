import { defineJob } from '../../jobs/types.ts';

export interface MentionMailPayload {
  commentId: string;
  replyId: string | null;
  userIds: string[];
}

/** The mails of a mention (src/modules/comments/mentions.ts, sent by mention-mail.ts): enqueued with the post, tried again while the mail server refuses. */
export const mentionMailJob = defineJob<MentionMailPayload>({ kind: 'comment-mention-mail', maxAttempts: 5 });
