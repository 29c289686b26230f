import type { Kysely } from 'kysely';

/**
 * Webhooks and the audit log. A webhook is an endpoint of an organization with the events it wants and a
 * secret (sealed with the SecretBox) that signs every delivery; a delivery is one event sent to one
 * webhook, retried by a job, and kept as the delivery log. The audit log holds one row per write through
 * the API: who, what, when, from where, and the outcome.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    /** JSON array of event names (src/events.ts WEBHOOK_EVENTS). */
    .addColumn('events', 'text', (c) => c.notNull())
    .addColumn('active', 'integer', (c) => c.notNull().defaultTo(1))
    /** The signing secret, sealed with the SecretBox; shown to the caller once, at creation. */
    .addColumn('secret', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhooks_organization').on('webhooks').columns(['organization_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('webhook_id', 'text', (c) => c.notNull().references('webhooks.id').onDelete('cascade'))
    .addColumn('event', 'text', (c) => c.notNull())
    /** The body sent, byte for byte (JSON text), the same on every attempt. */
    .addColumn('payload', 'text', (c) => c.notNull())
    /** 'pending' | 'succeeded' | 'failed' */
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('response_status', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('next_attempt_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webhook_deliveries_webhook').on('webhook_deliveries').columns(['webhook_id', 'created_at', 'id']).execute();

  await db.schema
    .createTable('audit_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    /** The organization the write concerned; null for writes outside any organization (the caller's own user). */
    .addColumn('organization_id', 'text')
    .addColumn('user_id', 'text')
    /** The id of the API token used (never the token). */
    .addColumn('token_id', 'text')
    /** The operation id of the route, e.g. createSpace. */
    .addColumn('operation', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    /** The route's pattern, e.g. /v1/spaces/:spaceId (never the URL, whose query may carry anything). */
    .addColumn('route', 'text', (c) => c.notNull())
    /** JSON object of the ids the write named (path parameters) and the id of what it created. */
    .addColumn('object_ids', 'text', (c) => c.notNull())
    /** 'succeeded' | 'refused' | 'failed' */
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('status', 'integer')
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_log_organization').on('audit_log').columns(['organization_id', 'created_at', 'id']).execute();
  await db.schema.createIndex('audit_log_created').on('audit_log').columns(['created_at']).execute();
}

export async function down(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('audit_log').execute();
  await db.schema.dropTable('webhook_deliveries').execute();
  await db.schema.dropTable('webhooks').execute();
}
