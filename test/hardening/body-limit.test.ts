import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/**
 * A body over QUIRE_BODY_LIMIT, sent in full over a real socket to a listening server: the client must be
 * able to read the 413 in the error shape once it has sent its body, and then find the connection closed,
 * not reset.
 */
const LIMIT = 64 * 1024;

interface Exchange {
  /** Everything the server wrote, or null when the connection was reset before the client read it. */
  answer: string | null;
  error: string | null;
  closedCleanly: boolean;
}

/** Sends `head` then `body` (in chunks, waiting when the socket is full), then reads until the server closes. */
function exchange(port: number, head: string, body: Buffer, chunked: boolean): Promise<Exchange> {
  return new Promise((resolve) => {
    const socket: Socket = connect(port, '127.0.0.1');
    const received: Buffer[] = [];
    let error: string | null = null;
    socket.on('data', (chunk) => received.push(chunk));
    socket.on('error', (e: NodeJS.ErrnoException) => {
      error = e.code ?? e.message;
    });
    socket.on('close', () => {
      const text = Buffer.concat(received).toString('utf8');
      resolve({ answer: text || null, error, closedCleanly: error === null });
    });
    socket.on('connect', async () => {
      const write = (data: Buffer | string) => new Promise<void>((done) => (socket.write(data) ? done() : socket.once('drain', () => done())));
      try {
        await write(head);
        for (let at = 0; at < body.length && !socket.destroyed; at += 16 * 1024) {
          const part = body.subarray(at, at + 16 * 1024);
          await write(chunked ? Buffer.concat([Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]) : part);
        }
        if (chunked && !socket.destroyed) await write('0\r\n\r\n');
      } catch (e) {
        error = (e as Error).message;
      }
    });
  });
}

for (const dialect of dialects) {
  describe(`bodies over the limit, over a real socket [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let port: number;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_BODY_LIMIT: String(LIMIT) });
      world = await createWorld(t.ctx, t.app, t.clock);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      port = Number(new URL(address).port);
    });
    after(() => t.close());

    for (const [what, chunked, size] of [
      ['with a Content-Length 64 times the limit', false, 64 * LIMIT],
      ['sent chunked, 64 times the limit', true, 64 * LIMIT],
      ['with a Content-Length just over the limit', false, LIMIT + 1],
    ] as const) {
      it(`answers 413 in the error shape ${what}, read by the client after it sent the body, then closes`, async () => {
        const body = Buffer.from(`{"title":"${'x'.repeat(size - 11)}"}`);
        const head = [
          `POST /v1/orgs/${world.organizationId}/spaces HTTP/1.1`,
          'Host: 127.0.0.1',
          `Authorization: Bearer ${world.admin.token}`,
          'Content-Type: application/json',
          chunked ? 'Transfer-Encoding: chunked' : `Content-Length: ${body.length}`,
          '',
          '',
        ].join('\r\n');
        const result = await exchange(port, head, body, chunked);
        assert.ok(result.answer, `the client read no answer (${result.error})`);
        assert.match(result.answer, /^HTTP\/1\.1 413 /);
        assert.match(result.answer, /connection: close/i);
        const json = JSON.parse(result.answer.slice(result.answer.indexOf('\r\n\r\n') + 4));
        assert.equal(json.error.code, 413);
        assert.match(json.error.message, /larger than this server accepts/);
        assert.equal(result.closedCleanly, true, `closed with ${result.error}`);
        // The server goes on answering.
        assert.equal((await t.app.inject({ method: 'GET', url: '/readyz' })).statusCode, 200);
      });
    }
  });
}
