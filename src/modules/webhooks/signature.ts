import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * How a delivery is signed, and how a receiver checks it. The header carries the time of sending and
 * the signature together: `X-Quire-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`,
 * keyed with the webhook's secret. A receiver recomputes the HMAC over the raw body, compares in constant
 * time, and refuses a timestamp older than a few minutes, so a captured delivery cannot be replayed.
 */
export const SIGNATURE_HEADER = 'x-quire-signature';
export const EVENT_HEADER = 'x-quire-event';
export const DELIVERY_HEADER = 'x-quire-delivery';
/** How old a signed timestamp `verifySignature` accepts by default, in seconds. */
export const DEFAULT_TOLERANCE_SECONDS = 300;

function hmac(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/** The header value for `body` sent at `timestamp` (unix seconds). */
export function signatureHeader(secret: string, timestamp: number, body: string | Buffer): string {
  return `t=${timestamp},v1=${hmac(secret, timestamp, body)}`;
}

/**
 * True when `header` signs `body` with `secret` and its timestamp is within `toleranceSeconds` of `now`
 * (unix seconds). What a receiver does; Quire's tests receive with it.
 */
export function verifySignature(secret: string, header: string | undefined, body: string | Buffer, now: number, toleranceSeconds = DEFAULT_TOLERANCE_SECONDS): boolean {
  if (!header) return false;
  const parts = new Map(header.split(',').map((part) => part.trim().split('=', 2) as [string, string]));
  const timestamp = Number(parts.get('t'));
  const given = parts.get('v1');
  if (!Number.isInteger(timestamp) || !given || Math.abs(now - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmac(secret, timestamp, body));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
