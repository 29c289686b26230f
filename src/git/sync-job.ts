import { defineJob } from '../jobs/types.ts';
import type { GitDirection } from './state.ts';

/** `git-sync`: records the automatic operation of a sync in one direction and enqueues it (src/git/auto.ts). */
export interface SyncJobPayload {
  syncId: string;
  direction: GitDirection;
}

export const gitSyncJob = defineJob<SyncJobPayload>({ kind: 'git-sync', maxAttempts: 1000 });

/** One pending `git-sync` per sync and direction: many edits make one export. */
export function syncKey(syncId: string, direction: GitDirection): string {
  return `${gitSyncJob.kind}:${syncId}:${direction}`;
}
