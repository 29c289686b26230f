import type { Context } from '../context.ts';
import { cancelPending, enqueue, type QueueContext } from '../jobs/queue.ts';
import { defineJob } from '../jobs/types.ts';

/**
 * The processing of an OpenAPI spec, one job per spec (its singleton key). A spec given by URL keeps its
 * job: after each run it is due again QUIRE_OPENAPI_REFRESH_HOURS later. A write that changes the source
 * enqueues again, which moves a pending job to now.
 */
export interface ProcessPayload {
  specId: string;
}

export function processSpecKey(specId: string): string {
  return `openapi-spec:${specId}`;
}

export const processOpenAPISpecJob = defineJob<ProcessPayload>({
  kind: 'openapi-process',
  maxAttempts: 3,
  leaseMs: 10 * 60 * 1000,
  singletonKey: (payload) => processSpecKey(payload.specId),
});

/** Enqueues the processing in the caller's transaction. */
export function enqueueProcessing(tx: QueueContext, specId: string): Promise<string> {
  return enqueue(tx, processOpenAPISpecJob, { specId });
}

/** Drops the spec's pending job (the spec is being deleted). */
export function cancelProcessing(tx: Pick<Context, 'db'>, specId: string): Promise<boolean> {
  return cancelPending(tx, processSpecKey(specId));
}
