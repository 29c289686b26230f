import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import type { WebhookDeliveriesTable } from '../../db/tables/integrations.ts';
import { errorResponses } from '../../http/schemas.ts';
import { NotFound } from '../../errors.ts';
import { enqueue } from '../../jobs/queue.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { deliverWebhookJob } from './delivery-job.ts';
import { presentDelivery } from './presenter.ts';
import { DeliverySchema } from './schemas.ts';

/**
 * Redelivery (administrators): sends a delivery's message again as a new delivery, the same event and body
 * with a fresh signature when sent, so the log keeps both attempts. For a receiver that was down or answered
 * wrongly, after it is fixed.
 */
export async function redeliver(ctx: Context, organizationId: string, webhookId: string, deliveryId: string): Promise<WebhookDeliveriesTable> {
  return inTransaction(ctx, async (tx) => {
    const { organization, actor } = await organizationAccess(tx, organizationId);
    authorize(tx, 'webhooks.manage', actor);
    const original = await tx.db
      .selectFrom('webhook_deliveries')
      .innerJoin('webhooks', 'webhooks.id', 'webhook_deliveries.webhook_id')
      .selectAll('webhook_deliveries')
      .where('webhook_deliveries.id', '=', deliveryId)
      .where('webhooks.id', '=', webhookId)
      .where('webhooks.organization_id', '=', organization.id)
      .executeTakeFirst();
    if (!original) throw new NotFound(`The webhook "${webhookId}" of this organization has no delivery "${deliveryId}".`);
    const now = nowIso(tx);
    const row: WebhookDeliveriesTable = { id: tx.ids.next(), webhook_id: original.webhook_id, event: original.event, payload: original.payload, status: 'pending', attempts: 0, response_status: null, last_error: null, next_attempt_at: now, created_at: now, updated_at: now };
    await tx.db.insertInto('webhook_deliveries').values(row).execute();
    await enqueue(tx, deliverWebhookJob, { deliveryId: row.id });
    return row;
  });
}

const RedeliverParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  webhookId: Type.String({ minLength: 1, maxLength: 100 }),
  deliveryId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const webhookRedeliverRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/webhooks/:webhookId/deliveries/:deliveryId/redeliver',
    {
      config: { policy: 'webhooks.manage' },
      schema: {
        tags: ['webhooks'],
        operationId: 'redeliverWebhookDelivery',
        summary: 'Send a delivery again, as a new delivery with the same event and body (administrators)',
        params: RedeliverParams,
        response: { 201: DeliverySchema, ...errorResponses },
      },
    },
    async (request, reply) => reply.code(201).send(presentDelivery(await redeliver(request.ctx, request.params.organizationId, request.params.webhookId, request.params.deliveryId))),
  );
};
