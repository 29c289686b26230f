import { Type, type Static } from 'typebox';
import { ListQuery, StringEnum, Timestamp } from '../../http/schemas.ts';

export const AUDIT_OUTCOMES = ['succeeded', 'refused', 'failed'] as const;

const Filters = {
  userId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only writes by this user.' })),
  tokenId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only writes made with this API token (its id).' })),
  operation: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only this operation, e.g. createSpace.' })),
  outcome: Type.Optional(StringEnum(AUDIT_OUTCOMES, { description: 'Only writes with this outcome.' })),
  objectId: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'Only writes that named or created this object.' })),
  from: Type.Optional(Type.String({ format: 'date-time', description: 'Only writes at or after this time.' })),
  to: Type.Optional(Type.String({ format: 'date-time', description: 'Only writes before this time.' })),
};

export const ListAuditLogQuery = Type.Object({ ...ListQuery, ...Filters }, { additionalProperties: false });
export type ListAuditLogQuery = Static<typeof ListAuditLogQuery>;

export const ExportAuditLogQuery = Type.Object(Filters, { additionalProperties: false });
export type AuditLogFilters = Static<typeof ExportAuditLogQuery>;

export const AuditLogEntrySchema = Type.Object({
  object: Type.Literal('audit-log-entry'),
  id: Type.String(),
  createdAt: Timestamp,
  actor: Type.Object({
    userId: Type.Union([Type.String(), Type.Null()]),
    tokenId: Type.Union([Type.String(), Type.Null()], { description: 'The id of the API token used (never the token).' }),
  }),
  operation: Type.String({ description: 'The operation id, as in /openapi.json.' }),
  method: Type.String(),
  route: Type.String({ description: 'The route pattern, e.g. /v1/spaces/:spaceId.' }),
  objects: Type.Record(Type.String(), Type.String(), { description: 'The ids the write named (by parameter name) and, as "created", the id of what it created.' }),
  outcome: StringEnum(AUDIT_OUTCOMES),
  status: Type.Union([Type.Integer(), Type.Null()], { description: 'The HTTP status of a refused or failed write, and of a creation.' }),
  source: Type.Object({ ip: Type.Union([Type.String(), Type.Null()]), userAgent: Type.Union([Type.String(), Type.Null()]) }),
});
export type AuditLogEntry = Static<typeof AuditLogEntrySchema>;
