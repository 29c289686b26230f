import { systemClock, type Clock } from './clock.ts';
import type { Config } from './config.ts';
import type { AppServices } from './context.ts';
import type { Database } from './db/database.ts';
import { DomainEvents, type DomainEventListener } from './event-bus.ts';
import { ORGANIZATION_EVENTS, type ChangeRequestMerging, type SpaceContentChanged } from './events.ts';
import { randomIds, type IdGenerator } from './ids.ts';
import { JobRegistry } from './jobs/registry.ts';
import { handle } from './jobs/types.ts';
import { pruneJobsJob } from './jobs/prune-job.ts';
import { pruneAuditLogJob } from './audit/prune-job.ts';
import { collectGarbageJob } from './content/gc-job.ts';
import { indexSpaceJob } from './search/index-job.ts';
import { keepLinkAnalysisJob } from './content/link-analysis/keep-job.ts';
import { processOpenAPISpecJob } from './openapi/process-job.ts';
import { gitOperationJob } from './git/operation-job.ts';
import { gitSyncJob } from './git/sync-job.ts';
import { gitPollJob } from './git/poll-job.ts';
import { runTranslationJob } from './modules/translations/run-job.ts';
import { purgeCollectionJob } from './modules/spaces/purge-collection-job.ts';
import { purgeSpaceJob } from './modules/spaces/purge-space-job.ts';
import { deliverWebhookJob } from './modules/webhooks/delivery-job.ts';
import { SecretBox, Signer } from './secrets.ts';
import type { BlobStore } from './storage/blobs.ts';
import { openBlobStore } from './storage/blob-url.ts';
import { mentionMailJob } from './modules/comments/mention-mail-job.ts';

// The handlers and listeners are imported when they first run, not here: together they are most of Quire's
// code (content, search, Git, translations, webhooks), and a process that runs none of them (most `quire`
// commands) starts without loading it. Each definition (`*-job.ts`) stays a static import: it is small, and
// binding it with `handle` keeps the handler's payload type checked.

/** A module imported the first time it is needed, then held: each `import()` would ask tsx's loader again. */
function later<T>(load: () => Promise<T>): () => Promise<T> {
  let held: Promise<T> | undefined;
  return () => (held ??= load());
}

const purge = later(() => import('./modules/spaces/purge.ts'));
const searchChanges = later(() => import('./search/changes.ts'));
const deliveries = later(() => import('./modules/webhooks/deliveries.ts'));
const auditRetention = later(() => import('./audit/retention.ts'));
const jobsPrune = later(() => import('./jobs/prune.ts'));
const translationRun = later(() => import('./modules/translations/run.ts'));
const gitOperations = later(() => import('./git/operations.ts'));
const openapiProcess = later(() => import('./openapi/process.ts'));
const gitAuto = later(() => import('./git/auto.ts'));
const contentGc = later(() => import('./content/gc.ts'));
const mentionMail = later(() => import('./modules/comments/mention-mail.ts'));
const translationChanges = later(() => import('./modules/translations/changes.ts'));
const livePending = later(() => import('./live/pending.ts'));

/**
 * The assembly of Quire's services: the one place that says which kinds of background job exist (each
 * definition, `<engine>/<name>-job.ts`, bound to its handler) and who listens to which domain event. An
 * area that adds a job or a subscriber adds one line here; the code that enqueues or emits never imports
 * the work it causes.
 */
export function appJobs(): JobRegistry {
  return new JobRegistry([
    handle(purgeSpaceJob, async (ctx, payload, job) => (await purge()).runPurgeSpace(ctx, payload, job)),
    handle(purgeCollectionJob, async (ctx, payload, job) => (await purge()).runPurgeCollection(ctx, payload, job)),
    handle(indexSpaceJob, async (ctx, payload, job) => (await searchChanges()).runIndexSpace(ctx, payload, job)),
    handle(keepLinkAnalysisJob, async (ctx, payload, job) => (await searchChanges()).runKeepLinkAnalysis(ctx, payload, job)),
    handle(deliverWebhookJob, async (ctx, payload, job) => (await deliveries()).runDelivery(ctx, payload, job)),
    handle(pruneAuditLogJob, async (ctx, payload, job) => (await auditRetention()).runAuditPrune(ctx, payload, job)),
    handle(pruneJobsJob, async (ctx, payload, job) => (await jobsPrune()).runJobsPrune(ctx, payload, job)),
    handle(runTranslationJob, async (ctx, payload, job) => (await translationRun()).runTranslationHandler(ctx, payload, job)),
    handle(gitOperationJob, async (ctx, payload, job) => (await gitOperations()).runGitOperation(ctx, payload, job)),
    handle(processOpenAPISpecJob, async (ctx, payload, job) => (await openapiProcess()).runProcessSpec(ctx, payload, job)),
    handle(gitSyncJob, async (ctx, payload, job) => (await gitAuto()).runGitSync(ctx, payload, job)),
    handle(gitPollJob, async (ctx, payload, job) => (await gitAuto()).runGitPoll(ctx, payload, job)),
    handle(collectGarbageJob, async (ctx, payload, job) => (await contentGc()).runContentGc(ctx, payload, job)),
    handle(mentionMailJob, async (ctx, payload, job) => (await mentionMail()).runMentionMail(ctx, payload, job)),
  ]);
}

const indexOnContentChange: DomainEventListener<SpaceContentChanged> = async (tx, event) => (await searchChanges()).indexOnContentChange(tx, event);
const translateOnContentChange: DomainEventListener<SpaceContentChanged> = async (tx, event) => (await translationChanges()).translateOnContentChange(tx, event);
const exportOnContentChange: DomainEventListener<SpaceContentChanged> = async (tx, event) => (await gitAuto()).exportOnContentChange(tx, event);
const writeLiveBeforeMerge: DomainEventListener<ChangeRequestMerging> = async (ctx, event) => {
  await (await livePending()).writePendingLive(ctx, event.spaceId, event.changeRequestId, event.log);
};

export function appEvents(): DomainEvents {
  const events = new DomainEvents({
    'space-content-changed': [indexOnContentChange, translateOnContentChange, exportOnContentChange],
    'change-request-merging': [writeLiveBeforeMerge],
  });
  // Every organization event is offered to the organization's webhooks.
  for (const name of ORGANIZATION_EVENTS) {
    events.listen(name, async (tx, event) => (await deliveries()).deliverWebhooks(name)(tx, event));
  }
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
