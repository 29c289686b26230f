import type { Transporter } from 'nodemailer';
import type { Config } from '../config.ts';

/** One mail Quire sends: plain text always, so every client shows it; the links in it are the whole point. */
export interface Mail {
  to: string;
  subject: string;
  text: string;
}

/**
 * The one channel for mail (magic links, invites, password resets). Without QUIRE_SMTP_URL it is off:
 * `enabled` is false and `send` refuses, so a caller decides what a person sees instead (an admin is shown
 * an invite's link once; magic links are not offered). Nothing sent is logged: the links sign people in.
 */
export interface Mailer {
  readonly enabled: boolean;
  send(mail: Mail): Promise<void>;
  close(): void;
}

export class MailUnavailable extends Error {
  constructor() {
    super('Mail is not configured on this server (QUIRE_SMTP_URL is not set).');
  }
}

export function createMailer(config: Pick<Config, 'smtpUrl' | 'mailFrom'>): Mailer {
  if (!config.smtpUrl) {
    return {
      enabled: false,
      send: async () => {
        throw new MailUnavailable();
      },
      close: () => {},
    };
  }
  // nodemailer's own logger stays off (its default): at debug level it would print the messages, links included.
  // The library is loaded with the first mail, not at start: most processes (the command line, tests) send none.
  let transport: Promise<Transporter> | null = null;
  const open = (): Promise<Transporter> =>
    (transport ??= import('nodemailer').then(({ default: nodemailer }) => nodemailer.createTransport(config.smtpUrl!)));
  return {
    enabled: true,
    send: async (mail) => {
      await (await open()).sendMail({ from: config.mailFrom, to: mail.to, subject: mail.subject, text: mail.text });
    },
    close: () => {
      void transport?.then((opened) => opened.close());
    },
  };
}
