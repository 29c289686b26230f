import assert from 'node:assert/strict';
import { randomInt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { checkAnswer, describeFailure, Fuzzer, type FuzzResult, type SentRequest } from '../../scripts/fuzz/engine.ts';

/**
 * The fuzzer (scripts/fuzz/) over every operation of /openapi.json, for a bounded budget per database: a
 * fixed seed, so a run is comparable with the last, and a random one, printed, so that each run explores
 * further (replay a failure with `npm run fuzz -- --seed <seed> --requests <n>`). FUZZ_REQUESTS sets the
 * budget per seed, FUZZ_SEED the second seed.
 */
const FIXED_SEED = 17;
const BUDGET = Number(process.env.FUZZ_REQUESTS ?? 5000);
const RANDOM_SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : randomInt(2 ** 31);

function report(dialect: string, result: FuzzResult): void {
  console.log(
    `fuzz [${dialect}] seed ${result.seed}: ${result.sent} requests over ${result.operations} operations, ${result.succeeded} answered 2xx; ` +
      Object.entries(result.byStatus).sort().map(([s, n]) => `${s}×${n}`).join(' '),
  );
  const failures = result.failures.map(describeFailure).join('\n\n');
  assert.equal(result.failures.length, 0, `the fuzzer found ${result.failures.length} distinct failures (seed ${result.seed}):\n\n${failures}`);
}

for (const dialect of dialects) {
  describe(`fuzzing every operation [${dialect}]`, () => {
    for (const seed of [FIXED_SEED, RANDOM_SEED]) {
      describe(`seed ${seed}`, () => {
        let t: TestApp;
        before(async () => {
          t = await createTestApp(dialect);
        });
        // close() also fails on any answer that broke the public client's document (the contract hook).
        after(() => t.close());

        it(`answers ${BUDGET} valid, boundary and hostile requests without a 5xx, a malformed error or a leak`, async () => {
          const fuzzer = await Fuzzer.create(t);
          assert.ok(fuzzer.operations.length > 200, 'the operations come from /openapi.json');
          const result = await fuzzer.run({ requests: BUDGET, seed });
          assert.ok(result.sent >= BUDGET);
          // The world is real: a good part of the operations must have succeeded at least once.
          assert.ok(result.succeeded > result.operations / 3, `only ${result.succeeded} of ${result.operations} operations ever answered 2xx`);
          report(dialect, result);
        });
      });
    }
  });
}

describe('the fuzzer\'s judge', () => {
  const request: SentRequest = { method: 'GET', url: '/v1/spaces/select%20x%20from%20y', headers: {}, actor: 'admin' };
  const error = (message: string, code = 400) => JSON.stringify({ error: { code, message } });
  const json = 'application/json; charset=utf-8';

  it('fails a 5xx, a body outside the error shape, and a code that is not the status', () => {
    assert.match(checkAnswer(request, 500, json, error('Something went wrong', 500), new Set())!, /answered 500/);
    assert.match(checkAnswer(request, 400, json, JSON.stringify({ message: 'no' }), new Set())!, /not \{ error/);
    assert.match(checkAnswer(request, 400, json, JSON.stringify({ error: { code: 400, message: 'x', stack: 'y' } }), new Set())!, /members/);
    assert.match(checkAnswer(request, 404, json, error('x', 400), new Set())!, /differs/);
    assert.match(checkAnswer(request, 400, 'text/html', '<h1>no</h1>', new Set())!, /not JSON/);
    assert.equal(checkAnswer(request, 400, json, error('The body member "title" must be a string.'), new Set()), undefined);
  });

  it('fails SQL, a stack, a file path or a token in a message, unless the request itself sent that text', () => {
    assert.match(checkAnswer(request, 400, json, error('SQLITE_CONSTRAINT: NOT NULL constraint failed: spaces.title'), new Set())!, /SQL/);
    assert.match(checkAnswer(request, 400, json, error('insert into "spaces" ("id") values ($1)'), new Set())!, /SQL/);
    assert.match(checkAnswer(request, 400, json, error('boom\n    at run (/srv/quire/src/app.ts:12:5)'), new Set())!, /stack/);
    assert.match(checkAnswer(request, 400, json, error('cannot open /work/data/secret.key'), new Set())!, /file path/);
    assert.match(checkAnswer(request, 400, json, error('bad token qrt_abcdefghijklmnopqrstuvwxyz'), new Set())!, /token/);
    assert.match(checkAnswer(request, 400, json, error('you are sekrit-token-value'), new Set(['sekrit-token-value']))!, /token/);
    // A 404 repeats the URL the caller sent: not a leak.
    assert.equal(checkAnswer(request, 404, json, error('No space "select x from y" exists.', 404), new Set()), undefined);
  });
});

/** Each defect the fuzzer found, pinned by the request that showed it. */
for (const dialect of dialects) {
  describe(`defects the fuzzer found [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = (await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Intro', markdown: 'Hello.\n' }])).spaceId;
    });
    after(() => t.close());

    it('refuses a write with NUL in an id of its path with 400 on PostgreSQL too (its audit entry used to fail the answer)', async () => {
      for (const [method, url] of [['DELETE', '/v1/orgs/%00/saml/x'], ['PUT', `/v1/orgs/%00/teams/%2F/members/${world.admin.id}`], ['POST', `/v1/spaces/a%00b/comments`]] as const) {
        assertError(await world.admin.api.raw(method, url, method === 'DELETE' ? undefined : {}), 400, 'NUL');
      }
      const audit = await world.admin.api.get(`/v1/orgs/${world.organizationId}/audit-log`);
      assert.equal(audit.status, 200, JSON.stringify(audit.body));
    });

    it('refuses translation instructions whose nodes a run cannot read with 400, rather than storing them', async () => {
      const api = world.admin.api;
      const bad = { object: 'document', data: {}, nodes: [{ object: 'x', type: 'y' }] };
      const refused = await api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: spaceId, language: 'en' }, instructions: bad });
      assertError(refused, 400, 'body member "instructions" is not a valid document');
      const created = await api.post(`/v1/orgs/${world.organizationId}/translations`, { language: 'es', source: { space: spaceId, language: 'en' } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const blockWithoutNodes = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph' }] };
      assertError(await api.put(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`, { instructions: blockWithoutNodes }), 400, 'instructions');
      const good = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Formal tone.', marks: [] }] }] }] };
      const updated = await api.put(`/v1/orgs/${world.organizationId}/translations/${created.body.id}`, { instructions: good });
      assert.equal(updated.status, 200, JSON.stringify(updated.body));
    });

    it('refuses an MCP server header value that is empty or longer than the client\'s document allows', async () => {
      const api = world.admin.api;
      const site = await api.post(`/v1/orgs/${world.organizationId}/sites`, { title: 'Docs' });
      assert.equal(site.status, 201, JSON.stringify(site.body));
      const base = `/v1/orgs/${world.organizationId}/sites/${site.body.id}/mcp-servers`;
      for (const value of ['', 'a'.repeat(513)]) {
        assertError(await api.post(base, { name: 'Tools', url: 'https://mcp.example.com/', headers: { 'X-Key': value } }), 400, 'headers');
      }
      const created = await api.post(base, { name: 'Tools', url: 'https://mcp.example.com/', headers: { 'X-Key': 'a'.repeat(512) } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assertError(await api.patch(`${base}/${created.body.id}`, { headers: { 'X-Key': '' } }), 400, 'headers');
    });

    it('refuses an MCP server name or an organization title made only of spaces, rather than storing it empty', async () => {
      const api = world.admin.api;
      const site = await api.post(`/v1/orgs/${world.organizationId}/sites`, { title: 'Blank names' });
      const base = `/v1/orgs/${world.organizationId}/sites/${site.body.id}/mcp-servers`;
      assertError(await api.post(base, { name: '   ', url: 'https://mcp.example.com/', headers: {} }), 400, 'must not be blank');
      const created = await api.post(base, { name: ' Tools ', url: 'https://mcp.example.com/', headers: {} });
      assert.equal(created.body.name, 'Tools', JSON.stringify(created.body));
      assertError(await api.patch(`${base}/${created.body.id}`, { name: ' ' }), 400, 'must not be blank');
      assert.equal((await api.get(`${base}/${created.body.id}`)).body.name, 'Tools');
      assertError(await api.patch(`/v1/orgs/${world.organizationId}`, { title: '  a ' }), 400, 'at least 2 characters');
    });

    it('refuses a comment whose JSON document holds a node of no known kind with 400, not 500', async () => {
      const reply = await world.admin.api.post(`/v1/spaces/${spaceId}/comments`, { body: { document: { object: 'document', data: {}, nodes: [{}, {}, {}] } } });
      assertError(reply, 400, 'body.document" is not a valid document');
      const replyToReply = await world.admin.api.post(`/v1/spaces/${spaceId}/comments`, { body: { markdown: 'A real comment.' } });
      assert.equal(replyToReply.status, 200, JSON.stringify(replyToReply.body));
      assertError(await world.admin.api.post(`/v1/spaces/${spaceId}/comments/${replyToReply.body.id}/replies`, { body: { document: { object: 'document', nodes: [{ object: 'mystery' }] } } }), 400, 'not a valid document');
    });
  });
}
