import assert from 'node:assert/strict';
import { connect } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/** Sends raw bytes to the server and reads its whole answer: the status and the parsed body. */
function raw(port: number, request: string): Promise<{ status: number; body: any }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(request));
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk) => (data += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, ...rest] = data.split('\r\n\r\n');
      const status = Number(/^HTTP\/1\.1 (\d+)/.exec(head)?.[1]);
      const text = rest.join('\r\n\r\n');
      resolve({ status, body: text ? JSON.parse(text) : undefined });
    });
  });
}

/** NUL and control characters, malformed requests and media types: each a clean 4xx in the error shape. */
for (const dialect of dialects) {
  describe(`malformed requests [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let port: number;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as { port: number }).port;
    });
    after(() => t.close());

    const api = () => world.members.admin.api;

    it('refuses NUL in a body member, naming it, on both databases alike', async () => {
      assertError(await api().post(`/v1/orgs/${world.organizationId}/spaces`, { title: 'a\u0000b' }), 400, 'body member "title" holds a NUL character');
      assertError(await api().post(`/v1/orgs/${world.organizationId}/collections`, { title: 'a\u0000b' }), 400, 'body member "title"');
    });

    it('refuses other C0 control characters but takes tab, line feed and carriage return', async () => {
      assertError(await api().post(`/v1/orgs/${world.organizationId}/spaces`, { title: 'a\u001bb' }), 400, 'U+001B');
      const taken = await api().post(`/v1/orgs/${world.organizationId}/spaces`, { title: 'a\tb' });
      assert.equal(taken.status, 201, JSON.stringify(taken.body));
    });

    it('refuses NUL in a member name, a path parameter and a query parameter', async () => {
      assertError(await api().post(`/v1/orgs/${world.organizationId}/spaces`, { 'ti\u0000tle': 'x' }), 400, 'NUL');
      assertError(await api().get('/v1/spaces/ab%00c'), 400, 'path parameter "spaceId"');
      assertError(await api().get(`/v1/orgs/${world.organizationId}/spaces?page=a%00b`), 400, 'query parameter "page"');
    });

    it('answers a body of another media type with 415, and an empty JSON body as no body', async () => {
      const text = await api().raw('POST', `/v1/orgs/${world.organizationId}/spaces`, 'title=x', { 'content-type': 'text/plain' });
      assertError(text, 415, 'application/json');
      const form = await api().raw('POST', `/v1/orgs/${world.organizationId}/spaces`, 'title=x', { 'content-type': 'application/x-www-form-urlencoded' });
      assertError(form, 415);
      const created = await api().post(`/v1/orgs/${world.organizationId}/sites`, { title: 'Docs' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const published = await api().raw('POST', `/v1/orgs/${world.organizationId}/sites/${created.body.id}/publish`, '', { 'content-type': 'application/json' });
      assert.equal(published.status, 200, JSON.stringify(published.body));
    });

    it('answers headers too large with 431 in the error shape', async () => {
      const reply = await raw(port, `GET /readyz HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(100_000)}\r\n\r\n`);
      assert.equal(reply.status, 431);
      assert.equal(reply.body.error.code, 431);
      assert.match(reply.body.error.message, /headers/);
    });

    it('answers a request that is not HTTP with 400 in the error shape', async () => {
      const reply = await raw(port, 'NOT HTTP AT ALL\r\n\r\n');
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 400);
    });

    it('answers a bad percent-encoding in the path with 400 in the error shape', async () => {
      const reply = await raw(port, 'GET /v1/spaces/%E0%A4%A HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n');
      assert.equal(reply.status, 400);
      assert.equal(reply.body.error.code, 400);
      assert.match(reply.body.error.message, /percent-encoded/);
    });
  });
}
