import { defineJob } from '../jobs/types.ts';

/** `git-poll`: asks the remote where a sync's branch is, then waits for the next interval (src/git/auto.ts). */
export interface PollPayload {
  syncId: string;
}

export const gitPollJob = defineJob<PollPayload>({ kind: 'git-poll', maxAttempts: 1000 });

/** One pending poll per sync. */
export function pollKey(syncId: string): string {
  return `${gitPollJob.kind}:${syncId}`;
}
