import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { resolveMasterKey, type Config } from './config.ts';
import { openMigratedDatabase } from './db/database.ts';

export { openMigratedDatabase };
import { listenForJobs } from './jobs/listen.ts';
import { JobRunner } from './jobs/runner.ts';
import { scheduleAuditPrune } from './audit/retention.ts';
import { scheduleJobsPrune } from './jobs/prune.ts';
import { scheduleGarbageCollection } from './content/gc.ts';
import { listenOnChannel } from './db/notifications.ts';
import { TOKEN_REVOKED_CHANNEL } from './http/auth.ts';
import { listenForAccessChanges } from './db/memo.ts';
import { S3BlobStore } from './storage/s3.ts';
import { closeWorkerPool, configureWorkerPool } from './workers/pool.ts';
import { ensureWorkerBundle } from './workers/bundle.ts';
import { loadReaders } from './imports/conversions.ts';

/** Opens the configured database and applies pending migrations. */
/** `quire serve`: migrate, build, listen; closes cleanly on SIGINT and SIGTERM. */
export async function serve(config: Config): Promise<FastifyInstance> {
  const masterKey = resolveMasterKey(config);
  const { database, applied } = await openMigratedDatabase(config);
  configureWorkerPool({ threads: config.workers, keep: config.workersWarm });
  const app = await buildApp({ config, database, masterKey });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'applied migrations');
  const organizations = await database.db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(organizations.n) === 0) {
    app.log.info('This Quire has no organization yet. Create the first one and its admin token with: bin/quire init --org "<title>" --email <you@example.com>');
  }
  // Background work runs in every serving process; on PostgreSQL the processes share the queue without
  // running a job twice, and a NOTIFY from the enqueuing transaction wakes them at once.
  const runner = new JobRunner(app.services, {
    concurrency: config.jobConcurrency,
    onError: (error, job) => app.log.error({ err: error, job }, job ? 'background job failed' : 'background job round failed'),
    onFinished: (job, outcome, seconds) => app.metrics.job(job, outcome, seconds),
    onReleased: (count) => app.log.warn({ jobs: count }, 'took back the jobs a stopped process of this host left running'),
  });
  const listener =
    database.dialect === 'postgres'
      ? listenForJobs(config.databaseUrl, () => runner.wake(), (error) => app.log.warn({ err: error }, 'job notifications interrupted; polling meanwhile'))
      : null;
  // A token revoked by any process is forgotten by this one at once; after a (re)connection, when some
  // revocations may have been missed, the whole cache is forgotten (the cache time stays the bound anyway).
  const revocations =
    database.dialect === 'postgres'
      ? listenOnChannel(config.databaseUrl, TOKEN_REVOKED_CHANNEL, {
          onNotification: (tokenHash) => app.tokens.forget(tokenHash),
          onConnect: () => app.tokens.clear(),
          onError: (error) => app.log.warn({ err: error }, 'token revocation notifications interrupted; the token cache time bounds revocation meanwhile'),
        })
      : null;
  // Access read from memory (src/db/memo.ts) is forgotten when any process changes it; until this
  // listener is connected, access is read from the database on every request.
  const accessChanges =
    database.dialect === 'postgres'
      ? listenForAccessChanges(config.databaseUrl, (error) => app.log.warn({ err: error }, 'access change notifications interrupted; access is read from the database meanwhile'), database.schema)
      : null;
  // Fastify runs onClose once the requests in flight have been answered: then the running job finishes
  // (the ones claimed but not started go back to the queue), then the worker pool, and only then the database.
  app.addHook('onClose', async () => {
    await runner.stop();
    await closeWorkerPool();
    await listener?.close();
    await revocations?.close();
    await accessChanges?.close();
    if (app.services.blobs instanceof S3BlobStore) await app.services.blobs.destroy();
    await database.close();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => shutDown(app, config, signal));
  }
  await scheduleAuditPrune(app.services);
  await scheduleJobsPrune(app.services);
  await scheduleGarbageCollection(app.services);
  // The worker threads load the worker bundle, built again here when a source changed since it was built
  // (src/workers/bundle.ts); without it they load the TypeScript sources, seconds of CPU a thread.
  const bundle = await ensureWorkerBundle();
  if (bundle.state.usable) {
    if (bundle.built) app.log.info('worker bundle rebuilt: a source changed since it was built');
  } else app.log.warn({ reason: bundle.state.reason, file: bundle.state.file }, 'worker threads load the TypeScript sources: the worker bundle could not be built');
  // bin/quire ran the sources through tsx instead of the command line's bundle (decision 0146): said once, as
  // information, since the server is the same; the next `npm install` or `npm run build:worker` builds it again.
  const cli = (globalThis as Record<symbol, { usable: boolean; reason?: string; file?: string } | undefined>)[Symbol.for('quire.cli.bundle')];
  if (cli && !cli.usable && cli.reason !== 'off') app.log.info({ reason: cli.reason, file: cli.file }, 'started from the TypeScript sources: the command line bundle is not current (npm run build:worker builds it)');
  await app.listen({ host: config.host, port: config.port });
  runner.start();
  // QUIRE_WORKERS_WARM: the kept threads load the Markdown reader now, beside the first requests (not before
  // /readyz answers): a thread's first load costs seconds of CPU, which the first import or search index would
  // otherwise wait for (decisions/0142). A failure here is a thread's; its next task loads it again.
  const warming = performance.now();
  if (config.workersWarm) loadReaders(config.workers).then(
    () => app.log.info({ threads: config.workers, ms: Math.round(performance.now() - warming) }, 'worker pool ready: the Markdown reader is loaded in every thread'),
    (error: unknown) => app.log.warn({ err: error }, 'the worker pool could not load the Markdown reader at start; a thread loads it at its first task'),
  );
  return app;
}

/**
 * Graceful shutdown: /readyz answers 503 at once (and for QUIRE_DRAIN_SECONDS the process still serves, so
 * a load balancer can notice), then the server stops taking connections, answers the requests in flight,
 * finishes the running job and exits 0. Past QUIRE_SHUTDOWN_TIMEOUT_SECONDS it exits 1 regardless.
 */
function shutDown(app: FastifyInstance, config: Config, signal: string): void {
  app.log.info({ signal, drainSeconds: config.drainSeconds }, 'shutting down: draining');
  app.lifecycle.draining = true;
  setTimeout(() => {
    app.log.error({ timeoutSeconds: config.shutdownTimeoutSeconds }, 'shutdown took too long; exiting with work unfinished');
    process.exit(1);
  }, (config.drainSeconds + config.shutdownTimeoutSeconds) * 1000).unref();
  setTimeout(() => {
    app.close().then(
      () => {
        app.log.info('shut down cleanly');
        process.exit(0);
      },
      (error: unknown) => {
        app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  }, config.drainSeconds * 1000);
}
