import { Type, type Static } from 'typebox';
import { ORGANIZATION_EVENTS } from '../../events.ts';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';

export const WebhookEvent = StringEnum(ORGANIZATION_EVENTS, { description: 'An event a webhook can be told of.' });
const Events = Type.Array(WebhookEvent, { minItems: 1, maxItems: ORGANIZATION_EVENTS.length, uniqueItems: true, description: 'The events to deliver.' });
const WebhookUrl = Type.String({ minLength: 1, maxLength: 2048, description: 'Where deliveries are POSTed: an http or https URL.' });
const Description = Type.String({ maxLength: 500 });

export const WebhookParams = Type.Object({
  organizationId: Type.String({ minLength: 1, maxLength: 100 }),
  webhookId: Type.String({ minLength: 1, maxLength: 100 }),
});

export const CreateWebhookBody = Type.Object(
  { url: WebhookUrl, events: Events, description: Type.Optional(Description), active: Type.Optional(Type.Boolean()) },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

export const UpdateWebhookBody = Type.Object(
  {
    url: Type.Optional(WebhookUrl),
    events: Type.Optional(Events),
    description: Type.Optional(Type.Union([Description, Type.Null()])),
    active: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type UpdateWebhookBody = Static<typeof UpdateWebhookBody>;

export const ListWebhooksQuery = Type.Object(ListQuery, { additionalProperties: false });
export type ListWebhooksQuery = Static<typeof ListWebhooksQuery>;

export const DELIVERY_STATUSES = ['pending', 'succeeded', 'failed'] as const;
export const ListDeliveriesQuery = Type.Object(
  { ...ListQuery, status: Type.Optional(StringEnum(DELIVERY_STATUSES, { description: 'Only deliveries in this state.' })) },
  { additionalProperties: false },
);
export type ListDeliveriesQuery = Static<typeof ListDeliveriesQuery>;

export const WebhookSchema = Type.Object({
  object: Type.Literal('webhook'),
  id: Type.String(),
  organizationId: Type.String(),
  url: Type.String(),
  description: Type.Union([Type.String(), Type.Null()]),
  events: Type.Array(Type.String()),
  active: Type.Boolean(),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
export type Webhook = Static<typeof WebhookSchema>;

/** The answer of a creation: the webhook with its signing secret, shown this once. */
export const CreatedWebhookSchema = Type.Object({
  ...WebhookSchema.properties,
  secret: Type.String({ description: 'The signing secret. It is shown only now: keep it where the receiver can read it.' }),
});

export const DeliverySchema = Type.Object({
  object: Type.Literal('webhook-delivery'),
  id: Type.String(),
  webhookId: Type.String(),
  event: Type.String(),
  status: StringEnum(DELIVERY_STATUSES),
  attempts: Type.Integer({ description: 'How many times it was sent.' }),
  responseStatus: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of the last answer; null when none came.' }),
  lastError: Type.Union([Type.String(), Type.Null()], { description: 'Why the last attempt failed.' }),
  nextAttemptAt: Type.Union([Timestamp, Type.Null()], { description: 'When it is sent again, while pending.' }),
  payload: Type.Unknown({ description: 'The body that is sent.' }),
  createdAt: Timestamp,
  updatedAt: Timestamp,
});
