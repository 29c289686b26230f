import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { dialects } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { createGitTestApp, lastOperation, runJobs } from '../git/helpers.ts';
import { PASSWORD, startGitServer, type GitServer } from '../git/server.ts';
import { fixture } from '../openapi/helpers.ts';
import { Receiver } from './receiver.ts';
import { needs } from '../helpers/system.ts';

/**
 * The events that the reviews, Git Sync, translation and OpenAPI engines announce reach an organization's
 * webhooks, each with the payload its subscribers rely on, and reach only the webhooks that asked for it.
 * Delivery itself (signatures, retries) is covered in webhooks.test.ts; here each engine is driven for real
 * (a review through the API, a Git import from a real repository over smart HTTP, a translation by
 * Apertium, an OpenAPI description processed by its job).
 */
for (const dialect of dialects) {
  describe(`events announced by the engines reach webhooks [${dialect}]`, { skip: needs('git', 'apertium') }, () => {
    let t: Awaited<ReturnType<typeof createGitTestApp>>;
    let world: World;
    let receiver: Receiver;
    let remote: GitServer;
    let orgUrl: string;
    before(async () => {
      t = await createGitTestApp(dialect, { QUIRE_WEBHOOK_ALLOW_PRIVATE: '1', QUIRE_TRANSLATION_ENGINE: 'apertium' });
      world = await createWorld(t.ctx, t.app, t.clock);
      receiver = await Receiver.start();
      remote = await startGitServer();
      orgUrl = `/v1/orgs/${world.organizationId}`;
    });
    after(async () => {
      await receiver.close();
      await remote.close();
      await t.close();
    });

    /** Registers a webhook for `events`, runs `act`, and answers the events delivered to the receiver for it. */
    async function deliveredDuring(events: string[], act: () => Promise<void>): Promise<Array<{ event: string; data: Record<string, any> }>> {
      const hook = await world.admin.api.post(`${orgUrl}/webhooks`, { url: receiver.url, events });
      assert.equal(hook.status, 201, JSON.stringify(hook.body));
      const from = receiver.received.length;
      await act();
      t.clock.advance(120_000);
      await runJobs(t.ctx);
      assert.equal((await world.admin.api.delete(`${orgUrl}/webhooks/${hook.body.id}`)).status, 205);
      return receiver.received.slice(from).map((got) => {
        const body = JSON.parse(got.body) as { event: string; data: Record<string, any> };
        assert.equal(got.headers['x-quire-event'], body.event);
        return body;
      });
    }

    it('announces a review of a change request: change_request.reviewed with the reviewer and the status', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'A', markdown: 'One.\n' }]);
      const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edits' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const events = await deliveredDuring(['change_request.reviewed'], async () => {
        const review = await world.members.review.api.post(`/v1/spaces/${spaceId}/change-requests/${created.body.id}/reviews`, { status: 'approved' });
        assert.equal(review.status, 201, JSON.stringify(review.body));
      });
      assert.equal(events.length, 1, JSON.stringify(events));
      assert.equal(events[0].event, 'change_request.reviewed');
      assert.equal(JSON.stringify(events[0]).includes(created.body.id), true, 'the payload names the change request');
      assert.equal(JSON.stringify(events[0]).includes('approved'), true, 'the payload carries the status');
    });

    it('announces a Git import: git_sync.started, then git_sync.completed with its result', async () => {
      remote.createRepo('events', { 'README.md': '# Welcome\n\nHello.\n', 'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n' });
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, []);
      const events = await deliveredDuring(['git_sync.started', 'git_sync.completed'], async () => {
        const reply = await world.members.edit.api.post(`/v1/spaces/${spaceId}/git/import`, { url: remote.url('events'), ref: 'refs/heads/main' });
        assert.equal(reply.status, 204, JSON.stringify(reply.body));
        await runJobs(t.ctx);
        assert.equal((await lastOperation(t.ctx, spaceId)).state, 'success');
      });
      // Deliveries are separate jobs: they may arrive in either order (each carries its createdAt).
      assert.deepEqual(events.map((e) => e.event).sort(), ['git_sync.completed', 'git_sync.started']);
      const text = JSON.stringify(events.find((e) => e.event === 'git_sync.completed'));
      assert.equal(text.includes(spaceId), true, 'the payload names the space');
      assert.equal(text.includes('success'), true, 'the completion carries the result');
      assert.equal(remote.url('events').includes(PASSWORD), true, 'the remote is reached with credentials');
      assert.equal(text.includes(PASSWORD), false, 'which the payload never carries');
    });

    it('announces a finished translation: translation.completed with the language', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Pets', markdown: 'The dog eats the apple.\n' }]);
      let translationId = '';
      const events = await deliveredDuring(['translation.completed'], async () => {
        const created = await world.admin.api.post(`${orgUrl}/translations`, { language: 'es', source: { space: spaceId } });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        translationId = created.body.id;
        t.clock.advance(60_000);
        await runJobs(t.ctx);
      });
      assert.equal(events.length, 1, JSON.stringify(events));
      assert.equal(events[0].event, 'translation.completed');
      assert.equal(JSON.stringify(events[0]).includes(translationId), true, 'the payload names the translation');
      assert.equal(JSON.stringify(events[0]).includes('"es"'), true, 'the payload carries the language');
    });

    it('announces a processed OpenAPI description: openapi_spec.processed with the slug', async () => {
      const events = await deliveredDuring(['openapi_spec.processed'], async () => {
        const created = await world.admin.api.post(`${orgUrl}/openapi`, { slug: 'petstore', source: { text: fixture('petstore-3.0.yaml') } });
        assert.equal(created.status, 201, JSON.stringify(created.body));
        await runJobs(t.ctx);
      });
      assert.equal(events.length, 1, JSON.stringify(events));
      assert.equal(events[0].event, 'openapi_spec.processed');
      assert.equal(JSON.stringify(events[0]).includes('petstore'), true, 'the payload names the specification');
    });
  });
}
