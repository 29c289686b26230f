import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { AppServices } from './context.ts';
import type { Database } from './db/database.ts';
import { DomainEvents } from './event-bus.ts';
import { ORGANIZATION_EVENTS } from './events.ts';
import { randomIds, type IdGenerator } from './ids.ts';
import { JobRegistry } from './jobs/registry.ts';
import { handle } from './jobs/types.ts';
import { pruneJobsJob } from './jobs/prune-job.ts';
import { runJobsPrune } from './jobs/prune.ts';
import { pruneAuditLogJob } from './audit/prune-job.ts';
import { runAuditPrune } from './audit/retention.ts';
import { collectGarbageJob } from './content/gc-job.ts';
import { runContentGc } from './content/gc.ts';
import { indexSpaceJob } from './search/index-job.ts';
import { indexOnContentChange, runIndexSpace } from './search/changes.ts';
import { processOpenAPISpecJob } from './openapi/process-job.ts';
import { runProcessSpec } from './openapi/process.ts';
import { gitOperationJob } from './git/operation-job.ts';
import { runGitOperation } from './git/operations.ts';
import { gitSyncJob } from './git/sync-job.ts';
import { gitPollJob } from './git/poll-job.ts';
import { exportOnContentChange, runGitPoll, runGitSync } from './git/auto.ts';
import { runTranslationJob } from './modules/translations/run-job.ts';
import { runTranslationHandler } from './modules/translations/run.ts';
import { translateOnContentChange } from './modules/translations/changes.ts';
import { purgeCollectionJob } from './modules/spaces/purge-collection-job.ts';
import { purgeSpaceJob } from './modules/spaces/purge-space-job.ts';
import { runPurgeCollection, runPurgeSpace } from './modules/spaces/purge.ts';
import { deliverWebhookJob } from './modules/webhooks/delivery-job.ts';
import { deliverWebhooks, runDelivery } from './modules/webhooks/deliveries.ts';
import { SecretBox, Signer } from './secrets.ts';
import type { BlobStore } from './storage/blobs.ts';
import { openBlobStore } from './storage/blob-url.ts';
import { mentionMailJob } from './modules/comments/mention-mail-job.ts';
import { runMentionMail } from './modules/comments/mention-mail.ts';

/**
 * The assembly of Quire's services: the one place that says which kinds of background job exist (each
 * definition, `<engine>/<name>-job.ts`, bound to its handler) and who listens to which domain event. An
 * area that adds a job or a subscriber adds one line here; the code that enqueues or emits never imports
 * the work it causes.
 */
export function appJobs(): JobRegistry {
  return new JobRegistry([
    handle(purgeSpaceJob, runPurgeSpace),
    handle(purgeCollectionJob, runPurgeCollection),
    handle(indexSpaceJob, runIndexSpace),
    handle(deliverWebhookJob, runDelivery),
    handle(pruneAuditLogJob, runAuditPrune),
    handle(pruneJobsJob, runJobsPrune),
    handle(runTranslationJob, runTranslationHandler),
    handle(gitOperationJob, runGitOperation),
    handle(processOpenAPISpecJob, runProcessSpec),
    handle(gitSyncJob, runGitSync),
    handle(gitPollJob, runGitPoll),
    handle(collectGarbageJob, runContentGc),
    handle(mentionMailJob, runMentionMail),
  ]);
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
