import { defineJob } from '../jobs/types.ts';

/** The scheduled garbage collection of the content store (src/content/gc.ts): one pending job stands for the schedule. */
export const collectGarbageJob = defineJob<Record<string, never>>({
  kind: 'content-gc',
  singletonKey: () => 'content-gc',
  leaseMs: 30 * 60_000,
});
