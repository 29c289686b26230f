import type { FastifyPluginAsync } from 'fastify';
import { sql } from 'kysely';
import { migrationsApplied, type Database } from '../db/database.ts';

/** Liveness, readiness and the API document: no token needed. */
export const healthRoutes: FastifyPluginAsync<{ database: Database }> = async (app, { database }) => {
  app.get('/healthz', { config: { policy: 'public' }, schema: { hide: true } }, async () => ({ status: 'ok' }));

  app.get('/readyz', { config: { policy: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (app.lifecycle?.draining) {
      return reply.code(503).send({ error: { code: 503, message: 'This process is shutting down; send requests to another one.' } });
    }
    try {
      await sql`select 1`.execute(database.db);
      if (!(await migrationsApplied(database))) {
        return reply.code(503).send({ error: { code: 503, message: 'The database has migrations that are not applied yet: run "bin/quire migrate".' } });
      }
      return { status: 'ready' };
    } catch (error) {
      request.log.error({ err: error }, 'readiness check failed');
      return reply.code(503).send({ error: { code: 503, message: 'The database cannot be reached.' } });
    }
  });

  app.get('/openapi.json', { config: { policy: 'public' }, schema: { hide: true } }, async () => app.swagger());
};
