import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { buildApp } from '../../src/app.ts';
import { inTransaction } from '../../src/context.ts';
import { enqueue, JobRegistry, JobRunner, runDueJobs } from '../../src/jobs/index.ts';
import { listenForJobs } from '../../src/jobs/listen.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { testJob } from '../helpers/jobs.ts';
import { createWorld, type World } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`metrics, limits, readiness [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_METRICS_TOKEN: 'scrape-secret', QUIRE_RATE_LIMIT: '5', QUIRE_RATE_LIMIT_WINDOW_SECONDS: '60' });
      world = await createWorld(t.ctx, t.app);
    });
    after(() => t.close());

    const scrape = (token?: string) => t.app.inject({ method: 'GET', url: '/metrics', headers: token ? { authorization: `Bearer ${token}` } : {} });

    it('serves Prometheus text behind QUIRE_METRICS_TOKEN: requests by route and status, jobs, the queue', async () => {
      const refused = await scrape();
      assert.equal(refused.statusCode, 401);
      assert.equal(JSON.parse(refused.body).error.code, 401);
      assert.equal((await scrape('wrong-secret!')).statusCode, 401);

      await t.app.inject({ method: 'GET', url: '/v1/orgs/nope', headers: { authorization: 'Bearer nope' } });
      const metricsProbeJob = testJob({ kind: 'metrics-probe', run: async () => undefined });
      const registry = new JobRegistry([metricsProbeJob.handler]);
      await enqueue(t.ctx, metricsProbeJob, {});
      await enqueue(t.ctx, metricsProbeJob, {}, { runAt: new Date(t.clock.now().getTime() - 30_000) });
      const text = (await scrape('scrape-secret')).body;
      assert.match(text, /^quire_http_requests_total\{method="GET",route="\/v1\/orgs\/:organizationId",status="401"\} 1$/m);
      assert.match(text, /^quire_http_request_duration_seconds_bucket\{le="\+Inf",method="GET",route="\/v1\/orgs\/:organizationId"\} 1$/m);
      assert.match(text, /^quire_jobs_queued\{kind="metrics-probe",status="pending"\} 2$/m);
      assert.match(text, /^quire_jobs_oldest_due_seconds\{kind="metrics-probe"\} 30$/m);
      assert.match(text, /^quire_process_resident_memory_bytes \d+/m);

      await runDueJobs(t.ctx, { workerId: 'w', registry, onFinished: (job, outcome, seconds) => t.app.metrics.job(job, outcome, seconds) });
      const after = (await scrape('scrape-secret')).body;
      assert.match(after, /^quire_jobs_total\{kind="metrics-probe",outcome="done"\} 2$/m);
      assert.doesNotMatch(after, /^quire_jobs_queued\{kind="metrics-probe"/m);
    });

    it('limits requests per token with the X-RateLimit headers, and answers 429 in the error shape', async () => {
      const limited = world.members.read;
      const answers = [];
      for (let i = 0; i < 6; i++) answers.push(await limited.api.get(`/v1/orgs/${world.organizationId}`));
      assert.deepEqual(answers.map((a) => a.status), [200, 200, 200, 200, 200, 429]);
      assert.equal(answers[0].headers['x-ratelimit-limit'], '5');
      assert.equal(answers[0].headers['x-ratelimit-remaining'], '4');
      assert.ok(Number(answers[0].headers['x-ratelimit-reset']) > 0);
      const refused = answers[5];
      assert.equal(refused.body.error.code, 429);
      assert.match(refused.body.error.message, /5 requests per 60 seconds/);
      assert.ok(Number(refused.headers['retry-after']) > 0);
      // Another token has its own count; probes are never limited.
      assert.equal((await world.members.edit.api.get(`/v1/orgs/${world.organizationId}`)).status, 200);
      for (let i = 0; i < 7; i++) assert.equal((await t.app.inject({ method: 'GET', url: '/healthz' })).statusCode, 200);
    });

    if (dialect === 'postgres') {
      it('wakes a worker through NOTIFY when a job is committed, long before its next poll', { timeout: 30_000 }, async () => {
        let ran!: () => void;
        const done = new Promise<void>((resolve) => (ran = resolve));
        const wakeProbeJob = testJob({ kind: 'wake-probe', run: async () => ran() });
        const registry = new JobRegistry([wakeProbeJob.handler]);
        // A poll once an hour: only the notification can start the job within the test's time.
        const runner = new JobRunner(t.app.services, { registry, intervalMs: 3_600_000 });
        let listening!: () => void;
        const ready = new Promise<void>((resolve) => (listening = resolve));
        const listener = listenForJobs(process.env.TEST_DATABASE_URL!, () => {
          listening();
          runner.wake();
        }, (error) => assert.fail(String(error)));
        try {
          runner.start();
          await ready; // the listener wakes the runner once when it has connected
          await inTransaction(t.ctx, (tx) => enqueue(tx, wakeProbeJob, {}));
          await done;
        } finally {
          await runner.stop();
          await listener.close();
        }
      });

      it('shares the counts between processes on one PostgreSQL database', async () => {
        const other = await buildApp({ config: t.config, database: t.database, masterKey: Buffer.alloc(32, 7), logger: false });
        try {
          const headers = { authorization: 'Bearer shared-count' };
          for (let i = 0; i < 3; i++) await t.app.inject({ method: 'GET', url: '/v1/user', headers });
          const answers = [];
          for (let i = 0; i < 3; i++) answers.push((await other.inject({ method: 'GET', url: '/v1/user', headers })).statusCode);
          assert.deepEqual(answers, [401, 401, 429]);
        } finally {
          await other.close();
        }
      });
    }

    it('answers /readyz 503 while the process drains', async () => {
      assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      t.app.lifecycle.draining = true;
      const draining = await t.app.inject({ method: 'GET', url: '/readyz' });
      t.app.lifecycle.draining = false;
      assert.equal(draining.statusCode, 503);
      assert.match(JSON.parse(draining.body).error.message, /shutting down/);
    });

    it('gives the jobs a stopping worker claimed but did not start back to the queue, unspent', async () => {
      await t.ctx.db.deleteFrom('jobs').execute();
      const ran: string[] = [];
      let stop = false;
      const stopProbeJob = testJob<{ n: string }>({
        kind: 'stop-probe',
        run: async (_ctx, payload) => {
          ran.push(payload.n);
          stop = true; // the signal comes while the first job runs
        },
      });
      const registry = new JobRegistry([stopProbeJob.handler]);
      for (const n of ['a', 'b', 'c']) {
        await enqueue(t.ctx, stopProbeJob, { n });
        t.clock.advance(1);
      }
      await runDueJobs(t.ctx, { workerId: 'w', registry, stopping: () => stop });
      assert.deepEqual(ran, ['a']);
      const rows = await t.ctx.db.selectFrom('jobs').select(['status', 'attempts', 'locked_by']).orderBy('run_at').execute();
      assert.deepEqual(rows, [
        { status: 'done', attempts: 1, locked_by: null },
        { status: 'pending', attempts: 0, locked_by: null },
        { status: 'pending', attempts: 0, locked_by: null },
      ]);
    });
  });
}
