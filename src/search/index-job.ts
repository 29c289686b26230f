import { defineJob } from '../jobs/types.ts';

/**
 * The job that brings a space's search index up to its current revision. Enqueued by every change of a
 * space's current revision (src/search/changes.ts), in the transaction of that change; a worker runs it
 * within a round of the job queue (about a second), so search follows content changes that closely.
 */
export interface IndexSpacePayload {
  spaceId: string;
}

export function indexSpaceKey(spaceId: string): string {
  return `index-space:${spaceId}`;
}

export const indexSpaceJob = defineJob<IndexSpacePayload>({
  kind: 'index-space',
  maxAttempts: 10,
  // Reading a large space for the first time takes a while; another worker must not take it over meanwhile.
  leaseMs: 15 * 60 * 1000,
  singletonKey: (payload) => indexSpaceKey(payload.spaceId),
});
