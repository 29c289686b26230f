import { defineJob } from '../../jobs/types.ts';

/** One delivery of an event to one webhook (src/modules/webhooks/deliveries.ts). */
export interface DeliveryPayload {
  deliveryId: string;
}

const FIRST_WAIT_MS = 30_000;
const LONGEST_WAIT_MS = 4 * 60 * 60 * 1000;
/**
 * 15 attempts: waits of 30 s, 1, 2, 4 … 128 minutes, then 4 hours five times, so the last attempt comes
 * about 24 hours and 15 minutes after the first.
 */
export const DELIVERY_ATTEMPTS = 15;

export function deliveryBackoffMs(attempt: number): number {
  return Math.min(FIRST_WAIT_MS * 2 ** Math.max(0, attempt - 1), LONGEST_WAIT_MS);
}

export const deliverWebhookJob = defineJob<DeliveryPayload>({
  kind: 'webhook-delivery',
  maxAttempts: DELIVERY_ATTEMPTS,
  backoffMs: deliveryBackoffMs,
});
