import { createCipheriv, createDecipheriv, createHash, createHmac, hash, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Secrets at rest. API tokens are high-entropy random strings, so a plain SHA-256 is a sound one-way hash
 * for them (no salt or slow hash is needed: nobody can guess a 256-bit token). Secrets that Quire must read
 * back (signing keys) are encrypted with AES-256-GCM under the instance's master key.
 */
export const TOKEN_PREFIX = 'qrt_';

export function newApiToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

export function hashToken(token: string): string {
  return hash('sha256', token, 'hex');
}

export class SecretBox {
  private readonly key: Buffer;
  constructor(masterKey: Buffer) {
    if (masterKey.length < 32) throw new Error('The master key must be at least 32 bytes.');
    this.key = createHash('sha256').update(masterKey).update('quire:secret-box').digest();
  }

  encrypt(plain: Buffer | string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv('aes-256-gcm', this.key, iv);
    const data = Buffer.concat([cipher.update(plain), cipher.final()]);
    return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), data.toString('base64url')].join('.');
  }

  decrypt(sealed: string): Buffer {
    const [version, iv, tag, data] = sealed.split('.');
    if (version !== 'v1' || !iv || !tag || data === undefined) throw new Error('Unreadable sealed secret.');
    const decipher = createDecipheriv('aes-256-gcm', this.key, Buffer.from(iv, 'base64url'));
    decipher.setAuthTag(Buffer.from(tag, 'base64url'));
    return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]);
  }
}

/** Signs and checks short strings (list cursors, signed URLs) with a key derived from the master key. */
export class Signer {
  private readonly key: Buffer;
  constructor(masterKey: Buffer, purpose: string) {
    this.key = createHash('sha256').update(masterKey).update(`quire:signer:${purpose}`).digest();
  }

  sign(value: string): string {
    return createHmac('sha256', this.key).update(value).digest('base64url');
  }

  verify(value: string, signature: string): boolean {
    const expected = Buffer.from(this.sign(value));
    const given = Buffer.from(signature);
    return expected.length === given.length && timingSafeEqual(expected, given);
  }
}
