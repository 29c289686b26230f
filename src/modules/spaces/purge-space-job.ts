import { defineJob } from '../../jobs/types.ts';

/** The purge of a space from the trash once its retention ended (src/modules/spaces/purge.ts). */
export interface PurgeSpacePayload {
  spaceId: string;
}

/** The singleton key of a space's purge: one pending purge per space. */
export function purgeSpaceKey(spaceId: string): string {
  return `purge-space:${spaceId}`;
}

export const purgeSpaceJob = defineJob<PurgeSpacePayload>({
  kind: 'purge-space',
  maxAttempts: 10,
  singletonKey: (payload) => purgeSpaceKey(payload.spaceId),
});
