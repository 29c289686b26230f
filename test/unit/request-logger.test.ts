import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import Fastify from 'fastify';
import pino, { type Logger } from 'pino';
import { loggerOptions, RequestLogger, requestLogger } from '../../src/http/logging.ts';

/** A pino logger with Quire's options writing into `lines` (each parsed, its time left out). */
function capture(level: 'info' | 'warn') {
  const lines: Array<Record<string, unknown>> = [];
  const logger = pino({ ...loggerOptions(level), timestamp: false }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { logger, lines };
}

/** Counts the children `logger` makes. */
function countChildren(logger: Logger): { made: number } {
  const counter = { made: 0 };
  const child = logger.child.bind(logger);
  logger.child = ((...args: Parameters<Logger['child']>) => {
    counter.made++;
    return child(...args);
  }) as Logger['child'];
  return counter;
}

describe('the request logger', () => {
  it('logs what the child it stands for would log, the same lines, at every level', () => {
    for (const level of ['info', 'warn'] as const) {
      const lazy = capture(level);
      const direct = capture(level);
      const bindings = { reqId: 'req-7' };
      const requestLog = new RequestLogger(lazy.logger, bindings, {});
      const childLog = direct.logger.child(bindings, {});
      for (const log of [requestLog, childLog] as const) {
        log.info({ req: { method: 'GET', url: '/v1/x?token=secret' } }, 'incoming request');
        log.warn({ password: 'hunter2', nested: { token: 'abc' } }, 'with secrets');
        log.error(new Error('boom'), 'failed');
        log.debug('not at this level');
        log.child({ job: 'j1' }).warn('from a child');
      }
      assert.ok(lazy.lines.length >= 3, `${level}: something was logged`);
      assert.deepEqual(lazy.lines, direct.lines, level);
      assert.equal(requestLog.level, childLog.level);
      assert.equal(requestLog.isLevelEnabled('info'), level === 'info');
    }
  });

  it('makes no child while nothing is logged at an enabled level', () => {
    const { logger, lines } = capture('warn');
    const children = countChildren(logger);
    const log = new RequestLogger(logger, { reqId: 'req-1' }, {});
    log.info('incoming request');
    log.debug('detail');
    assert.equal(children.made, 0);
    assert.equal(lines.length, 0);
    log.warn('now');
    log.error('and again');
    assert.equal(children.made, 1, 'made once, on the first line logged');
    assert.deepEqual(lines.map((line) => [line.reqId, line.msg]), [['req-1', 'now'], ['req-1', 'and again']]);
  });

  it('is the logger Fastify gives each request, with the request id bound', async () => {
    const { logger, lines } = capture('info');
    const app = Fastify({ loggerInstance: logger, childLoggerFactory: requestLogger });
    app.get('/', async (request) => {
      request.log.warn({ user: { token: 'abc' } }, 'handled');
      return { ok: true };
    });
    await app.inject({ method: 'GET', url: '/' });
    await app.close();
    const ofRequest = lines.filter((line) => line.reqId !== undefined);
    assert.deepEqual(ofRequest.map((line) => line.msg), ['incoming request', 'handled', 'request completed']);
    assert.equal(new Set(ofRequest.map((line) => line.reqId)).size, 1);
    assert.deepEqual(ofRequest[1].user, { token: '[redacted]' });
  });
});
