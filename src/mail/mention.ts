import type { Mail } from './mailer.ts';

/** The mail that tells a person a comment mentioned them: who, where, the words, and the link to the thread. */
export function mentionMail(to: string, input: { author: string; where: string; excerpt: string; link: string }): Mail {
  return {
    to,
    subject: `${input.author} mentioned you in ${input.where}`,
    text: [`${input.author} mentioned you in ${input.where}:`, '', ...input.excerpt.split('\n').map((line) => `> ${line}`), '', `Open the conversation: ${input.link}`].join('\n'),
  };
}
