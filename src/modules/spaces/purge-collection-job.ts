import { defineJob } from '../../jobs/types.ts';

/** The purge of a collection and everything under it from the trash (src/modules/spaces/purge.ts). */
export interface PurgeCollectionPayload {
  collectionId: string;
}

export const purgeCollectionJob = defineJob<PurgeCollectionPayload>({
  kind: 'purge-collection',
  maxAttempts: 10,
  singletonKey: (payload) => `purge-collection:${payload.collectionId}`,
});
