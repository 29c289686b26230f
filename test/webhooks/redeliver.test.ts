import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runDueJobs } from '../../src/jobs/index.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, postSpace, type World } from '../helpers/factories.ts';
import { Receiver } from './receiver.ts';

/** POST …/deliveries/{deliveryId}/redeliver: the same message again, as a new delivery of the log. */
for (const dialect of dialects) {
  describe(`webhook redelivery [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let receiver: Receiver;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_WEBHOOK_ALLOW_PRIVATE: '1' });
      world = await createWorld(t.ctx, t.app, t.clock);
      receiver = await Receiver.start();
    });
    after(async () => {
      await receiver.close();
      await t.close();
    });

    async function drain(): Promise<void> {
      for (let round = 0; round < 10; round++) {
        t.clock.advance(1000);
        if ((await runDueJobs(t.ctx, { workerId: 'redeliver-test' })).claimed === 0) return;
      }
    }

    it('sends a delivery again with the same event and body, and refuses others', async () => {
      const hook = (await world.admin.api.post(`/v1/orgs/${world.organizationId}/webhooks`, { url: receiver.url, events: ['space.created'] })).body;
      receiver.behaviour = (index) => (index === 0 ? 500 : 200);
      await postSpace(t.clock, world.admin, world.organizationId, { title: 'Announced' });
      await drain();
      const base = `/v1/orgs/${world.organizationId}/webhooks/${hook.id}/deliveries`;
      const [first] = (await world.admin.api.get(base)).body.items as Array<{ id: string; event: string }>;

      assert.equal((await world.members.create.api.post(`${base}/${first.id}/redeliver`, {})).status, 403);
      assert.equal((await world.admin.api.post(`${base}/nope/redeliver`, {})).status, 404);
      const other = (await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/webhooks`, { url: receiver.url, events: ['space.created'] })).body;
      assert.equal((await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/webhooks/${other.id}/deliveries/${first.id}/redeliver`, {})).status, 404);

      const before = receiver.received.length;
      const again = await world.admin.api.post(`${base}/${first.id}/redeliver`, {});
      assert.equal(again.status, 201, JSON.stringify(again.body));
      assert.notEqual(again.body.id, first.id);
      assert.equal(again.body.event, 'space.created');
      assert.equal(again.body.status, 'pending');
      await drain();
      const sent = receiver.received.slice(before);
      assert.ok(sent.length >= 1);
      assert.equal(sent[sent.length - 1].body, receiver.received[0].body);
      const log = (await world.admin.api.get(base)).body.items as Array<{ id: string; status: string }>;
      assert.equal(log.find((delivery) => delivery.id === again.body.id)?.status, 'succeeded');
    });
  });
}
