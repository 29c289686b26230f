import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { mapPage } from '../../http/pagination.ts';
import { replyRemoval } from '../../http/replies.ts';
import { errorResponses, ListOf, removalResponses } from '../../http/schemas.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { presentDelivery, presentWebhook } from './presenter.ts';
import {
  CreatedWebhookSchema,
  CreateWebhookBody,
  DeliverySchema,
  ListDeliveriesQuery,
  ListWebhooksQuery,
  UpdateWebhookBody,
  WebhookParams,
  WebhookSchema,
} from './schemas.ts';
import { createWebhook, deleteWebhook, getWebhook, listDeliveries, listWebhooks, rotateWebhookSecret, updateWebhook } from './service.ts';

const tags = ['webhooks'];
const config = { policy: 'webhooks.manage' as const };

/** Quire's own webhook API (organization administrators): docs/api.md#webhooks. */
export const webhookRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.post(
    '/orgs/:organizationId/webhooks',
    {
      config,
      schema: { tags, operationId: 'createWebhook', summary: 'Register a webhook; the answer shows its signing secret once', params: OrganizationParams, body: CreateWebhookBody, response: { 201: CreatedWebhookSchema, ...errorResponses } },
    },
    async (request, reply) => {
      const { webhook, secret } = await createWebhook(request.ctx, request.params.organizationId, request.body);
      return reply.code(201).send({ ...presentWebhook(webhook), secret });
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks',
    {
      config,
      schema: { tags, operationId: 'listWebhooks', summary: 'The webhooks of an organization, oldest first', params: OrganizationParams, querystring: ListWebhooksQuery, response: { 200: ListOf(WebhookSchema), ...errorResponses } },
    },
    async (request) => mapPage(await listWebhooks(request.ctx, request.params.organizationId, request.query), presentWebhook),
  );

  app.get(
    '/orgs/:organizationId/webhooks/:webhookId',
    { config, schema: { tags, operationId: 'getWebhook', summary: 'A webhook', params: WebhookParams, response: { 200: WebhookSchema, ...errorResponses } } },
    async (request) => presentWebhook(await getWebhook(request.ctx, request.params.organizationId, request.params.webhookId)),
  );

  app.patch(
    '/orgs/:organizationId/webhooks/:webhookId',
    {
      config,
      schema: { tags, operationId: 'updateWebhook', summary: 'Change the URL, events, description or state of a webhook', params: WebhookParams, body: UpdateWebhookBody, response: { 200: WebhookSchema, ...errorResponses } },
    },
    async (request) => presentWebhook(await updateWebhook(request.ctx, request.params.organizationId, request.params.webhookId, request.body)),
  );

  app.delete(
    '/orgs/:organizationId/webhooks/:webhookId',
    { config, schema: { tags, operationId: 'deleteWebhook', summary: 'Delete a webhook and its delivery log', params: WebhookParams, response: { ...removalResponses, ...errorResponses } } },
    async (request, reply) => replyRemoval(reply, await deleteWebhook(request.ctx, request.params.organizationId, request.params.webhookId)),
  );

  app.post(
    '/orgs/:organizationId/webhooks/:webhookId/secret',
    {
      config,
      schema: { tags, operationId: 'rotateWebhookSecret', summary: 'Give a webhook a new signing secret, shown once', params: WebhookParams, response: { 200: CreatedWebhookSchema, ...errorResponses } },
    },
    async (request) => {
      const { webhook, secret } = await rotateWebhookSecret(request.ctx, request.params.organizationId, request.params.webhookId);
      return { ...presentWebhook(webhook), secret };
    },
  );

  app.get(
    '/orgs/:organizationId/webhooks/:webhookId/deliveries',
    {
      config,
      schema: { tags, operationId: 'listWebhookDeliveries', summary: 'The delivery log of a webhook, newest first', params: WebhookParams, querystring: ListDeliveriesQuery, response: { 200: ListOf(DeliverySchema), ...errorResponses } },
    },
    async (request) => mapPage(await listDeliveries(request.ctx, request.params.organizationId, request.params.webhookId, request.query), presentDelivery),
  );
};
