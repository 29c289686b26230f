import { defineJob } from '../jobs/types.ts';

/** The daily removal of audit entries past their retention (src/audit/retention.ts): one pending job stands for the schedule. */
export const pruneAuditLogJob = defineJob<Record<string, never>>({
  kind: 'audit-log-prune',
  singletonKey: () => 'audit-log-prune',
});
