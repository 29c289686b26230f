import { X509Certificate } from 'node:crypto';
import { BadRequest } from '../../errors.ts';

const BEGIN = '-----BEGIN CERTIFICATE-----';
const END = '-----END CERTIFICATE-----';

/**
 * Checks that `text` is one X.509 certificate in PEM form and returns it in canonical PEM (LF line ends,
 * 64-character lines). Refuses private keys outright, so that a key pasted by mistake is never stored.
 */
export function canonicalCertificate(text: string): string {
  const trimmed = text.trim();
  if (/PRIVATE KEY-----/.test(trimmed)) {
    throw new BadRequest(
      'The body member "certificate" holds a private key. Paste the identity provider\'s public signing certificate instead (the block starting with "-----BEGIN CERTIFICATE-----"), and replace that key, since it has been shared.',
    );
  }
  const blocks = trimmed.split(BEGIN).length - 1;
  if (!trimmed.startsWith(BEGIN) || !trimmed.endsWith(END) || blocks !== 1) {
    throw new BadRequest(
      `The body member "certificate" must be one X.509 certificate in PEM form: the text from "${BEGIN}" to "${END}", both lines included, and nothing else.`,
    );
  }
  try {
    return new X509Certificate(trimmed).toString().trim();
  } catch {
    throw new BadRequest(
      'The body member "certificate" is not a readable X.509 certificate: its content between the BEGIN and END lines is damaged or incomplete. Copy it again from the identity provider.',
    );
  }
}
