import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { shareKeyActive, shareKeyHash } from '../../src/sites/visitor.ts';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`site share links [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let orgUrl: string;
    let siteId: string;
    let linksUrl: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      orgUrl = `/v1/orgs/${world.organizationId}`;
      const site = await world.admin.api.post(`${orgUrl}/sites`, { title: 'Partners', visibility: 'share-link' });
      assert.equal(site.status, 201);
      siteId = site.body.id;
      linksUrl = `${orgUrl}/sites/${siteId}/share-links`;
    });
    after(() => t.close());

    const snapshot = async () =>
      JSON.stringify([
        await t.ctx.db.selectFrom('site_share_links').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('sites').select(['id', 'version']).orderBy('id').execute(),
      ]);
    const keyOf = (reply: Reply): string => new URL(reply.body.urls.published).searchParams.get('share')!;
    const createLink = async (name: string) => {
      t.clock.advance(1000);
      const reply = await world.admin.api.post(linksUrl, { name });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return reply;
    };

    it('creates an active link whose published URL carries a key, stored only as a hash and sealed', async () => {
      const version = (await t.ctx.db.selectFrom('sites').select('version').where('id', '=', siteId).executeTakeFirstOrThrow()).version;
      const reply = await createLink('Acme partners');
      assert.equal(reply.headers.location, `http://quire.test${linksUrl}/${reply.body.id}`);
      const key = keyOf(reply);
      assert.match(key, /^[A-Za-z0-9_-]{16,}$/);
      assert.deepEqual(reply.body, {
        object: 'share-link',
        id: reply.body.id,
        createdAt: t.clock.now().toISOString(),
        name: 'Acme partners',
        active: true,
        urls: { published: `http://quire.test/sites/${world.organizationId}/partners?share=${key}` },
      });
      const row = await t.ctx.db.selectFrom('site_share_links').selectAll().where('id', '=', reply.body.id).executeTakeFirstOrThrow();
      assert.equal(row.key_hash, shareKeyHash(key));
      assert.ok(!row.key_sealed.includes(key), 'not stored in clear');
      assert.equal(t.ctx.secrets.decrypt(row.key_sealed).toString('utf8'), key);
      assert.equal(row.created_by, world.admin.id);
      assert.ok(await shareKeyActive(t.ctx, siteId, key));
      const site = await t.ctx.db.selectFrom('sites').select('version').where('id', '=', siteId).executeTakeFirstOrThrow();
      assert.ok(site.version > version, 'the site is marked changed');
      const empty = await createLink('');
      assert.equal(empty.body.name, '');
      assert.notEqual(keyOf(empty), key, 'each link has its own key');
    });

    it('lists the links oldest first, a page at a time, with the same URLs', async () => {
      const t2 = await createTestApp(dialect);
      try {
        const w = await createWorld(t2.ctx, t2.app, t2.clock);
        const url = `/v1/orgs/${w.organizationId}/sites/${(await w.admin.api.post(`/v1/orgs/${w.organizationId}/sites`, { title: 'Paged' })).body.id}/share-links`;
        const made: Reply[] = [];
        for (const name of ['one', 'two', 'three', 'four', 'five']) {
          t2.clock.advance(1000);
          made.push(await w.admin.api.post(url, { name }));
        }
        const seen: Array<{ id: string; urls: { published: string } }> = [];
        let page: string | undefined;
        do {
          const reply = await w.admin.api.get(`${url}?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
          assert.equal(reply.status, 200);
          assert.equal(reply.body.count, 5);
          seen.push(...reply.body.items);
          page = reply.body.next?.page;
        } while (page);
        assert.deepEqual(seen.map((l) => l.id), made.map((r) => r.body.id));
        assert.deepEqual(seen.map((l) => l.urls.published), made.map((r) => r.body.urls.published));
        assertError(await w.admin.api.get(`${url}?page=forged`), 400, 'cursor');
      } finally {
        await t2.close();
      }
    });

    it('renames a link and turns it off and on; the key stays the same', async () => {
      const created = await createLink('Temporary');
      const key = keyOf(created);
      const url = `${linksUrl}/${created.body.id}`;
      const off = await world.admin.api.patch(url, { active: false });
      assert.equal(off.status, 200, JSON.stringify(off.body));
      assert.equal(off.body.active, false);
      assert.equal(off.body.name, 'Temporary');
      assert.equal(await shareKeyActive(t.ctx, siteId, key), false, 'an inactive key opens nothing');
      const renamed = await world.admin.api.patch(url, { name: 'Renamed', active: true });
      assert.deepEqual([renamed.body.name, renamed.body.active, keyOf(renamed)], ['Renamed', true, key]);
      assert.ok(await shareKeyActive(t.ctx, siteId, key));
      const listed = (await world.admin.api.get(linksUrl)).body.items.find((l: { id: string }) => l.id === created.body.id);
      assert.deepEqual(listed, renamed.body);
    });

    it('refuses invalid bodies with 400 and changes nothing', async () => {
      const created = await createLink('Strict');
      const url = `${linksUrl}/${created.body.id}`;
      const before = await snapshot();
      assertError(await world.admin.api.post(linksUrl, {}), 400, 'missing the required member "name"');
      assertError(await world.admin.api.post(linksUrl, { name: 'x'.repeat(51) }), 400, '"name"');
      assertError(await world.admin.api.post(linksUrl, { name: 5 }), 400, '"name"');
      assertError(await world.admin.api.post(linksUrl, { name: 'ok', key: 'chosen' }), 400, '"key"');
      assertError(await world.admin.api.patch(url, {}), 400);
      assertError(await world.admin.api.patch(url, { name: 'x'.repeat(51) }), 400, '"name"');
      assertError(await world.admin.api.patch(url, { active: 'no' }), 400, '"active"');
      assertError(await world.admin.api.patch(url, { active: false, urls: {} }), 400, '"urls"');
      assert.equal(await snapshot(), before);
    });

    it('answers 404 for a link that is not on this site, and removes with 205, then 204', async () => {
      const other = await world.admin.api.post(`${orgUrl}/sites`, { title: 'Other' });
      const foreign = await world.admin.api.post(`${orgUrl}/sites/${other.body.id}/share-links`, { name: 'theirs' });
      assertError(await world.admin.api.patch(`${linksUrl}/nope`, { active: false }), 404, 'No share link "nope"');
      assertError(await world.admin.api.patch(`${linksUrl}/${foreign.body.id}`, { active: false }), 404, 'No share link');
      assert.equal((await world.admin.api.delete(`${linksUrl}/${foreign.body.id}`)).status, 204, 'not on this site: nothing removed');
      assert.equal((await t.ctx.db.selectFrom('site_share_links').select('id').where('id', '=', foreign.body.id).execute()).length, 1);
      assertError(await world.admin.api.get(`${orgUrl}/sites/nope/share-links`), 404, 'No site');

      const created = await createLink('Doomed');
      const key = keyOf(created);
      const removed = await world.admin.api.delete(`${linksUrl}/${created.body.id}`);
      assert.equal(removed.status, 205);
      assert.equal(removed.body, undefined);
      assert.equal(await shareKeyActive(t.ctx, siteId, key), false);
      assert.equal((await world.admin.api.delete(`${linksUrl}/${created.body.id}`)).status, 204);
    });

    it('is for administrators only: other roles and guests 403, outsiders 404, and nothing changes', async () => {
      const created = await createLink('Admins only');
      const url = `${linksUrl}/${created.body.id}`;
      const before = await snapshot();
      for (const [name, user] of cast(world)) {
        if (name === 'admin') continue;
        const status = name === 'outsider' ? 404 : 403;
        const words = name === 'outsider' ? 'No organization' : 'administrators';
        assertError(await user.api.get(linksUrl), status, words);
        assertError(await user.api.post(linksUrl, { name: 'mine' }), status, words);
        assertError(await user.api.patch(url, { active: false }), status, words);
        assertError(await user.api.delete(url), status, words);
        assertError(await user.api.delete(`${linksUrl}/nope`), status, words);
      }
      assert.equal(await snapshot(), before);
    });
  });
}
