import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.ts';
import { resolveMasterKey, type Config } from './config.ts';
import { migrateToLatest, openDatabase, type Database } from './db/database.ts';
import { JobRunner } from './jobs/runner.ts';
import { scheduleAuditPrune } from './audit/retention.ts';

/** Opens the configured database and applies pending migrations. */
export async function openMigratedDatabase(config: Config): Promise<{ database: Database; applied: string[] }> {
  const database = openDatabase(config.databaseUrl);
  try {
    const applied = await migrateToLatest(database);
    return { database, applied };
  } catch (error) {
    await database.close();
    throw error;
  }
}

/** `quire serve`: migrate, build, listen; closes cleanly on SIGINT and SIGTERM. */
export async function serve(config: Config): Promise<FastifyInstance> {
  const masterKey = resolveMasterKey(config);
  const { database, applied } = await openMigratedDatabase(config);
  const app = await buildApp({ config, database, masterKey });
  if (applied.length > 0) app.log.info({ migrations: applied }, 'applied migrations');
  const organizations = await database.db.selectFrom('organizations').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  if (Number(organizations.n) === 0) {
    app.log.info('This Quire has no organization yet. Create the first one and its admin token with: bin/quire init --org "<title>" --email <you@example.com>');
  }
  // Background work (purging the trash, and later imports and exports) runs in every serving process;
  // on PostgreSQL the processes share the queue without running a job twice.
  const runner = new JobRunner(app.services, {
    onError: (error, job) => app.log.error({ err: error, job }, job ? 'background job failed' : 'background job round failed'),
  });
  app.addHook('onClose', async () => {
    await runner.stop();
    await database.close();
  });
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      app.log.info({ signal }, 'shutting down');
      app.close().then(() => process.exit(0), () => process.exit(1));
    });
  }
  await scheduleAuditPrune(app.services);
  await app.listen({ host: config.host, port: config.port });
  runner.start();
  return app;
}
