import type { Context } from '../../context.ts';
import { nowIso } from '../../context.ts';
import type { DomainEventListener } from '../../event-bus.ts';
import type { OrganizationEvent, OrganizationEventMap, OrganizationEventName } from '../../events.ts';
import { enqueue } from '../../jobs/queue.ts';
import type { JobRun } from '../../jobs/types.ts';
import { deliverWebhookJob, deliveryBackoffMs, type DeliveryPayload } from './delivery-job.ts';
import { safeFetch, UnexpectedStatus } from '../../net/fetch.ts';
import { DELIVERY_HEADER, EVENT_HEADER, SIGNATURE_HEADER, signatureHeader } from './signature.ts';
import { WEBHOOK_PRIVATE_SETTING } from './service.ts';

/**
 * Deliveries: an organization event becomes, in the transaction that emitted it, one delivery row (the
 * delivery log) and one job per active webhook of that organization that wants the event. The job POSTs
 * the JSON body, signed (signature.ts), through the one outbound fetcher (address guard, pinned address,
 * bounded time and size), and retries with exponential backoff for a day.
 */

export const WEBHOOK_USER_AGENT = 'QuireWebhooks/1.0';
/** The most of a receiver's answer that is read (and dropped). */
const ANSWER_LIMIT = 64 * 1024;

/** The body of a delivery: the event, its id (the same for every webhook told of it), when, and its data. */
function deliveryBody(name: OrganizationEventName, eventId: string, createdAt: string, event: OrganizationEvent): string {
  const { organizationId, ...data } = event;
  return JSON.stringify({ id: eventId, event: name, createdAt, organizationId, data });
}

/** The listener of one event (registered for every event in src/services.ts). */
export function deliverWebhooks<K extends OrganizationEventName>(name: K): DomainEventListener<OrganizationEventMap[K]> {
  return async (tx: Context, event: OrganizationEventMap[K]) => {
    const webhooks = await tx.db
      .selectFrom('webhooks')
      .select(['id', 'events'])
      .where('organization_id', '=', event.organizationId)
      .where('active', '=', 1)
      .execute();
    const wanting = webhooks.filter((webhook) => (JSON.parse(webhook.events) as string[]).includes(name));
    if (wanting.length === 0) return;
    const now = nowIso(tx);
    const payload = deliveryBody(name, tx.ids.next(), now, event);
    for (const webhook of wanting) {
      const deliveryId = tx.ids.next();
      await tx.db
        .insertInto('webhook_deliveries')
        .values({ id: deliveryId, webhook_id: webhook.id, event: name, payload, status: 'pending', attempts: 0, response_status: null, last_error: null, next_attempt_at: now, created_at: now, updated_at: now })
        .execute();
      await enqueue(tx, deliverWebhookJob, { deliveryId });
    }
  };
}

function failureOf(error: unknown): { status: number | null; message: string } {
  const message = (error instanceof Error ? error.message : String(error)).slice(0, 1000);
  return { status: error instanceof UnexpectedStatus ? error.responseStatus : null, message };
}

/** The handler of `webhook-delivery`: sends one delivery, and records how it went on the delivery log. */
export const runDelivery: JobRun<DeliveryPayload> = async (ctx, { deliveryId }, job) => {
  const delivery = await ctx.db
    .selectFrom('webhook_deliveries')
    .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
    .select(['webhook_deliveries.id', 'webhook_deliveries.status', 'webhook_deliveries.event', 'webhook_deliveries.payload', 'webhooks.url', 'webhooks.secret', 'webhooks.active'])
    .where('webhook_deliveries.id', '=', deliveryId)
    .executeTakeFirst();
  // A deleted webhook took its deliveries with it; a delivery already settled is not sent again.
  if (!delivery || delivery.status !== 'pending') return;
  const settle = (changes: { status: string; response_status: number | null; last_error: string | null; next_attempt_at: string | null }) =>
    ctx.db.updateTable('webhook_deliveries').set({ ...changes, attempts: job.attempts, updated_at: nowIso(ctx) }).where('id', '=', delivery.id).execute();
  if (!delivery.active) {
    await settle({ status: 'failed', response_status: null, last_error: 'The webhook was turned off before this delivery was sent.', next_attempt_at: null });
    return;
  }
  const secret = ctx.secrets.decrypt(delivery.secret).toString('utf8');
  const timestamp = Math.floor(ctx.clock.now().getTime() / 1000);
  try {
    const answer = await safeFetch(delivery.url, {
      method: 'POST',
      body: Buffer.from(delivery.payload),
      headers: {
        'content-type': 'application/json',
        [EVENT_HEADER]: delivery.event,
        [DELIVERY_HEADER]: delivery.id,
        [SIGNATURE_HEADER]: signatureHeader(secret, timestamp, delivery.payload),
      },
      userAgent: WEBHOOK_USER_AGENT,
      allowPrivate: ctx.config.webhookAllowPrivate,
      privateSetting: WEBHOOK_PRIVATE_SETTING,
      what: 'webhook URL',
      maxBytes: ANSWER_LIMIT,
      maxRedirects: 0,
      signal: AbortSignal.timeout(ctx.config.webhookTimeoutMs),
    });
    await settle({ status: 'succeeded', response_status: answer.status ?? null, last_error: null, next_attempt_at: null });
  } catch (error) {
    const failure = failureOf(error);
    const last = job.attempts >= job.maxAttempts;
    const next = last ? null : new Date(ctx.clock.now().getTime() + deliveryBackoffMs(job.attempts)).toISOString();
    await settle({ status: last ? 'failed' : 'pending', response_status: failure.status, last_error: failure.message, next_attempt_at: next });
    throw error;
  }
};
