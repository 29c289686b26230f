import type { AuditLogTable } from '../../db/tables/integrations.ts';
import type { AuditLogEntry } from './schemas.ts';

export function presentAuditEntry(row: AuditLogTable): AuditLogEntry {
  return {
    object: 'audit-log-entry',
    id: row.id,
    createdAt: row.created_at,
    actor: { userId: row.user_id, tokenId: row.token_id },
    operation: row.operation,
    method: row.method,
    route: row.route,
    objects: JSON.parse(row.object_ids) as Record<string, string>,
    outcome: row.outcome as AuditLogEntry['outcome'],
    status: row.status,
    source: { ip: row.ip, userAgent: row.user_agent },
  };
}
