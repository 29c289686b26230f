export { enqueue, cancelPending, runDueJobs, type EnqueueOptions, type RunOptions, type RunReport } from './queue.ts';
export { JobRunner, type JobRunnerOptions, type Timers } from './runner.ts';
export { JobRegistry } from './registry.ts';
export type { JobDefinition, JobContext, JobInfo, JobOutcome } from './types.ts';
