import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { drainJobs, fixture } from './helpers.ts';

/** The OpenAPI operations through app.inject: validation, conflicts, PUT, PATCH, DELETE and the role matrix. */
for (const dialect of dialects) {
  describe(`OpenAPI specifications [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let base: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      base = `/v1/orgs/${world.organizationId}/openapi`;
    });
    after(() => t.close());

    it('creates a spec from text, processes it in the background, and versions it', async () => {
      const api = world.admin.api;
      const created = await api.post(base, { slug: 'petstore', source: { text: fixture('petstore-3.0.yaml') } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.equal(created.body.object, 'openapi-spec');
      assert.equal(created.body.processingState, 'pending');
      assert.equal(created.body.visibility, 'private');
      assert.deepEqual(created.body.permissions, { view: true, edit: true, delete: true });
      assert.equal(created.headers.location, created.body.urls.location);
      assertError(await api.get(`${base}/petstore/versions/latest`), 404, 'no processed version yet');

      await drainJobs(t);
      const spec = (await api.get(`${base}/petstore`)).body;
      assert.equal(spec.processingState, 'complete');
      assert.ok(spec.lastVersion);
      assert.ok(spec.lastProcessedAt);
      assert.equal(spec.lastProcessErrorCode, undefined);

      const latest = await api.get(`${base}/petstore/versions/latest`);
      assert.equal(latest.status, 200);
      assert.equal(latest.body.id, spec.lastVersion);
      const content = await api.get(`${base}/petstore/versions/latest/content`);
      assert.equal(content.status, 200);
      assert.equal(content.body.filesystem[0].isEntrypoint, true);
      assert.equal(content.body.filesystem[0].specification.info.title, 'Petstore');
      const byId = await api.get(`${base}/petstore/versions/${spec.lastVersion}/content`);
      assert.deepEqual(byId.body, content.body);
      assert.equal((await api.get(`${base}/petstore/versions/${spec.lastVersion}`)).body.id, spec.lastVersion);
      const file = await t.app.inject({ method: 'GET', url: new URL(latest.body.url).pathname, headers: { authorization: `Bearer ${world.admin.token}` } });
      assert.equal(file.statusCode, 200);
      assert.equal(JSON.parse(file.body).openapi, '3.0.3');

      // The same text again makes no new version; a changed one does, and becomes the latest.
      assert.equal((await api.put(`${base}/petstore`, { source: { text: fixture('petstore-3.0.yaml') } })).status, 200);
      await drainJobs(t);
      assert.equal((await api.get(`${base}/petstore/versions`)).body.count, 1);
      t.clock.advance(1000);
      await api.put(`${base}/petstore`, { source: { text: fixture('petstore-3.0.yaml').replace('version: 1.0.0', 'version: 1.1.0') } });
      await drainJobs(t);
      const versions = (await api.get(`${base}/petstore/versions`)).body;
      assert.equal(versions.count, 2);
      const after = (await api.get(`${base}/petstore`)).body;
      assert.equal(versions.items[0].id, after.lastVersion);
      assert.notEqual(after.lastVersion, spec.lastVersion);
    });

    it('refuses bad slugs, bad sources and taken slugs, naming the field', async () => {
      const api = world.admin.api;
      const text = fixture('events-3.1.yaml');
      assertError(await api.post(base, { slug: 'Bad Slug', source: { text } }), 400, 'slug');
      assertError(await api.post(base, { slug: 'a'.repeat(101), source: { text } }), 400, 'slug');
      assertError(await api.post(base, { slug: '-lead', source: { text } }), 400, 'slug');
      assertError(await api.post(base, { slug: 'ok', source: {} }), 400);
      assertError(await api.post(base, { slug: 'ok', source: { text: '' } }), 400);
      assertError(await api.post(base, { slug: 'ok', source: { url: 'ftp://example.com/spec.yaml' } }), 400, 'http');
      assertError(await api.post(base, { slug: 'ok', source: { url: `https://example.com/${'a'.repeat(2100)}` } }), 400);
      assertError(await api.post(base, { slug: 'ok' }), 400, 'source');
      assertError(await api.put(`${base}/Not_Valid`, { source: { text } }), 400, 'slug');
      assert.equal((await api.post(base, { slug: 'events', source: { text } })).status, 201);
      assertError(await api.post(base, { slug: 'events', source: { text } }), 409, 'already exists');
      assertError(await api.patch(`${base}/events`, { visibility: 'secret' }), 400, 'visibility');
      assertError(await api.patch(`${base}/events`, { visibility: 'public', slug: 'other' }), 400, 'slug');
      assertError(await api.get(`${base}/missing`), 404, 'missing');
    });

    it('PUT creates (201) then updates (200); PATCH changes the visibility; DELETE removes everything (205, then 204)', async () => {
      const api = world.admin.api;
      const put = await api.put(`${base}/orders`, { source: { text: fixture('swagger-2.0.json') } });
      assert.equal(put.status, 201);
      await drainJobs(t);
      assert.equal((await api.put(`${base}/orders`, { source: { text: fixture('swagger-2.0.json') } })).status, 200);
      const patched = await api.patch(`${base}/orders`, { visibility: 'public' });
      assert.equal(patched.status, 200);
      assert.equal(patched.body.visibility, 'public');
      assert.equal(patched.body.urls.published, `http://quire.test/openapi/${world.organizationId}/orders`);
      await drainJobs(t);
      const published = await t.app.inject({ method: 'GET', url: `/openapi/${world.organizationId}/orders.json` });
      assert.equal(published.statusCode, 200);
      assert.equal(JSON.parse(published.body).swagger, '2.0');
      const yaml = await t.app.inject({ method: 'GET', url: `/openapi/${world.organizationId}/orders`, headers: { accept: 'application/yaml' } });
      assert.match(yaml.headers['content-type'] as string, /yaml/);
      assert.match(yaml.body, /^swagger: "?2\.0"?/m);
      const versionId = (await api.get(`${base}/orders`)).body.lastVersion;

      assert.equal((await api.delete(`${base}/orders`)).status, 205);
      assert.equal((await api.delete(`${base}/orders`)).status, 204);
      assertError(await api.get(`${base}/orders`), 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `/openapi/${world.organizationId}/orders.json` })).statusCode, 404);
      const left = await t.ctx.db.selectFrom('openapi_spec_versions').select('id').where('id', '=', versionId).execute();
      assert.deepEqual(left, []);
      const jobs = await t.ctx.db.selectFrom('jobs').select('id').where('singleton_key', 'like', 'openapi-spec:%').where('status', '=', 'pending').execute();
      assert.deepEqual(jobs, []);
    });

    it('keeps private specs private: guests, outsiders and anonymous readers never see them', async () => {
      const api = world.admin.api;
      await api.post(base, { slug: 'secret', source: { text: fixture('events-3.1.yaml') } });
      await drainJobs(t);
      assertError(await world.guest.api.get(`${base}/secret`), 404);
      assertError(await world.guest.api.get(`${base}/secret/versions/latest/content`), 404);
      assert.ok(!(await world.guest.api.get(base)).body.items.some((s: { slug: string }) => s.slug === 'secret'));
      assertError(await world.outsider.api.get(`${base}/secret`), 404);
      assert.equal((await t.app.inject({ method: 'GET', url: `/openapi/${world.organizationId}/secret` })).statusCode, 404);
      const version = (await api.get(`${base}/secret`)).body.lastVersion;
      assert.equal((await t.app.inject({ method: 'GET', url: `/openapi/${world.organizationId}/secret/versions/${version}` })).statusCode, 404);
      const anonymous = await t.app.inject({ method: 'GET', url: `${base}/secret/versions/${version}/openapi.json` });
      assert.equal(anonymous.statusCode, 401);
    });

    it('the role matrix: members read, the create role and up write, guests see public specs only, outsiders nothing', async () => {
      const text = fixture('events-3.1.yaml');
      await world.admin.api.post(base, { slug: 'matrix', source: { text } });
      await world.admin.api.post(base, { slug: 'matrix-public', source: { text } });
      await world.admin.api.patch(`${base}/matrix-public`, { visibility: 'public' });
      const writers = new Set(['admin', 'create']);
      const readers = new Set(['admin', 'create', 'review', 'edit', 'comment', 'read']);
      for (const [name, user] of cast(world)) {
        const slug = `by-${name}`;
        const list = await user.api.get(base);
        const get = await user.api.get(`${base}/matrix`);
        const getPublic = await user.api.get(`${base}/matrix-public`);
        const post = await user.api.post(base, { slug, source: { text } });
        const put = await user.api.put(`${base}/matrix`, { source: { text } });
        const patch = await user.api.patch(`${base}/matrix`, { visibility: 'private' });
        const del = await user.api.delete(`${base}/${slug}`);
        if (name === 'outsider') {
          for (const reply of [list, get, getPublic, post, put, patch, del]) assertError(reply, 404);
          continue;
        }
        assert.equal(list.status, 200, name);
        if (readers.has(name)) {
          assert.equal(get.status, 200, name);
          assert.deepEqual(get.body.permissions, { view: true, edit: writers.has(name), delete: writers.has(name) }, name);
        } else {
          assertError(get, 404);
          assert.equal(getPublic.status, 200, 'a guest reads a public spec');
          assert.deepEqual(list.body.items.map((s: { slug: string }) => s.slug).filter((s: string) => s.startsWith('matrix')), ['matrix-public']);
        }
        if (writers.has(name)) {
          assert.equal(post.status, 201, name);
          assert.equal(put.status, 200, name);
          assert.equal(patch.status, 200, name);
          assert.equal(del.status, 205, name);
        } else {
          assertError(post, 403, 'create role');
          assertError(put, 403, 'create role');
          assertError(patch, readers.has(name) ? 403 : 404);
          assert.equal(del.status, 204, `${name}: deleting nothing`);
          if (readers.has(name)) assertError(await user.api.delete(`${base}/matrix`), 403, 'create role');
        }
      }
    });
  });
}
