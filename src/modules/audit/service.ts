import { sql } from 'kysely';
import type { Context } from '../../context.ts';
import { auditHorizon } from '../../audit/retention.ts';
import { after, pageInCreationOrder, type Page } from '../../db/keyset.ts';
import type { AuditLogTable } from '../../db/tables/integrations.ts';
import { containsPattern } from '../../db/dialect.ts';
import { organizationAccess } from '../../access/organizations.ts';
import { authorize } from '../../policy/index.ts';
import type { AuditLogFilters, ListAuditLogQuery } from './schemas.ts';

/** Reading the audit log of an organization (administrators): newest first, filtered, within the retention. */

const EXPORT_BATCH = 500;

function filtered(ctx: Context, organizationId: string, filters: AuditLogFilters) {
  const horizon = auditHorizon(ctx);
  const from = filters.from && new Date(filters.from).toISOString() > horizon ? new Date(filters.from).toISOString() : horizon;
  return ctx.db
    .selectFrom('audit_log')
    .selectAll()
    .where('organization_id', '=', organizationId)
    .where('created_at', '>=', from)
    .$if(filters.to !== undefined, (q) => q.where('created_at', '<', new Date(filters.to!).toISOString()))
    .$if(filters.userId !== undefined, (q) => q.where('user_id', '=', filters.userId!))
    .$if(filters.tokenId !== undefined, (q) => q.where('token_id', '=', filters.tokenId!))
    .$if(filters.operation !== undefined, (q) => q.where('operation', '=', filters.operation!))
    .$if(filters.outcome !== undefined, (q) => q.where('outcome', '=', filters.outcome!))
    // Ids are stored as JSON string values: "…":"<id>" matches the id exactly, whatever its parameter name.
    .$if(filters.objectId !== undefined, (q) => q.where(sql<boolean>`lower(object_ids) like ${containsPattern(`"${filters.objectId!}"`)} escape '\\'`));
}

function scopeOf(organizationId: string, filters: AuditLogFilters): string {
  const { userId, tokenId, operation, outcome, objectId, from, to } = filters;
  return `audit-log:${organizationId}:${JSON.stringify([userId, tokenId, operation, outcome, objectId, from, to])}`;
}

async function adminOf(ctx: Context, organizationId: string) {
  const { organization, actor } = await organizationAccess(ctx, organizationId);
  authorize(ctx, 'audit.read', actor);
  return organization;
}

export async function listAuditLog(ctx: Context, organizationId: string, query: ListAuditLogQuery): Promise<Page<AuditLogTable>> {
  const organization = await adminOf(ctx, organizationId);
  return pageInCreationOrder(ctx.cursors, filtered(ctx, organization.id, query), scopeOf(organization.id, query), query, { direction: 'desc' });
}

/**
 * The whole filtered log, oldest first, read in batches by keyset (memory stays bounded however long the
 * log); the caller is authorized before the first line is produced.
 */
export async function exportAuditLog(ctx: Context, organizationId: string, filters: AuditLogFilters): Promise<AsyncIterable<AuditLogTable>> {
  const organization = await adminOf(ctx, organizationId);
  async function* rows(): AsyncIterable<AuditLogTable> {
    let cursor: [string, string] | undefined;
    for (;;) {
      const batch = await filtered(ctx, organization.id, filters)
        .$if(cursor !== undefined, (q) => q.where(after('created_at', 'id', 'asc', cursor!)))
        .orderBy('created_at', 'asc')
        .orderBy('id', 'asc')
        .limit(EXPORT_BATCH)
        .execute();
      yield* batch;
      if (batch.length < EXPORT_BATCH) return;
      const last = batch[batch.length - 1];
      cursor = [last.created_at, last.id];
    }
  }
  return rows();
}
