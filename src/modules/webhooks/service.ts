import { randomBytes } from 'node:crypto';
import type { Context } from '../../context.ts';
import { inTransaction, nowIso } from '../../context.ts';
import { pageInCreationOrder, type Page } from '../../db/keyset.ts';
import type { WebhookDeliveriesTable, WebhooksTable } from '../../db/tables/integrations.ts';
import { BadRequest, NotFound } from '../../errors.ts';
import { checkDestination } from '../../net/addresses.ts';
import { assertHttp } from '../../net/fetch.ts';
import { authorize } from '../../policy/index.ts';
import { organizationAccess } from '../../access/organizations.ts';
import type { CreateWebhookBody, ListDeliveriesQuery, ListWebhooksQuery, UpdateWebhookBody } from './schemas.ts';

/** The webhooks of an organization (administrators only): Quire's own API, /v1/orgs/{organizationId}/webhooks. */

const SECRET_PREFIX = 'whsec_';
/** How many webhooks one organization may register. */
export const WEBHOOKS_PER_ORGANIZATION = 50;
export const WEBHOOK_PRIVATE_SETTING = 'QUIRE_WEBHOOK_ALLOW_PRIVATE';

/** Checks a webhook URL as deliveries will: http(s), no credentials, and (unless allowed) a public address. */
async function checkWebhookUrl(ctx: Context, raw: string): Promise<string> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new BadRequest('The body member "url" must be an absolute http or https URL, such as https://example.com/hooks/quire.');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new BadRequest(`The webhook URL must use http or https; "${url.protocol.replace(/:$/, '')}" is not supported.`);
  }
  assertHttp(url, 'The webhook URL');
  await checkDestination(url, { allowPrivate: ctx.config.webhookAllowPrivate, what: 'webhook URL', privateSetting: WEBHOOK_PRIVATE_SETTING });
  return url.href;
}

function newSecret(): string {
  return SECRET_PREFIX + randomBytes(32).toString('base64url');
}

async function adminOf(ctx: Context, organizationId: string) {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'webhooks.manage', actor);
  return { organization, actor };
}

async function loadWebhook(ctx: Context, organizationId: string, webhookId: string): Promise<WebhooksTable> {
  const row = await ctx.db.selectFrom('webhooks').selectAll().where('id', '=', webhookId).where('organization_id', '=', organizationId).executeTakeFirst();
  if (!row) throw new NotFound(`No webhook "${webhookId}" exists in this organization.`);
  return row;
}

/** Registers a webhook; returns it with its signing secret, which is never shown again. */
export async function createWebhook(ctx: Context, organizationId: string, input: CreateWebhookBody): Promise<{ webhook: WebhooksTable; secret: string }> {
  const { organization, actor } = await adminOf(ctx, organizationId);
  const url = await checkWebhookUrl(ctx, input.url);
  return inTransaction(ctx, async (tx) => {
    const existing = await tx.db.selectFrom('webhooks').select((eb) => eb.fn.countAll<number>().as('n')).where('organization_id', '=', organization.id).executeTakeFirstOrThrow();
    if (Number(existing.n) >= WEBHOOKS_PER_ORGANIZATION) {
      throw new BadRequest(`An organization can have at most ${WEBHOOKS_PER_ORGANIZATION} webhooks; delete one it no longer needs.`);
    }
    const secret = newSecret();
    const now = nowIso(tx);
    const webhook: WebhooksTable = {
      id: tx.ids.next(),
      organization_id: organization.id,
      url,
      description: input.description ?? null,
      events: JSON.stringify(input.events),
      active: input.active === false ? 0 : 1,
      secret: tx.secrets.encrypt(secret),
      created_by: actor.userId,
      created_at: now,
      updated_at: now,
    };
    await tx.db.insertInto('webhooks').values(webhook).execute();
    return { webhook, secret };
  });
}

export async function listWebhooks(ctx: Context, organizationId: string, query: ListWebhooksQuery): Promise<Page<WebhooksTable>> {
  const { organization } = await adminOf(ctx, organizationId);
  const base = ctx.db.selectFrom('webhooks').selectAll().where('organization_id', '=', organization.id);
  return pageInCreationOrder(ctx.cursors, base, `webhooks:${organization.id}`, query);
}

export async function getWebhook(ctx: Context, organizationId: string, webhookId: string): Promise<WebhooksTable> {
  const { organization } = await adminOf(ctx, organizationId);
  return loadWebhook(ctx, organization.id, webhookId);
}

export async function updateWebhook(ctx: Context, organizationId: string, webhookId: string, patch: UpdateWebhookBody): Promise<WebhooksTable> {
  const { organization } = await adminOf(ctx, organizationId);
  const url = patch.url === undefined ? undefined : await checkWebhookUrl(ctx, patch.url);
  return inTransaction(ctx, async (tx) => {
    const row = await loadWebhook(tx, organization.id, webhookId);
    const changes: Partial<WebhooksTable> = { updated_at: nowIso(tx) };
    if (url !== undefined) changes.url = url;
    if (patch.events !== undefined) changes.events = JSON.stringify(patch.events);
    if (patch.description !== undefined) changes.description = patch.description;
    if (patch.active !== undefined) changes.active = patch.active ? 1 : 0;
    await tx.db.updateTable('webhooks').set(changes).where('id', '=', row.id).execute();
    return { ...row, ...changes };
  });
}

/** Gives a webhook a new signing secret, returned this once; deliveries sent from now on are signed with it. */
export async function rotateWebhookSecret(ctx: Context, organizationId: string, webhookId: string): Promise<{ webhook: WebhooksTable; secret: string }> {
  const { organization } = await adminOf(ctx, organizationId);
  return inTransaction(ctx, async (tx) => {
    const row = await loadWebhook(tx, organization.id, webhookId);
    const secret = newSecret();
    const changes = { secret: tx.secrets.encrypt(secret), updated_at: nowIso(tx) };
    await tx.db.updateTable('webhooks').set(changes).where('id', '=', row.id).execute();
    return { webhook: { ...row, ...changes }, secret };
  });
}

/** Deletes a webhook with its delivery log; pending deliveries are dropped. False when there was none. */
export async function deleteWebhook(ctx: Context, organizationId: string, webhookId: string): Promise<boolean> {
  const { organization } = await adminOf(ctx, organizationId);
  return inTransaction(ctx, async (tx) => {
    await tx.db.deleteFrom('webhook_deliveries').where('webhook_id', 'in', tx.db.selectFrom('webhooks').select('id').where('id', '=', webhookId).where('organization_id', '=', organization.id)).execute();
    const result = await tx.db.deleteFrom('webhooks').where('id', '=', webhookId).where('organization_id', '=', organization.id).executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  });
}

/** The delivery log of a webhook, newest first. */
export async function listDeliveries(ctx: Context, organizationId: string, webhookId: string, query: ListDeliveriesQuery): Promise<Page<WebhookDeliveriesTable>> {
  const { organization } = await adminOf(ctx, organizationId);
  const webhook = await loadWebhook(ctx, organization.id, webhookId);
  const base = ctx.db
    .selectFrom('webhook_deliveries')
    .selectAll()
    .where('webhook_id', '=', webhook.id)
    .$if(query.status !== undefined, (q) => q.where('status', '=', query.status!));
  return pageInCreationOrder(ctx.cursors, base, `webhook-deliveries:${webhook.id}:${query.status ?? ''}`, query, { direction: 'desc' });
}
