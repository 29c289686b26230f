import type { Static } from 'typebox';
import type { WebhookDeliveriesTable, WebhooksTable } from '../../db/tables/integrations.ts';
import type { DeliverySchema, Webhook } from './schemas.ts';

export function presentWebhook(row: WebhooksTable): Webhook {
  return {
    object: 'webhook',
    id: row.id,
    organizationId: row.organization_id,
    url: row.url,
    description: row.description,
    events: JSON.parse(row.events) as string[],
    active: row.active === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

export function presentDelivery(row: WebhookDeliveriesTable): Static<typeof DeliverySchema> {
  return {
    object: 'webhook-delivery',
    id: row.id,
    webhookId: row.webhook_id,
    event: row.event,
    status: row.status as Static<typeof DeliverySchema>['status'],
    attempts: row.attempts,
    responseStatus: row.response_status,
    lastError: row.last_error,
    nextAttemptAt: row.next_attempt_at,
    payload: JSON.parse(row.payload) as unknown,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}
