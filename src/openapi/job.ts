import type { Context } from '../context.ts';
import { cancelPending, enqueue } from '../jobs/queue.ts';
import type { JobDefinition } from '../jobs/types.ts';
import { processSpec } from './process.ts';

/**
 * The processing of an OpenAPI spec, one job per spec (its singleton key). A spec given by URL keeps its
 * job: after each run it is due again QUIRE_OPENAPI_REFRESH_HOURS later. A write that changes the source
 * enqueues again, which moves a pending job to now.
 */
export const OPENAPI_PROCESS_KIND = 'openapi-process';

export interface ProcessPayload {
  specId: string;
}

const keyOf = (specId: string) => `openapi-spec:${specId}`;

export const processOpenAPISpecJob: JobDefinition<ProcessPayload> = {
  kind: OPENAPI_PROCESS_KIND,
  maxAttempts: 3,
  leaseMs: 10 * 60 * 1000,
  singletonKey: (payload) => keyOf(payload.specId),
  run: (ctx, payload) => processSpec(ctx, payload.specId),
};

/** Enqueues the processing in the caller's transaction. */
export function enqueueProcessing(tx: Pick<Context, 'db' | 'clock' | 'ids' | 'jobs'>, specId: string): Promise<string> {
  return enqueue(tx, OPENAPI_PROCESS_KIND, { specId } satisfies ProcessPayload);
}

/** Drops the spec's pending job (the spec is being deleted). */
export function cancelProcessing(tx: Pick<Context, 'db'>, specId: string): Promise<boolean> {
  return cancelPending(tx, keyOf(specId));
}
