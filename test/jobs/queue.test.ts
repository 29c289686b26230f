import assert from 'node:assert/strict';
import { setTimeout as sleep } from 'node:timers/promises';
import { after, before, beforeEach, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { testJob } from '../helpers/jobs.ts';
import { inTransaction } from '../../src/context.ts';
import { enqueue, JobRegistry, JobRunner, runDueJobs, type JobInfo } from '../../src/jobs/index.ts';
import { defaultBackoffMs, defineJob, handle } from '../../src/jobs/types.ts';
import { runJobsPrune, scheduleJobsPrune } from '../../src/jobs/prune.ts';
import { pruneJobsJob } from '../../src/jobs/prune-job.ts';

const DAY = 24 * 60 * 60 * 1000;
/** Kinds that no registry of these tests runs. */
const noopJob = defineJob<{ n: number }>({ kind: 'noop' });
const mysteryJob = defineJob<Record<string, never>>({ kind: 'mystery' });

for (const dialect of dialects) {
  describe(`job queue [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());
    beforeEach(async () => {
      await t.ctx.db.deleteFrom('jobs').execute();
    });

    const job = (id: string) => t.ctx.db.selectFrom('jobs').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const jobCount = async () => Number((await t.ctx.db.selectFrom('jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);

    it('writes a job in the caller\'s transaction: it exists only if the transaction commits', async () => {
      await assert.rejects(
        inTransaction(t.ctx, async (tx) => {
          await enqueue(tx, noopJob, { n: 1 });
          throw new Error('the write failed');
        }),
        /the write failed/,
      );
      assert.equal(await jobCount(), 0);
      const id = await inTransaction(t.ctx, (tx) => enqueue(tx, noopJob, { n: 2 }));
      const stored = await job(id);
      assert.equal(stored.status, 'pending');
      assert.equal(stored.payload, '{"n":2}');
      assert.equal(stored.run_at, t.clock.now().toISOString());
      assert.equal(stored.attempts, 0);
      assert.equal(stored.max_attempts, 5);
    });

    it('runs due jobs only, with their payload, and marks them done', async () => {
      const seen: Array<[unknown, JobInfo]> = [];
      const recordJob = testJob<{ n: number }>({ kind: 'record', run: async (_ctx, payload, info) => void seen.push([payload, info]) });
      const registry = new JobRegistry([recordJob.handler]);
      const now = await enqueue(t.ctx, recordJob, { n: 1 });
      const later = await enqueue(t.ctx, recordJob, { n: 2 }, { runAt: new Date(t.clock.now().getTime() + 60_000) });
      const report = await runDueJobs(t.ctx, { workerId: 'w1', registry });
      assert.deepEqual(report, { claimed: 1, done: 1, rescheduled: 0, retried: 0, failed: 0 });
      assert.deepEqual(seen.map(([payload]) => payload), [{ n: 1 }]);
      assert.equal(seen[0][1].attempts, 1);
      const done = await job(now);
      assert.equal(done.status, 'done');
      assert.equal(done.finished_at, t.clock.now().toISOString());
      assert.equal(done.locked_by, null);
      assert.equal((await job(later)).status, 'pending');
      t.clock.advance(60_000);
      await runDueJobs(t.ctx, { workerId: 'w1', registry });
      assert.deepEqual(seen.map(([payload]) => payload), [{ n: 1 }, { n: 2 }]);
    });

    it('retries a failing job with exponential backoff, keeping the last error, until it succeeds', async () => {
      let calls = 0;
      const errors: unknown[] = [];
      const flakyJob = testJob({
        kind: 'flaky',
        maxAttempts: 4,
        backoffMs: (attempt) => 1000 * 2 ** (attempt - 1),
        run: async () => {
          calls++;
          if (calls < 3) throw new Error(`failure ${calls}`);
        },
      });
      const registry = new JobRegistry([flakyJob.handler]);
      const id = await enqueue(t.ctx, flakyJob, {});
      const options = { workerId: 'w1', registry, onError: (error: unknown) => void errors.push(error) };
      assert.equal((await runDueJobs(t.ctx, options)).retried, 1);
      let stored = await job(id);
      assert.equal(stored.status, 'pending');
      assert.equal(stored.attempts, 1);
      assert.equal(stored.last_error, 'failure 1');
      assert.equal(stored.run_at, new Date(t.clock.now().getTime() + 1000).toISOString());
      assert.equal((await runDueJobs(t.ctx, options)).claimed, 0, 'not due before its backoff');
      t.clock.advance(1000);
      await runDueJobs(t.ctx, options);
      stored = await job(id);
      assert.equal(stored.attempts, 2);
      assert.equal(stored.last_error, 'failure 2');
      assert.equal(stored.run_at, new Date(t.clock.now().getTime() + 2000).toISOString(), 'the wait doubles');
      t.clock.advance(2000);
      assert.equal((await runDueJobs(t.ctx, options)).done, 1);
      stored = await job(id);
      assert.equal(stored.status, 'done');
      assert.equal(stored.attempts, 3);
      assert.equal(stored.last_error, 'failure 2', 'the last error stays for the record');
      assert.equal(errors.length, 2);
      assert.deepEqual([defaultBackoffMs(1), defaultBackoffMs(2), defaultBackoffMs(3), defaultBackoffMs(20)], [30_000, 60_000, 120_000, 3_600_000]);
    });

    it('marks a job failed after its last attempt, and fails jobs of an unknown kind the same way', async () => {
      const brokenJob = testJob({ kind: 'broken', maxAttempts: 2, backoffMs: () => 10, singletonKey: () => 'broken:1', run: async () => { throw new Error('always'); } });
      const registry = new JobRegistry([brokenJob.handler]);
      const id = await enqueue(t.ctx, brokenJob, {});
      assert.equal((await job(id)).singleton_key, 'broken:1');
      await runDueJobs(t.ctx, { workerId: 'w1', registry });
      t.clock.advance(10);
      const report = await runDueJobs(t.ctx, { workerId: 'w1', registry });
      assert.equal(report.failed, 1);
      const failed = await job(id);
      assert.equal(failed.status, 'failed');
      assert.equal(failed.attempts, 2);
      assert.equal(failed.last_error, 'always');
      assert.equal(failed.finished_at, t.clock.now().toISOString());
      assert.equal(failed.singleton_key, null, 'a finished job gives its key up');
      t.clock.advance(60 * 60 * 1000);
      assert.equal((await runDueJobs(t.ctx, { workerId: 'w1', registry })).claimed, 0, 'never run again');
      assert.notEqual(await enqueue(t.ctx, brokenJob, {}), id, 'the key can be used again');

      const unknown = await enqueue(t.ctx, mysteryJob, {}, { maxAttempts: 1 });
      await runDueJobs(t.ctx, { workerId: 'w1', registry });
      const stored = await job(unknown);
      assert.equal(stored.status, 'failed');
      assert.match(stored.last_error ?? '', /No handler is registered for jobs of kind "mystery"/);
    });

    it('checks a payload against its definition at compile time', () => {
      const typed = defineJob<{ spaceId: string }>({ kind: 'typed' });
      // Never called: the compiler refuses each of these (a wrong field, a wrong type, a missing field).
      const refused = (tx: typeof t.ctx) => [
        // @ts-expect-error `spaceID` is not a field of the payload
        enqueue(tx, typed, { spaceID: 'a' }),
        // @ts-expect-error `spaceId` is a string
        enqueue(tx, typed, { spaceId: 1 }),
        // @ts-expect-error `spaceId` is required
        enqueue(tx, typed, {}),
      ];
      assert.equal(typeof refused, 'function');
    });

    it('keeps one pending job per singleton key: enqueueing again moves it; a running one is left alone', async () => {
      const singleJob = testJob<{ id: string }>({ kind: 'single', singletonKey: (p) => `single:${p.id}`, run: async () => {} });
      const first = await enqueue(t.ctx, singleJob, { id: 'a' }, { runAt: new Date(t.clock.now().getTime() + 1000) });
      const second = await enqueue(t.ctx, singleJob, { id: 'a' }, { runAt: new Date(t.clock.now().getTime() + 5000) });
      assert.equal(second, first);
      assert.equal(await jobCount(), 1);
      assert.equal((await job(first)).run_at, new Date(t.clock.now().getTime() + 5000).toISOString());
      await enqueue(t.ctx, singleJob, { id: 'b' });
      assert.equal(await jobCount(), 2);
      await t.ctx.db.updateTable('jobs').set({ status: 'running', locked_by: 'elsewhere', locked_until: new Date(t.clock.now().getTime() + 60_000).toISOString() }).where('id', '=', first).execute();
      assert.equal(await enqueue(t.ctx, singleJob, { id: 'a' }), first);
      assert.equal((await job(first)).status, 'running');
      assert.equal(await jobCount(), 2);
    });

    it('takes over a running job whose worker stopped once its lease has passed, counting the attempt', async () => {
      const runs: string[] = [];
      const leaseJob = testJob({ kind: 'lease', run: async (_ctx, _p, info) => void runs.push(info.id) });
      const registry = new JobRegistry([leaseJob.handler]);
      const id = await enqueue(t.ctx, leaseJob, {});
      await t.ctx.db
        .updateTable('jobs')
        .set({ status: 'running', locked_by: 'crashed', attempts: 1, locked_until: new Date(t.clock.now().getTime() + 60_000).toISOString() })
        .where('id', '=', id)
        .execute();
      assert.equal((await runDueJobs(t.ctx, { workerId: 'w2', registry })).claimed, 0, 'the lease holds');
      t.clock.advance(60_000);
      assert.equal((await runDueJobs(t.ctx, { workerId: 'w2', registry })).done, 1);
      const stored = await job(id);
      assert.equal(stored.status, 'done');
      assert.equal(stored.attempts, 2);
      assert.deepEqual(runs, [id]);
    });

    it('never runs a job twice when several workers claim at the same time', async () => {
      const runs = new Map<string, string[]>();
      const countJob = testJob({
        kind: 'count',
        run: async (_ctx, _payload, info) => {
          runs.set(info.id, [...(runs.get(info.id) ?? []), 'run']);
          await sleep(2);
        },
      });
      const registry = new JobRegistry([countJob.handler]);
      const ids: string[] = [];
      for (let i = 0; i < 40; i++) ids.push(await enqueue(t.ctx, countJob, { i }));
      const byWorker = new Map<string, number>();
      const worker = async (name: string) => {
        for (;;) {
          const report = await runDueJobs(t.ctx, { workerId: name, registry, limit: 5 });
          byWorker.set(name, (byWorker.get(name) ?? 0) + report.claimed);
          if (report.claimed === 0) return;
        }
      };
      await Promise.all(['w1', 'w2', 'w3', 'w4'].map(worker));
      assert.deepEqual([...runs.keys()].sort(), [...ids].sort(), 'every job ran');
      assert.ok([...runs.values()].every((r) => r.length === 1), 'no job ran twice');
      assert.equal([...byWorker.values()].reduce((a, b) => a + b, 0), 40);
      const statuses = await t.ctx.db.selectFrom('jobs').select('status').distinct().execute();
      assert.deepEqual(statuses.map((s) => s.status), ['done']);
      if (dialect === 'postgres') assert.ok([...byWorker.values()].filter((n) => n > 0).length > 1, 'the work was shared');
    });

    it('runs the jobs of one queue key one at a time, in enqueue order, beside other keys; a retry holds the later ones', async () => {
      const ran: string[] = [];
      let failFirst = true;
      const keyedJob = testJob<{ key: string; n: number }>({
        kind: 'keyed',
        queueKey: (payload) => payload.key,
        run: async (_ctx, payload) => {
          if (payload.key === 'a' && payload.n === 1 && failFirst) {
            failFirst = false;
            throw new Error('the first run of a1 fails');
          }
          ran.push(`${payload.key}${payload.n}`);
        },
      });
      const registry = new JobRegistry([keyedJob.handler]);
      for (const [key, n] of [['a', 1], ['a', 2], ['b', 1], ['a', 3], ['b', 2]] as const) {
        await enqueue(t.ctx, keyedJob, { key, n });
        t.clock.advance(1);
      }
      const round = () => runDueJobs(t.ctx, { workerId: 'w1', registry, limit: 10 });
      assert.deepEqual(await round(), { claimed: 2, done: 1, rescheduled: 0, retried: 1, failed: 0 }, 'a1 and b1 only; a1 fails');
      assert.deepEqual(ran, ['b1']);
      assert.deepEqual((await round()).claimed, 1, 'b2; a2 waits for the retry of a1');
      assert.deepEqual(ran, ['b1', 'b2']);
      t.clock.advance(defaultBackoffMs(1));
      await round();
      await round();
      await round();
      assert.deepEqual(ran, ['b1', 'b2', 'a1', 'a2', 'a3']);
      assert.equal((await round()).claimed, 0);
    });

    it('keeps a queue key one at a time and in order across workers claiming at the same time', async () => {
      const running = new Map<string, number>();
      const order = new Map<string, number[]>();
      let overlaps = 0;
      const keyedSharedJob = testJob<{ key: string; n: number }>({
        kind: 'keyed-shared',
        queueKey: (payload) => payload.key,
        run: async (_ctx, payload) => {
          if ((running.get(payload.key) ?? 0) > 0) overlaps++;
          running.set(payload.key, (running.get(payload.key) ?? 0) + 1);
          order.set(payload.key, [...(order.get(payload.key) ?? []), payload.n]);
          await sleep(2);
          running.set(payload.key, running.get(payload.key)! - 1);
        },
      });
      const registry = new JobRegistry([keyedSharedJob.handler]);
      for (let n = 0; n < 6; n++) {
        for (const key of ['s1', 's2', 's3', 's4']) await enqueue(t.ctx, keyedSharedJob, { key, n });
        t.clock.advance(1);
      }
      const runners = ['r1', 'r2', 'r3'].map((workerId) => new JobRunner(t.ctx, { workerId, registry, intervalMs: 5, concurrency: 3 }));
      for (const runner of runners) runner.start();
      try {
        const deadline = Date.now() + 20_000;
        while ([...order.values()].reduce((sum, runs) => sum + runs.length, 0) < 24 && Date.now() < deadline) await sleep(5);
      } finally {
        await Promise.all(runners.map((runner) => runner.stop()));
      }
      assert.equal(overlaps, 0, 'never two jobs of one key at once');
      for (const key of ['s1', 's2', 's3', 's4']) assert.deepEqual(order.get(key), [0, 1, 2, 3, 4, 5], `${key} in enqueue order`);
    });

    it('JobRunner runs several jobs at once: a long job does not hold up the others, and stop waits for it', async () => {
      let release!: () => void;
      const gate = new Promise<void>((resolve) => (release = resolve));
      const done: string[] = [];
      const longJob = testJob({ kind: 'long', run: async () => { await gate; done.push('long'); } });
      const shortJob = testJob<{ n: number }>({ kind: 'short', run: async (_ctx, payload) => void done.push(`short${payload.n}`) });
      const registry = new JobRegistry([longJob.handler, shortJob.handler]);
      await enqueue(t.ctx, longJob, {});
      t.clock.advance(1);
      for (let n = 1; n <= 3; n++) await enqueue(t.ctx, shortJob, { n });
      const runner = new JobRunner(t.ctx, { workerId: 'runner', intervalMs: 5, concurrency: 2, registry });
      runner.start();
      try {
        const deadline = Date.now() + 10_000;
        while ((done.length < 3 || runner.active > 1) && Date.now() < deadline) await sleep(5);
        assert.deepEqual([...done].sort(), ['short1', 'short2', 'short3'], 'the short jobs ran while the long one waited');
        assert.equal(runner.active, 1, 'the long job is still in flight');
      } catch (error) {
        release();
        await runner.stop();
        throw error;
      }
      const stopped = runner.stop();
      await sleep(20);
      assert.equal(done.includes('long'), false, 'stop waits for the job in flight');
      release();
      await stopped;
      assert.deepEqual(done.at(-1), 'long');
      assert.equal((await t.ctx.db.selectFrom('jobs').select('status').where('kind', '=', 'long').executeTakeFirstOrThrow()).status, 'done');
    });

    it('removes finished jobs past their keeping time: done after 7 days, failed after 30; nothing else', async () => {
      const okJob = testJob({ kind: 'ok', run: async () => {} });
      const brokenJob = testJob({ kind: 'broken', maxAttempts: 1, run: async () => { throw new Error('always'); } });
      const registry = new JobRegistry([okJob.handler, brokenJob.handler]);
      const done = await enqueue(t.ctx, okJob, {});
      const failed = await enqueue(t.ctx, brokenJob, {});
      await runDueJobs(t.ctx, { workerId: 'w1', registry });
      assert.deepEqual([(await job(done)).status, (await job(failed)).status], ['done', 'failed']);
      const later = await enqueue(t.ctx, okJob, {}, { runAt: new Date(t.clock.now().getTime() + 60 * DAY) });
      const prune = () => runDueJobs(t.ctx, { workerId: 'w1', registry: new JobRegistry([handle(pruneJobsJob, runJobsPrune)]) });
      const exists = async (id: string) => (await t.ctx.db.selectFrom('jobs').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
      await scheduleJobsPrune(t.ctx);
      t.clock.advance(6 * DAY);
      await prune();
      assert.deepEqual([await exists(done), await exists(failed)], [true, true], 'kept within 7 days');
      t.clock.advance(2 * DAY);
      await prune();
      assert.deepEqual([await exists(done), await exists(failed)], [false, true], 'done jobs go after 7 days, failed ones stay');
      t.clock.advance(23 * DAY);
      await prune();
      assert.equal(await exists(failed), false, 'failed jobs go after 30 days');
      assert.equal((await job(later)).status, 'pending', 'a pending job is never pruned');
      assert.equal(await t.ctx.db.selectFrom('jobs').select('id').where('kind', '=', 'jobs-prune').where('status', '=', 'pending').executeTakeFirst().then(Boolean), true, 'the schedule stays');
    });

    it('JobRunner polls until stopped, and stop waits for the round in progress', async () => {
      const done: number[] = [];
      const tickJob = testJob<{ n: number }>({ kind: 'tick', run: async (_ctx, payload) => { await sleep(5); done.push(payload.n); } });
      const registry = new JobRegistry([tickJob.handler]);
      const errors: unknown[] = [];
      const runner = new JobRunner(t.ctx, { workerId: 'runner', intervalMs: 5, limit: 2, registry, onError: (error) => void errors.push(error) });
      runner.start();
      for (let n = 1; n <= 5; n++) await enqueue(t.ctx, tickJob, { n });
      const deadline = Date.now() + 5000;
      while (done.length < 5 && Date.now() < deadline) await sleep(5);
      await runner.stop();
      assert.deepEqual([...done].sort(), [1, 2, 3, 4, 5]);
      await enqueue(t.ctx, tickJob, { n: 6 });
      await sleep(30);
      assert.equal(done.length, 5, 'nothing runs after stop');
      assert.deepEqual(errors, []);
      assert.equal(await runner.tick(), 1, 'a single round on demand');
    });
  });
}
