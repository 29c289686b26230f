import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { testJob } from '../helpers/jobs.ts';
import { enqueue, JobRegistry, runDueJobs } from '../../src/jobs/index.ts';
import { releaseJobsOfDeadWorkers } from '../../src/jobs/queue.ts';

/**
 * The jobs a killed process left running (test/hardening/crash.test.ts kills real ones): a worker starting
 * on the same host ends the leases of dead workers of that host, and only theirs, so the jobs are taken
 * over at once instead of after their lease (up to 30 minutes).
 */
for (const dialect of dialects) {
  describe(`jobs left running by a killed process [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    it('takes back the jobs of dead workers of this host at once, and leaves live and foreign workers\' alone', async () => {
      const ran: number[] = [];
      const recordJob = testJob<{ n: number }>({ kind: 'record', run: async (_ctx, payload) => void ran.push(payload.n) });
      const registry = new JobRegistry([recordJob.handler]);
      const workers = {
        dead: 'box:4242:aaaaaa', // this host, a process that is gone
        alive: 'box:4343:bbbbbb', // this host, a process that still runs
        elsewhere: 'other-box:4242:cccccc', // another host: nothing can be known about it
        reused: `box:${process.pid}:dddddd`, // this host, this very pid under another name: a previous run
        colons: 'box:with:colons:4242:eeeeee', // a host name with colons is not this host
      };
      const ids: Record<string, string> = {};
      for (const name of Object.keys(workers)) {
        const id = await enqueue(t.ctx, recordJob, { n: Object.keys(ids).length });
        ids[name] = id;
      }
      // Each claimed by its worker, as a killed process leaves them: running, leased for five minutes.
      const leased = new Date(t.clock.now().getTime() + 5 * 60_000).toISOString();
      for (const [name, worker] of Object.entries(workers)) {
        await t.ctx.db.updateTable('jobs').set({ status: 'running', attempts: 1, locked_by: worker, locked_until: leased }).where('id', '=', ids[name]).execute();
      }
      assert.equal((await runDueJobs(t.ctx, { workerId: 'box:1:ffffff', registry })).claimed, 0, 'leased jobs are not due');

      const released = await releaseJobsOfDeadWorkers(t.ctx, { host: 'box', workerId: 'box:1:ffffff' }, (pid) => pid === 4343);
      assert.equal(released, 2);
      const report = await runDueJobs(t.ctx, { workerId: 'box:1:ffffff', registry });
      assert.equal(report.done, 2);
      assert.deepEqual(ran.sort(), [0, 3]);
      const status = async (name: string) => (await t.ctx.db.selectFrom('jobs').select(['status', 'attempts']).where('id', '=', ids[name]).executeTakeFirstOrThrow());
      assert.deepEqual(await status('dead'), { status: 'done', attempts: 2 }, 'taken over as an expired lease: one more attempt');
      assert.deepEqual(await status('reused'), { status: 'done', attempts: 2 });
      for (const name of ['alive', 'elsewhere', 'colons']) assert.equal((await status(name)).status, 'running', `${name} keeps its lease`);
      // Its own jobs are never released.
      assert.equal(await releaseJobsOfDeadWorkers(t.ctx, { host: 'box', workerId: workers.alive }, () => false), 0);
    });
  });
}
