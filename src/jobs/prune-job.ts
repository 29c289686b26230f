import { defineJob } from './types.ts';

/** The daily removal of finished jobs (src/jobs/prune.ts): one pending job, rescheduling itself, stands for the schedule. */
export const pruneJobsJob = defineJob<Record<string, never>>({
  kind: 'jobs-prune',
  singletonKey: () => 'jobs-prune',
});
