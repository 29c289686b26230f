import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { drainJobs, fixture } from './helpers.ts';
import { send, slow, startSpecServer, type SpecServer } from './server.ts';

/**
 * Processing against a real HTTP server on 127.0.0.1: every state and error code, bundling of external
 * references, versioning by content, the scheduled refresh, and the previous good version staying the latest.
 */
for (const dialect of dialects) {
  describe(`OpenAPI processing [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let server: SpecServer;
    let base: string;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_IMPORT_ALLOW_PRIVATE: '1', QUIRE_OPENAPI_FETCH_TIMEOUT_SECONDS: '1' });
      world = await createWorld(t.ctx, t.app, t.clock);
      server = await startSpecServer();
      base = `/v1/orgs/${world.organizationId}/openapi`;
    });
    after(async () => {
      await server.close();
      await t.close();
    });

    async function publish(slug: string, path: string) {
      const reply = await world.admin.api.put(`${base}/${slug}`, { source: { url: `${server.origin}${path}` } });
      assert.ok(reply.status === 200 || reply.status === 201, JSON.stringify(reply.body));
      await drainJobs(t);
      return (await world.admin.api.get(`${base}/${slug}`)).body;
    }

    it('names each failure with its code and a message a person can act on', async () => {
      server.routes.set('/slow.json', slow(3000, fixture('swagger-2.0.json')));
      server.routes.set('/broken', send('oops', 'text/plain', 500));
      server.routes.set('/large.json', send(Buffer.alloc(21 * 1024 * 1024, 0x20)));
      server.routes.set('/page.html', send('<!doctype html><html><body><h1>Docs</h1></body></html>', 'text/html'));
      server.routes.set('/not-openapi.json', send('{"name":"a package.json, not a description"}'));
      server.routes.set('/bad-ref.yaml', send(fixture('events-3.1.yaml').replace("'#/components/schemas/Invoice'", "'#/components/schemas/Missing'"), 'application/yaml'));
      server.routes.set('/bad-external.yaml', send(fixture('events-3.1.yaml').replace("'#/components/schemas/Invoice'", "'./models/missing.yaml#/Invoice'"), 'application/yaml'));
      const late = (text: string) => text.replace('version: 1.0.0', `version: 1.0.0\n${'# a comment line of the description\n'.repeat(300)}  description: "a\\0b"`);
      server.routes.set('/nul.yaml', send(late('openapi: 3.0.3\ninfo:\n  title: A\n  version: 1.0.0\npaths: {}\n').replace('"a\\0b"', 'a\u0000b'), 'application/yaml'));
      server.routes.set('/nul-escape.yaml', send(late('openapi: 3.0.3\ninfo:\n  title: A\n  version: 1.0.0\npaths: {}\n'), 'application/yaml'));
      server.routes.set('/nul-escape.json', send('{"openapi":"3.0.3","info":{"title":"A\\u0000B","version":"1"},"paths":{}}'));
      server.routes.set('/invalid.yaml', send('openapi: 3.0.3\ninfo:\n  title: No description\n  version: 1.0.0\npaths:\n  /a:\n    get:\n      responses:\n        "200": {}\n', 'application/yaml'));

      const cases: Array<[string, string, RegExp]> = [
        ['/slow.json', 'FETCH_TIMEOUT', /longer than 1 seconds/],
        ['/broken', 'FETCH_ERROR', /500/],
        ['/large.json', 'FETCH_ERROR', /larger than 20 MB/],
        ['/nowhere.json', 'FETCH_ERROR', /404/],
        ['/page.html', 'PARSE_ERROR', /OpenAPI description|YAML/],
        ['/not-openapi.json', 'PARSE_ERROR', /Swagger 2\.0 and OpenAPI 3\.0 and 3\.1/],
        ['/bad-ref.yaml', 'PARSE_ERROR', /Missing/],
        ['/bad-external.yaml', 'PARSE_ERROR', /missing\.yaml.*404|404.*missing\.yaml/],
        ['/invalid.yaml', 'PARSE_ERROR', /not a valid OpenAPI description/],
        ['/nul.yaml', 'PARSE_ERROR', /NUL character \(line 305\)/],
        ['/nul-escape.yaml', 'PARSE_ERROR', /NUL character in a string/],
        ['/nul-escape.json', 'PARSE_ERROR', /NUL character in a string/],
      ];
      for (const [path, code, message] of cases) {
        const slug = `case${path.replace(/[^a-z]+/g, '-')}`.replace(/-+$/, '');
        const spec = await publish(slug, path);
        assert.equal(spec.processingState, 'complete', path);
        assert.equal(spec.lastProcessErrorCode, code, `${path}: ${spec.lastProcessError}`);
        assert.match(spec.lastProcessError, message, path);
        assert.equal(spec.lastVersion, undefined, path);
      }
    });

    it('refuses addresses on the private network unless the operator allows them (FETCH_ERROR)', async () => {
      const guarded = await createTestApp(dialect, {});
      try {
        const w = await createWorld(guarded.ctx, guarded.app, guarded.clock);
        await w.admin.api.post(`/v1/orgs/${w.organizationId}/openapi`, { slug: 'local', source: { url: `${server.origin}/whatever.json` } });
        await drainJobs(guarded);
        const spec = (await w.admin.api.get(`/v1/orgs/${w.organizationId}/openapi/local`)).body;
        assert.equal(spec.lastProcessErrorCode, 'FETCH_ERROR');
        assert.match(spec.lastProcessError, /private|loopback|not allowed|public/i);
      } finally {
        await guarded.close();
      }
    });

    it('bundles external references, versions by content, refreshes on schedule, and keeps the last good version', async () => {
      const root = fixture('petstore-3.0.yaml').replace("$ref: '#/components/schemas/Error'", "$ref: './models/error.yaml#/Error'");
      server.routes.set('/api/openapi.yaml', send(root, 'application/yaml'));
      server.routes.set('/api/models/error.yaml', send('Error:\n  type: object\n  properties:\n    code:\n      $ref: "#/Code"\n    message:\n      type: string\nCode:\n  type: integer\n', 'application/yaml'));
      const spec = await publish('split', '/api/openapi.yaml');
      assert.equal(spec.lastProcessErrorCode, undefined, spec.lastProcessError);
      const content = (await world.admin.api.get(`${base}/split/versions/latest/content`)).body;
      const error = content.filesystem[0].specification.paths['/pets'].get.responses.default.content['application/json'].schema;
      assert.deepEqual(error, { type: 'object', properties: { code: { type: 'integer' }, message: { type: 'string' } } });

      // Six hours later the refresh finds the same description: no new version.
      const fetches = server.requests.filter((p) => p === '/api/openapi.yaml').length;
      t.clock.advance(6 * 3600_000 + 1000);
      await drainJobs(t);
      assert.equal(server.requests.filter((p) => p === '/api/openapi.yaml').length, fetches + 1);
      assert.equal((await world.admin.api.get(`${base}/split/versions`)).body.count, 1);

      // The description changes: the next refresh makes a new version.
      server.routes.set('/api/openapi.yaml', send(root.replace('title: Petstore', 'title: Petstore 2'), 'application/yaml'));
      t.clock.advance(6 * 3600_000 + 1000);
      await drainJobs(t);
      const refreshed = (await world.admin.api.get(`${base}/split`)).body;
      assert.equal((await world.admin.api.get(`${base}/split/versions`)).body.count, 2);
      assert.notEqual(refreshed.lastVersion, spec.lastVersion);

      // Then it breaks: the failure is named, and the last good version stays the latest.
      server.routes.set('/api/openapi.yaml', send('openapi: [', 'application/yaml'));
      t.clock.advance(6 * 3600_000 + 1000);
      await drainJobs(t);
      const broken = (await world.admin.api.get(`${base}/split`)).body;
      assert.equal(broken.lastProcessErrorCode, 'PARSE_ERROR');
      assert.equal(broken.lastVersion, refreshed.lastVersion);
      const latest = (await world.admin.api.get(`${base}/split/versions/latest/content`)).body;
      assert.equal(latest.filesystem[0].specification.info.title, 'Petstore 2');

      // Fixed again: the error is cleared.
      server.routes.set('/api/openapi.yaml', send(root.replace('title: Petstore', 'title: Petstore 2'), 'application/yaml'));
      await world.admin.api.put(`${base}/split`, { source: { url: `${server.origin}/api/openapi.yaml` } });
      await drainJobs(t);
      const fixed = (await world.admin.api.get(`${base}/split`)).body;
      assert.equal(fixed.lastProcessErrorCode, undefined);
      assert.equal(fixed.lastVersion, refreshed.lastVersion, 'the same content makes no new version');
    });

    it('reads Swagger 2.0, OpenAPI 3.0 and 3.1 (webhooks), in JSON and YAML', async () => {
      for (const [slug, name] of [['v2', 'swagger-2.0.json'], ['v30', 'petstore-3.0.yaml'], ['v31', 'events-3.1.yaml']]) {
        await world.admin.api.put(`${base}/${slug}`, { source: { text: fixture(name) } });
      }
      await drainJobs(t);
      for (const slug of ['v2', 'v30', 'v31']) {
        const spec = (await world.admin.api.get(`${base}/${slug}`)).body;
        assert.equal(spec.lastProcessErrorCode, undefined, `${slug}: ${spec.lastProcessError}`);
        assert.ok(spec.lastVersion, slug);
      }
      const v31 = (await world.admin.api.get(`${base}/v31/versions/latest/content`)).body;
      assert.ok(v31.filesystem[0].specification.webhooks.newInvoice);
    });
  });
}
