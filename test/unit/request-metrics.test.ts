import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Kysely } from 'kysely';
import { Counter, Histogram, Registry } from 'prom-client';
import type { DB } from '../../src/db/types.ts';
import { Metrics } from '../../src/operations/metrics.ts';

/** The requests' series as prom-client's own Counter and Histogram give them, for the same answers. */
function promClientSeries(answers: Array<[string, string, number, number]>) {
  const registry = new Registry();
  const registers = [registry];
  const requests = new Counter({ name: 'quire_http_requests_total', help: 'HTTP requests answered, by route pattern and status', labelNames: ['method', 'route', 'status'], registers });
  const latency = new Histogram({
    name: 'quire_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route pattern',
    labelNames: ['method', 'route'],
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers,
  });
  for (const [method, route, status, seconds] of answers) {
    requests.inc({ method, route, status: String(status) });
    latency.observe({ method, route }, seconds);
  }
  return registry;
}

/** A metric's text, its lines sorted (the series of two routes may come in another order; Prometheus reads them alike). */
async function lines(registry: Registry, name: string): Promise<string[]> {
  return (await registry.getSingleMetricAsString(name)).split('\n').sort();
}

describe('request metrics', () => {
  const answers: Array<[string, string, number, number]> = [
    ['GET', '/v1/orgs/:organizationId', 200, 0.0004],
    ['GET', '/v1/spaces/:spaceId/content/pages', 200, 0.0031],
    ['GET', '/v1/orgs/:organizationId', 401, 0.001],
    ['POST', '/v1/orgs/:organizationId/spaces', 201, 0.012],
    ['GET', 'unmatched', 404, 0.0002],
    ['GET', '/v1/orgs/:organizationId', 200, 12.5],
    ['GET', '/v1/spaces/:spaceId/content/pages', 304, 0.0025],
    ['GET', '/v1/orgs/:organizationId', 200, 0.25],
  ];

  it('gives the same requests counter and latency histogram as prom-client for the same answers', async () => {
    const metrics = new Metrics({} as Kysely<DB>);
    for (const [method, route, status, seconds] of answers) metrics.request(method, route, status, seconds);
    const expected = promClientSeries(answers);
    for (const name of ['quire_http_requests_total', 'quire_http_request_duration_seconds']) {
      const got = await lines(metrics.registry, name);
      assert.ok(got.length > 4, `${name} has its series`);
      assert.deepEqual(got, await lines(expected, name), name);
    }
    // And as JSON (prom-client's get()), each value with all its labels.
    for (const name of ['quire_http_requests_total', 'quire_http_request_duration_seconds']) {
      const json = async (registry: Registry) => {
        const metric = await registry.getSingleMetric(name)!.get();
        return { ...metric, values: metric.values.map((value) => JSON.stringify(value)).sort() };
      };
      assert.deepEqual(await json(metrics.registry), await json(expected), name);
    }
  });

  it('forgets the requests when the registry is reset', async () => {
    const metrics = new Metrics({} as Kysely<DB>);
    metrics.request('GET', '/healthz', 200, 0.001);
    assert.match(await metrics.registry.getSingleMetricAsString('quire_http_requests_total'), /route="\/healthz",status="200"\} 1$/m);
    metrics.registry.resetMetrics();
    assert.doesNotMatch(await metrics.registry.getSingleMetricAsString('quire_http_requests_total'), /healthz/);
  });
});
