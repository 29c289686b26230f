import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { runDueJobs } from '../../src/jobs/index.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { Receiver } from './receiver.ts';

/** A DeepL-compatible engine on 127.0.0.1 that answers every text as it came. */
async function echoEngine(): Promise<{ url: string; close: () => Promise<void> }> {
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as { text: string[]; source_lang?: string };
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify({ translations: body.text.map((text) => ({ detected_source_language: body.source_lang ?? 'EN', text })) }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

/**
 * Every way a space comes into being announces it: created through the API, duplicated, or made by a
 * translation's first run, each delivers `space.created` to the organization's webhooks.
 */
for (const dialect of dialects) {
  describe(`every new space is announced as space.created [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let receiver: Receiver;
    let engine: Awaited<ReturnType<typeof echoEngine>>;
    before(async () => {
      engine = await echoEngine();
      t = await createTestApp(dialect, { QUIRE_WEBHOOK_ALLOW_PRIVATE: '1', QUIRE_TRANSLATION_ENGINE: 'deepl', QUIRE_TRANSLATION_URL: engine.url, QUIRE_TRANSLATION_API_KEY: 'test-key' });
      world = await createWorld(t.ctx, t.app, t.clock);
      receiver = await Receiver.start();
      const hook = await world.admin.api.post(`/v1/orgs/${world.organizationId}/webhooks`, { url: receiver.url, events: ['space.created'] });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
    });
    after(async () => {
      await receiver.close();
      await engine.close();
      await t.close();
    });

    /** Runs the queue until nothing is due; answers the space.created deliveries received meanwhile. */
    async function announced(act: () => Promise<void>): Promise<Array<{ spaceId: string; title: string; actorId: string | null }>> {
      const from = receiver.received.length;
      await act();
      for (let round = 0; round < 20; round++) {
        t.clock.advance(60_000);
        if ((await runDueJobs(t.ctx, { workerId: 'space-created-test' })).claimed === 0) break;
      }
      return receiver.received.slice(from).map((got) => {
        const body = JSON.parse(got.body) as { event: string; data: { spaceId: string; title: string; actorId: string | null } };
        assert.equal(body.event, 'space.created');
        return body.data;
      });
    }

    it('a duplicated space delivers space.created, naming the copy and who made it', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'A', markdown: 'One.\n' }]);
      let copyId = '';
      const events = await announced(async () => {
        const copy = await world.admin.api.post(`/v1/spaces/${spaceId}/duplicate`, {});
        assert.equal(copy.status, 201, JSON.stringify(copy.body));
        copyId = copy.body.id;
      });
      assert.deepEqual(events.map((e) => e.spaceId), [copyId]);
      assert.equal(events[0].actorId, world.admin.id);
      const entry = await t.ctx.db.selectFrom('audit_log').select(['operation', 'object_ids']).where('operation', 'like', '%uplicate%').orderBy('created_at', 'desc').executeTakeFirstOrThrow();
      assert.equal(JSON.parse(entry.object_ids).created, copyId, 'the audit log names the copy the request created');
    });

    it('a translation\'s result space delivers space.created when its first run makes it, as the system\'s', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Pets', markdown: 'The dog eats the apple.\n' }]);
      let resultId: string | null = null;
      const events = await announced(async () => {
        const created = await world.admin.api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'de', source: { space: spaceId } });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        const translationId: string = created.body.id;
        t.clock.advance(60_000);
        await runDueJobs(t.ctx, { workerId: 'space-created-test' });
        resultId = (await t.ctx.db.selectFrom('translations').select('result_space_id').where('id', '=', translationId).executeTakeFirstOrThrow()).result_space_id;
      });
      assert.ok(resultId, 'the first run made the result space');
      assert.deepEqual(events.map((e) => e.spaceId), [resultId]);
      assert.equal(events[0].actorId, null);
      assert.match(events[0].title, /\(German\)$/);
    });
  });
}
