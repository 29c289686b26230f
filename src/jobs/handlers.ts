import { indexSpaceJob } from '../search/index-job.ts';
import { purgeCollectionJob, purgeSpaceJob } from './purge.ts';
import { JobRegistry } from './registry.ts';

/** Every kind of job the app enqueues and its workers run. Later areas add theirs here. */
export const appJobs = new JobRegistry([purgeSpaceJob, purgeCollectionJob, indexSpaceJob]);
