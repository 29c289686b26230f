import { timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsync } from 'fastify';
import type { Config } from '../config.ts';
import type { Metrics } from './metrics.ts';

function sameSecret(given: string, expected: string): boolean {
  const a = Buffer.from(given);
  const b = Buffer.from(expected);
  return a.length === b.length && timingSafeEqual(a, b);
}

/**
 * GET /metrics in Prometheus' text format (behind `Authorization: Bearer <QUIRE_METRICS_TOKEN>` when that is
 * set), and the hook that counts every answered request by its route pattern.
 */
export const metricsRoutes: FastifyPluginAsync<{ metrics: Metrics; config: Config }> = async (app, { metrics, config }) => {
  app.get('/metrics', { config: { policy: 'public' }, schema: { hide: true } }, async (request, reply) => {
    if (config.metricsToken) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '');
      if (!match || !sameSecret(match[1], config.metricsToken)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer')
          .send({ error: { code: 401, message: 'The metrics need "Authorization: Bearer <QUIRE_METRICS_TOKEN>".' } });
      }
    }
    const text = await metrics.text();
    return reply.type(metrics.contentType).header('cache-control', 'no-store').send(text);
  });
};

/** Counts every answered request (registered on the root app, so it sees every route). */
export const requestMetrics = (metrics: Metrics): FastifyPluginAsync =>
  Object.assign(
    async (app: Parameters<FastifyPluginAsync>[0]) => {
      app.addHook('onResponse', (request, reply, done) => {
        metrics.request(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
        done();
      });
    },
    { [Symbol.for('skip-override')]: true },
  );
