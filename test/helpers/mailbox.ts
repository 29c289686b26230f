import { SMTPServer } from 'smtp-server';
import { freePort } from './ports.ts';

/** A local SMTP server that keeps every mail it is handed, decoded from quoted-printable. */
export interface Mailbox {
  /** `smtp://127.0.0.1:<port>`, for QUIRE_SMTP_URL. */
  url: string;
  /** The mails received so far, in order. */
  mails: string[];
  close(): Promise<void>;
}

function decodeQuotedPrintable(text: string): string {
  return text.replace(/=\r?\n/g, '').replace(/=([0-9A-F]{2})/g, (_m, hex: string) => String.fromCharCode(parseInt(hex, 16)));
}

/** Starts a mailbox on a free loopback port (smtp-server, no TLS, no authentication). */
export async function startMailbox(): Promise<Mailbox> {
  const mails: string[] = [];
  const port = await freePort();
  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      let data = '';
      stream.on('data', (chunk: Buffer) => (data += chunk.toString('utf8')));
      stream.on('end', () => {
        mails.push(decodeQuotedPrintable(data));
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  return { url: `smtp://127.0.0.1:${port}`, mails, close: () => new Promise<void>((resolve) => smtp.close(() => resolve())) };
}
