import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { createContext } from '../../src/context.ts';
import { TOKEN_REVOKED_CHANNEL, TokenAuthenticator } from '../../src/http/auth.ts';
import { listenOnChannel } from '../../src/db/notifications.ts';
import { hashToken } from '../../src/secrets.ts';
import { client, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';

const QUIRE = join(import.meta.dirname, '..', '..', 'bin', 'quire');

for (const dialect of dialects) {
  describe(`API tokens: expiry, list, revoke, last use [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect, { QUIRE_TOKEN_CACHE_SECONDS: '60' });
    });
    after(async () => t.close());

    it('creates a token with an expiry, shows its secret once, and refuses it with a 401 that says it expired', async () => {
      const ada = await createUser(t.ctx, t.app, 'ada');
      const created = await ada.api.post('/v1/user/tokens', { name: 'deploy', expiresIn: '2h' });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      assert.match(created.body.token, /^qrt_/);
      assert.equal(created.body.name, 'deploy');
      assert.equal(created.body.status, 'active');
      assert.equal(created.body.expiresAt, new Date(t.clock.now().getTime() + 2 * 3600_000).toISOString());
      const deploy = client(t.app, created.body.token);
      assert.equal((await deploy.get('/v1/user')).status, 200);

      const listed = await ada.api.get('/v1/user/tokens');
      assert.equal(listed.status, 200);
      assert.equal(listed.body.count, 2);
      assert.ok(listed.body.items.every((item: Record<string, unknown>) => !('token' in item) && !JSON.stringify(item).includes(created.body.token)), 'a list never shows a secret');

      t.clock.advance(2 * 3600_000 + 1000);
      const refused = await deploy.get('/v1/user');
      assert.equal(refused.status, 401);
      assert.equal(refused.body.error.code, 401);
      assert.match(refused.body.error.message, /expired/);
      const after = await ada.api.get('/v1/user/tokens');
      assert.equal(after.body.items.find((item: { id: string }) => item.id === created.body.id).status, 'expired');

      for (const bad of [{ expiresIn: 'soon' }, { expiresIn: '0d' }, { expiresAt: '2020-01-01T00:00:00Z' }, { expiresIn: '1d', expiresAt: '2099-01-01T00:00:00Z' }]) {
        const answer = await ada.api.post('/v1/user/tokens', bad);
        assert.equal(answer.status, 400, JSON.stringify(bad));
        assert.ok(answer.body.error.message);
      }
    });

    it('revokes: refused at once in this process, 205 then 204; another user cannot list or revoke it (404)', async () => {
      const bea = await createUser(t.ctx, t.app, 'bea');
      const eve = await createUser(t.ctx, t.app, 'eve');
      const created = await bea.api.post('/v1/user/tokens', { name: 'laptop' });
      const laptop = client(t.app, created.body.token);
      assert.equal((await laptop.get('/v1/user')).status, 200); // now cached for 60 s

      const theirs = await eve.api.get('/v1/user/tokens');
      assert.ok(!theirs.body.items.some((item: { id: string }) => item.id === created.body.id));
      const stolen = await eve.api.delete(`/v1/user/tokens/${created.body.id}`);
      assert.equal(stolen.status, 404);
      assert.equal((await laptop.get('/v1/user')).status, 200);

      assert.equal((await bea.api.delete(`/v1/user/tokens/${created.body.id}`)).status, 205);
      const refused = await laptop.get('/v1/user');
      assert.equal(refused.status, 401);
      assert.match(refused.body.error.message, /revoked/);
      assert.equal((await bea.api.delete(`/v1/user/tokens/${created.body.id}`)).status, 204);
      const listed = await bea.api.get('/v1/user/tokens');
      const row = listed.body.items.find((item: { id: string }) => item.id === created.body.id);
      assert.equal(row.status, 'revoked');
      assert.ok(row.revokedAt);
      assert.equal((await bea.api.get('/v1/user')).status, 200, 'her other token still works');
    });

    it('a revocation reaches another process within its cache time', async () => {
      const cal = await createUser(t.ctx, t.app, 'cal');
      const created = await cal.api.post('/v1/user/tokens', {});
      let now = 1_000_000;
      const other = new TokenAuthenticator(10, () => now); // another process: its own cache and clock
      const request = () => ({ headers: { authorization: `Bearer ${created.body.token}` }, ctx: createContext(t.app.services, null) }) as unknown as FastifyRequest;
      await other.hook(request());
      assert.equal((await cal.api.delete(`/v1/user/tokens/${created.body.id}`)).status, 205);
      await other.hook(request()); // still remembered there, within its 10 s
      now += 10_001;
      await assert.rejects(other.hook(request()), (error: Error & { statusCode?: number }) => /revoked/.test(error.message));
    });

    it('on PostgreSQL, a revocation reaches a listening process at once, well within its cache time', { skip: dialect !== 'postgres' }, async () => {
      const fay = await createUser(t.ctx, t.app, 'fay');
      const created = await fay.api.post('/v1/user/tokens', {});
      const other = new TokenAuthenticator(3600); // another process that would remember the token for an hour
      let connected!: () => void;
      const ready = new Promise<void>((resolve) => (connected = resolve));
      const forgotten: string[] = [];
      let heard!: () => void;
      const notified = new Promise<void>((resolve) => (heard = resolve));
      const listener = listenOnChannel(process.env.TEST_DATABASE_URL!, TOKEN_REVOKED_CHANNEL, {
        onNotification: (hash) => {
          other.forget(hash);
          forgotten.push(hash);
          if (hash === hashToken(created.body.token)) heard(); // other suites on this database may revoke too
        },
        onConnect: () => connected(),
        onError: (error) => assert.fail(String(error)),
      });
      try {
        await ready;
        const request = () => ({ headers: { authorization: `Bearer ${created.body.token}` }, ctx: createContext(t.app.services, null) }) as unknown as FastifyRequest;
        await other.hook(request());
        assert.equal((await fay.api.delete(`/v1/user/tokens/${created.body.id}`)).status, 205);
        await notified;
        assert.ok(forgotten.includes(hashToken(created.body.token)));
        await assert.rejects(other.hook(request()), (error: Error) => /revoked/.test(error.message));
      } finally {
        await listener.close();
      }
    });

    it('records the last use at most once a minute per token, not once per request', async () => {
      const dee = await createUser(t.ctx, t.app, 'dee');
      const created = await dee.api.post('/v1/user/tokens', { name: 'ci' });
      assert.equal(created.body.lastUsedAt, undefined);
      const ci = client(t.app, created.body.token);
      const lastUsed = async () => (await t.ctx.db.selectFrom('api_tokens').select('last_used_at').where('id', '=', created.body.id).executeTakeFirstOrThrow()).last_used_at;
      await ci.get('/v1/user');
      const first = await lastUsed();
      assert.equal(first, t.clock.now().toISOString());
      t.clock.advance(30_000);
      await ci.get('/v1/user');
      await ci.get('/v1/user');
      assert.equal(await lastUsed(), first, 'within the minute, no write');
      t.clock.advance(31_000);
      await ci.get('/v1/user');
      assert.equal(await lastUsed(), t.clock.now().toISOString());
      const listed = await dee.api.get('/v1/user/tokens');
      assert.equal(listed.body.items.find((item: { id: string }) => item.id === created.body.id).lastUsedAt, t.clock.now().toISOString());
    });
  });
}

describe('bin/quire token create, list, revoke [sqlite]', () => {
  const dir = mkdtempSync(join(tmpdir(), 'quire-tokens-'));
  const env = { ...process.env, QUIRE_LOG_LEVEL: 'warn', QUIRE_DATA_DIR: dir, QUIRE_DATABASE_URL: '' };
  const quire = (args: string[]) => {
    const run = spawnSync(QUIRE, args, { env, encoding: 'utf8', timeout: 60_000 });
    return { code: run.status, stdout: run.stdout, stderr: run.stderr };
  };
  after(() => rmSync(dir, { recursive: true, force: true }));

  it('creates with an expiry, lists without secrets, revokes by id', () => {
    assert.equal(quire(['migrate']).code, 0);
    const made = quire(['token', 'create', '--email', 'ops@acme.test', '--label', 'deploy', '--expires-in', '30d', '--json']);
    assert.equal(made.code, 0, made.stderr);
    const token = JSON.parse(made.stdout);
    assert.match(token.token, /^qrt_/);
    assert.ok(token.expiresAt);
    const listed = quire(['token', 'list', '--email', 'ops@acme.test', '--json']);
    assert.equal(listed.code, 0, listed.stderr);
    assert.ok(!listed.stdout.includes(token.token), 'the list never prints a secret');
    const items = JSON.parse(listed.stdout).tokens;
    assert.deepEqual(items.map((item: { id: string; name: string; status: string }) => [item.id, item.name, item.status]), [[token.id, 'deploy', 'active']]);
    const revoked = quire(['token', 'revoke', token.id, '--json']);
    assert.equal(revoked.code, 0, revoked.stderr);
    assert.equal(JSON.parse(revoked.stdout).revoked, true);
    assert.equal(JSON.parse(quire(['token', 'list', '--email', 'ops@acme.test', '--json']).stdout).tokens[0].status, 'revoked');
    assert.equal(quire(['token', 'revoke', 'no-such-token']).code, 1);
    assert.equal(quire(['token', 'create', '--email', 'ops@acme.test', '--expires-in', 'soon']).code, 2);
    assert.equal(quire(['token', 'list', '--email', 'nobody@acme.test']).code, 1);
  });
});
