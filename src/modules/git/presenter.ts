import type { GitOperationRow, GitRequest } from '../../git/state.ts';
import type { GitOperation } from './schemas.ts';

/** An operation as `GET git/operations` shows it: never its credentials. */
export function presentOperation(row: GitOperationRow): GitOperation {
  const request = JSON.parse(row.request) as GitRequest;
  const out: GitOperation = {
    id: row.id,
    direction: row.direction as GitOperation['direction'],
    state: row.state as GitOperation['state'],
    stage: row.stage as GitOperation['stage'],
    url: request.url,
    ref: request.ref,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
  if (row.commit) out.commit = row.commit;
  if (row.revision_id) out.revision = row.revision_id;
  if (row.error) out.error = row.error;
  if (row.started_at) out.startedAt = row.started_at;
  if (row.completed_at) out.completedAt = row.completed_at;
  return out;
}
