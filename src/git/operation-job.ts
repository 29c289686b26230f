import { defineJob } from '../jobs/types.ts';

/**
 * The job that runs a Git operation (src/git/operations.ts). One operation per space at a time, in the
 * order they were asked for.
 */
export interface GitOperationPayload {
  operationId: string;
}

export const gitOperationJob = defineJob<GitOperationPayload>({
  kind: 'git-operation',
  maxAttempts: 5,
  leaseMs: 30 * 60 * 1000,
});
