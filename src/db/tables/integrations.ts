import type { Flag } from './columns.ts';

/** Webhooks and their deliveries, the audit log, rate limits. Column conventions: src/db/tables/columns.ts. */

/** An endpoint of an organization that is told of events (migration 2026-11-24-0085). */
export interface WebhooksTable {
  id: string;
  organization_id: string;
  url: string;
  description: string | null;
  /** JSON array of event names. */
  events: string;
  active: Flag;
  /** The signing secret, sealed with the SecretBox. */
  secret: string;
  created_by: string | null;
  created_at: string;
  updated_at: string;
}

/** One event sent to one webhook: the delivery log. */
export interface WebhookDeliveriesTable {
  id: string;
  webhook_id: string;
  event: string;
  payload: string;
  /** 'pending' | 'succeeded' | 'failed' */
  status: string;
  attempts: number;
  response_status: number | null;
  last_error: string | null;
  next_attempt_at: string | null;
  created_at: string;
  updated_at: string;
}

/** One write through the API: who, what, when, from where, and the outcome. */
export interface AuditLogTable {
  id: string;
  organization_id: string | null;
  user_id: string | null;
  token_id: string | null;
  operation: string;
  method: string;
  route: string;
  /** JSON object of named ids. */
  object_ids: string;
  /** 'succeeded' | 'refused' | 'failed' */
  outcome: string;
  status: number | null;
  ip: string | null;
  user_agent: string | null;
  created_at: string;
}

/** Request counts per rate-limit key, shared by the processes of one PostgreSQL database. */
export interface RateLimitsTable {
  key: string;
  count: number;
  /** Milliseconds since 1970. */
  window_ends: number;
}

/** The tables of this domain, by name: part of `DB` (src/db/types.ts). */
export interface IntegrationsTables {
  webhooks: WebhooksTable;
  webhook_deliveries: WebhookDeliveriesTable;
  audit_log: AuditLogTable;
  rate_limits: RateLimitsTable;
}
