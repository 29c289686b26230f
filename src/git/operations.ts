import type { JobRun } from '../jobs/types.ts';
import { afterAutomatic } from './auto.ts';
import type { GitOperationPayload } from './operation-job.ts';
import { runOperation } from './run.ts';
import { findOperation, operationAhead } from './state.ts';

/**
 * The job that runs a Git operation. One operation per space at a time, in the order they were asked
 * for: a job whose space has an earlier or running operation waits for it (rescheduled, not failed).
 * A failed operation is recorded on its row (state `failure`, with the message) and is not run again by
 * this job; a worker stopped mid-way (`kill -9`) leaves it `running`, and the job, taken over once its
 * lease ends, runs it again from the start (nothing was written before its last stage).
 */
export const runGitOperation: JobRun<GitOperationPayload> = async (ctx, payload, job) => {
  const operation = await findOperation(ctx, payload.operationId);
  if (!operation) return;
  const ahead = operation.state === 'pending' ? await operationAhead(ctx, operation) : undefined;
  if (ahead && !(ahead.state === 'running' && job.attempts > 1 && ahead.id === operation.id)) {
    return { rescheduleAt: new Date(ctx.clock.now().getTime() + 1000) };
  }
  let ran = true;
  try {
    ran = (await runOperation(ctx, payload.operationId)) !== null;
  } catch {
    // The failure is recorded on the operation (state, message); a job retry would not change it (an
    // automatic sync schedules its own retry, with backoff, below).
  }
  if (ran) await afterAutomatic(ctx, payload.operationId);
};
