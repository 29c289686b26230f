import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { FastifyRequest } from 'fastify';
import { TokenAuthenticator } from '../../src/http/auth.ts';
import { createContext } from '../../src/context.ts';
import { hashToken } from '../../src/secrets.ts';
import { preparedQuery } from '../../src/db/prepared.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createUser } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`TokenAuthenticator [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    const request = (token: string) =>
      ({ headers: { authorization: `Bearer ${token}` }, ctx: createContext(t.ctx, null) }) as unknown as FastifyRequest;

    it('remembers a resolved token for the configured time, then looks it up again', async () => {
      let now = 1_000_000;
      const auth = new TokenAuthenticator(10, () => now);
      const user = await createUser(t.ctx, t.app);
      const first = request(user.token);
      await auth.hook(first);
      assert.equal(first.ctx.actor?.userId, user.id);

      await t.ctx.db.deleteFrom('api_tokens').where('token_hash', '=', hashToken(user.token)).execute();
      now += 9_000;
      const cached = request(user.token);
      await auth.hook(cached);
      assert.equal(cached.ctx.actor?.userId, user.id, 'within the cache time the removed token still resolves');

      now += 2_000;
      await assert.rejects(auth.hook(request(user.token)), /not valid/);
    });

    it('looks every request up when the cache is off, and never remembers unknown tokens', async () => {
      const auth = new TokenAuthenticator(0);
      const user = await createUser(t.ctx, t.app);
      await auth.hook(request(user.token));
      await t.ctx.db.deleteFrom('api_tokens').where('token_hash', '=', hashToken(user.token)).execute();
      await assert.rejects(auth.hook(request(user.token)), /not valid/);
      await assert.rejects(auth.hook(request('qrt_unknown')), /not valid/);
      await assert.rejects(auth.hook({ headers: {}, ctx: createContext(t.ctx, null) } as unknown as FastifyRequest), /Bearer/);
    });

    it('on one connection, resolves whichever token each request sends, and a revoked one is refused', async () => {
      const auth = new TokenAuthenticator(10);
      const [ada, bob] = [await createUser(t.ctx, t.app, 'ada'), await createUser(t.ctx, t.app, 'bob')];
      const socket = {};
      const on = (header: string) => ({ headers: { authorization: header }, raw: { socket }, ctx: createContext(t.ctx, null) }) as unknown as FastifyRequest;
      const actorOf = (header: string) =>
        new Promise<string | undefined>((resolve, reject) => {
          const sent = on(header);
          auth.onRequest(sent, {} as never, (error) => (error ? reject(error) : resolve(sent.ctx.actor?.userId)));
        });
      assert.equal(await actorOf(`Bearer ${ada.token}`), ada.id);
      assert.equal(await actorOf(`Bearer ${ada.token}`), ada.id);
      assert.equal(await actorOf(`Bearer ${bob.token}`), bob.id, 'another token on the same connection is its own');
      assert.equal(await actorOf(`Bearer ${ada.token}`), ada.id);
      await assert.rejects(actorOf(`Basic ${ada.token}`), /Bearer/);
      await assert.rejects(actorOf('Bearer qrt_unknown'), /not valid/);
      // A revocation names the token's hash: the same header on the same connection is refused at once.
      await t.ctx.db.updateTable('api_tokens').set({ revoked_at: t.clock.now().toISOString() }).where('token_hash', '=', hashToken(ada.token)).execute();
      auth.forget(hashToken(ada.token));
      await assert.rejects(actorOf(`Bearer ${ada.token}`), /not valid/);
      assert.equal(await actorOf(`Bearer ${bob.token}`), bob.id);
    });
  });

  describe(`preparedQuery [${dialect}]`, () => {
    let t: TestApp;
    before(async () => {
      t = await createTestApp(dialect);
    });
    after(() => t.close());

    it('binds new arguments to the query it compiled once, keeping the values the query fixes', async () => {
      const a = await createUser(t.ctx, t.app, 'alpha');
      const b = await createUser(t.ctx, t.app, 'beta');
      const byEmail = preparedQuery((db, email: string) => db.selectFrom('users').select('id').where('email', '=', email).where('id', '!=', 'never'));
      assert.deepEqual(await byEmail(t.ctx, a.email), [{ id: a.id }]);
      assert.deepEqual(await byEmail(t.ctx, b.email), [{ id: b.id }]);
      assert.deepEqual(await byEmail(t.ctx, 'nobody@example.com'), []);
    });

    it('refuses a query that does not pass an argument as a value', async () => {
      const broken = preparedQuery((db, _unused: string) => db.selectFrom('users').select('id'));
      await assert.rejects(broken(t.ctx, 'x'), /every argument must be passed/);
    });
  });
}
