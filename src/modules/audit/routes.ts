import { Readable } from 'node:stream';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { Type } from 'typebox';
import { mapPage } from '../../http/pagination.ts';
import { errorResponses, ListOf } from '../../http/schemas.ts';
import { OrganizationParams } from '../orgs/schemas.ts';
import { presentAuditEntry } from './presenter.ts';
import { AuditLogEntrySchema, ExportAuditLogQuery, ListAuditLogQuery } from './schemas.ts';
import { exportAuditLog, listAuditLog } from './service.ts';

const tags = ['audit-log'];
const config = { policy: 'audit.read' as const };

/** Quire's own audit-log API (organization administrators): docs/api.md#audit-log. */
export const auditLogRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get(
    '/orgs/:organizationId/audit-log',
    {
      config,
      schema: { tags, operationId: 'listAuditLog', summary: 'The writes made in an organization, newest first', params: OrganizationParams, querystring: ListAuditLogQuery, response: { 200: ListOf(AuditLogEntrySchema), ...errorResponses } },
    },
    async (request) => mapPage(await listAuditLog(request.ctx, request.params.organizationId, request.query), presentAuditEntry),
  );

  app.get(
    '/orgs/:organizationId/audit-log/export',
    {
      config,
      schema: {
        tags,
        operationId: 'exportAuditLog',
        summary: 'The audit log as JSON lines (application/x-ndjson), oldest first, one entry per line',
        params: OrganizationParams,
        querystring: ExportAuditLogQuery,
        response: { 200: Type.Unsafe<Readable>({ type: 'string', description: 'One JSON entry per line.' }), ...errorResponses },
      },
    },
    async (request, reply) => {
      const rows = await exportAuditLog(request.ctx, request.params.organizationId, request.query);
      const lines = async function* () {
        for await (const row of rows) yield JSON.stringify(presentAuditEntry(row)) + '\n';
      };
      return reply
        .type('application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="audit-log-${request.params.organizationId}.jsonl"`)
        .send(Readable.from(lines()));
    },
  );
};
