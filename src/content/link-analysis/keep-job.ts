import { defineJob } from '../../jobs/types.ts';

/**
 * The job that keeps a space's current link analysis in the database (saved.ts), enqueued by the search
 * indexer's job (src/search/changes.ts) to run KEEP_ANALYSIS_AFTER_MS later. One per space is pending at a
 * time and its due time is not moved by later revisions, so a space edited without pause (live writers save a
 * page two seconds after their last keystroke) keeps one analysis per period, not one per revision.
 */
export interface KeepLinkAnalysisPayload {
  spaceId: string;
}

export function keepLinkAnalysisKey(spaceId: string): string {
  return `keep-link-analysis:${spaceId}`;
}

/** How long after a space's revision is indexed its link analysis is kept (decision 0139). */
export const KEEP_ANALYSIS_AFTER_MS = 30_000;

export const keepLinkAnalysisJob = defineJob<KeepLinkAnalysisPayload>({
  kind: 'keep-link-analysis',
  maxAttempts: 3,
  singletonKey: (payload) => keepLinkAnalysisKey(payload.spaceId),
});
