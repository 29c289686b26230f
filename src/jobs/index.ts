export { enqueue, cancelPending, runDueJobs, type EnqueueOptions, type RunOptions, type RunReport } from './queue.ts';
export { JobRunner, type JobRunnerOptions, type Timers } from './runner.ts';
export { JobRegistry } from './registry.ts';
export { defineJob, handle, type JobDefinition, type JobHandler, type JobContext, type JobInfo, type JobOutcome, type JobRun } from './types.ts';
