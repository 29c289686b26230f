import { defineJob } from '../../jobs/types.ts';

/** A run of a translation (src/modules/translations/run.ts), scheduled by src/modules/translations/schedule.ts. */
export interface RunTranslationPayload {
  translationId: string;
}

export function runTranslationKey(translationId: string): string {
  return `run-translation:${translationId}`;
}

export const runTranslationJob = defineJob<RunTranslationPayload>({
  kind: 'run-translation',
  maxAttempts: 25,
  leaseMs: 30 * 60 * 1000,
  backoffMs: (attempt) => Math.min(15_000 * 2 ** Math.max(0, attempt - 1), 60 * 60 * 1000),
  singletonKey: (payload) => runTranslationKey(payload.translationId),
});
