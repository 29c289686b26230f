import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { AppServices } from './context.ts';
import type { Database } from './db/database.ts';
import { DomainEvents, ORGANIZATION_EVENTS } from './events.ts';
import { randomIds, type IdGenerator } from './ids.ts';
import { JobRegistry } from './jobs/registry.ts';
import { purgeCollectionJob, purgeSpaceJob } from './modules/spaces/purge.ts';
import { indexOnContentChange } from './search/changes.ts';
import { indexSpaceJob } from './search/index-job.ts';
import { deliverWebhookJob, deliverWebhooks } from './modules/webhooks/deliveries.ts';
import { pruneAuditLogJob } from './audit/retention.ts';
import { pruneJobsJob } from './jobs/prune.ts';
import { gitOperationJob } from './git/jobs.ts';
// gitsync (issue 12)
import { exportOnContentChange, gitPollJob, gitSyncJob } from './git/auto.ts';
import { processOpenAPISpecJob } from './openapi/job.ts';
import { SecretBox, Signer } from './secrets.ts';
import type { BlobStore } from './storage/blobs.ts';
import { openBlobStore } from './storage/blob-url.ts';
import { translateOnContentChange } from './modules/translations/changes.ts';
import { runTranslationJob } from './modules/translations/run.ts';
import { collectGarbageJob } from './content/gc.ts';

/**
 * The assembly of Quire's services: the one place that says which kinds of background job exist and who
 * listens to which domain event. An area that adds a job or a subscriber adds one line here; the code
 * that enqueues or emits never imports its listeners.
 */
export function appJobs(): JobRegistry {
  return new JobRegistry([purgeSpaceJob, purgeCollectionJob, indexSpaceJob, deliverWebhookJob, pruneAuditLogJob, pruneJobsJob, runTranslationJob, gitOperationJob, processOpenAPISpecJob, gitSyncJob, gitPollJob,
    // gc: the content store's garbage collection (src/content/gc.ts)
    collectGarbageJob]);
}

export function appEvents(): DomainEvents {
  const events = new DomainEvents({
    'space-content-changed': [indexOnContentChange, translateOnContentChange, exportOnContentChange],
  });
  // Every organization event is offered to the organization's webhooks.
  for (const name of ORGANIZATION_EVENTS) events.listen(name, deliverWebhooks(name));
  return events;
}

export interface ServiceOptions {
  config: Config;
  database: Database;
  masterKey: Buffer;
  clock?: Clock;
  ids?: IdGenerator;
  /** Where file bytes are kept; a folder under the data folder by default. */
  blobs?: BlobStore;
}

/** The services every Context of one running Quire is made from (the app, the job runner, the CLI). */
export function createServices(options: ServiceOptions): AppServices {
  const { config, database, masterKey } = options;
  return {
    db: database.db,
    dialect: database.dialect,
    clock: options.clock ?? systemClock,
    ids: options.ids ?? randomIds,
    config,
    secrets: new SecretBox(masterKey),
    cursors: new Signer(masterKey, 'cursor'),
    urls: new Signer(masterKey, 'url'),
    blobs: options.blobs ?? openBlobStore(config.blobs),
    jobs: appJobs(),
    events: appEvents(),
  };
}
