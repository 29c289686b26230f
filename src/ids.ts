import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random identifier of `length` characters from [0-9A-Za-z] (about 5.95 bits each). */
export function randomId(length = 20): string {
  // 248 is the largest multiple of 62 below 256: rejecting bytes above it keeps every character equally likely.
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Makes identifiers; injectable so tests can get stable output. */
export interface IdGenerator {
  next(): string;
}

export const randomIds: IdGenerator = { next: () => randomId() };
