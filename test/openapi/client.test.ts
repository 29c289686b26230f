import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, GitBookAPIError } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { startSite, type TestSite } from '../imports/server.ts';
import { drainJobs, fixture } from './helpers.ts';

/**
 * The public client 0.130.0, over real HTTP against a listening Quire, calls all eleven OpenAPI operations;
 * the description comes from a real HTTP server on 127.0.0.1. Every answer is checked against the client's
 * document by the test app's contract hook.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: OpenAPI specifications [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let api: GitBookAPI;
    let site: TestSite;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_IMPORT_ALLOW_PRIVATE: '1' });
      world = await createWorld(t.ctx, t.app, t.clock);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: world.admin.token });
      site = await startSite({ '/petstore.yaml': { type: 'application/yaml', body: fixture('petstore-3.0.yaml') } });
    });
    after(async () => {
      await site.close();
      await t.close();
    });

    it('calls every operation of OpenAPI specifications and their versions', async () => {
      const org = world.organizationId;
      const created = await api.orgs.createOpenApiSpec(org, { slug: 'petstore', source: { url: `${site.origin}/petstore.yaml` } });
      assert.equal(created.status, 201);
      assert.equal(created.data.sourceURL, `${site.origin}/petstore.yaml`);
      assert.equal(created.data.processingState, 'pending');
      await drainJobs(t);
      assert.deepEqual(site.requests, ['/petstore.yaml']);

      const spec = await api.orgs.getOpenApiSpecBySlug(org, 'petstore');
      assert.equal(spec.data.processingState, 'complete');
      const listed = await api.orgs.listOpenApiSpecs(org, { limit: 10 });
      assert.deepEqual(listed.data.items.map((s) => s.slug), ['petstore']);

      const versions = await api.orgs.listOpenApiSpecVersions(org, 'petstore');
      assert.equal(versions.data.count, 1);
      const latest = await api.orgs.getLatestOpenApiSpecVersion(org, 'petstore');
      assert.equal(latest.data.id, spec.data.lastVersion);
      const byId = await api.orgs.getOpenApiSpecVersionById(org, 'petstore', latest.data.id);
      assert.equal(byId.data.id, latest.data.id);
      const content = await api.orgs.getLatestOpenApiSpecVersionContent(org, 'petstore');
      const files = content.data.filesystem as unknown as Array<{ specification: { info: { title: string } } }>;
      assert.equal(files[0].specification.info.title, 'Petstore');
      const contentById = await api.orgs.getOpenApiSpecVersionContentById(org, 'petstore', latest.data.id);
      assert.deepEqual(contentById.data, content.data);

      const updated = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'petstore', { source: { text: fixture('events-3.1.yaml') } });
      assert.equal(updated.status, 200);
      assert.equal(updated.data.sourceURL, undefined);
      const made = await api.orgs.createOrUpdateOpenApiSpecBySlug(org, 'orders', { source: { text: fixture('swagger-2.0.json') } });
      assert.equal(made.status, 201);
      const visible = await api.orgs.updateOpenApiSpecBySlug(org, 'petstore', { visibility: 'public' as never });
      assert.equal(visible.data.visibility, 'public');
      assert.ok(visible.data.urls.published);

      assert.equal((await api.orgs.deleteOpenApiSpecBySlug(org, 'petstore')).status, 205);
      assert.equal((await api.orgs.deleteOpenApiSpecBySlug(org, 'petstore')).status, 204);
      await assert.rejects(api.orgs.getOpenApiSpecBySlug(org, 'petstore'), (error: unknown) => error instanceof GitBookAPIError && error.code === 404);
    });
  });
}
