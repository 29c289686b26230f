import type { Mail } from './mailer.ts';

/**
 * The mails Quire sends, as plain text. Each carries a one-time link; the mail is the only place the link
 * exists in clear (Quire keeps its SHA-256 hash).
 */
export function magicLinkMail(to: string, link: string, minutes: number): Mail {
  return {
    to,
    subject: 'Your Quire sign-in link',
    text: [
      'Someone (we hope you) asked to sign in to Quire with this address.',
      '',
      `Open this link in the same browser where you asked for it, within ${minutes} minutes. It works once:`,
      '',
      link,
      '',
      'If you did not ask for it, ignore this mail: nobody can use the link without that browser.',
    ].join('\n'),
  };
}

export function inviteMail(to: string, organizationTitle: string, link: string, days: number): Mail {
  return {
    to,
    subject: `You are invited to ${organizationTitle} on Quire`,
    text: [`You have been invited to join ${organizationTitle} on Quire.`, '', `Accept within ${days} days with this link (it works once):`, '', link].join('\n'),
  };
}

export function passwordResetMail(to: string, link: string, minutes: number): Mail {
  return {
    to,
    subject: 'Reset your Quire password',
    text: [
      'Someone (we hope you) asked to reset the Quire password of this address.',
      '',
      `Open this link in the browser where you asked for it, within ${minutes} minutes. It works once:`,
      '',
      link,
      '',
      'If you did not ask for it, ignore this mail: your password stays as it is.',
    ].join('\n'),
  };
}

/** To someone Quire already knows, invited to another organization: no link that signs in, only where to answer. */
export function invitationMail(to: string, organizationTitle: string, accountUrl: string, days: number): Mail {
  return {
    to,
    subject: `You are invited to ${organizationTitle} on Quire`,
    text: [
      `You have been invited to join ${organizationTitle} on Quire.`,
      '',
      `You become a member only if you accept. Sign in and accept or decline on your account page within ${days} days:`,
      '',
      accountUrl,
      '',
      'If you do not want to join, decline it there or ignore this mail.',
    ].join('\n'),
  };
}
