import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { browse, createSite, patchSite, visitorToken } from './support.ts';

/** Who may read a published site: each visibility, with no credentials, valid ones, and ones that stopped being valid. */
for (const dialect of dialects) {
  describe(`published reader audiences [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let unknownSite: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = (await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Classified handbook', markdown: 'Eyes only: the heron protocol.\n' }], { title: 'Internal' })).spaceId;
      unknownSite = (await browse(t.app, `/sites/${world.organizationId}/does-not-exist`)).body;
    });
    after(() => t.close());

    const make = (visibility: string, title = `${visibility} site`) => createSite(world.admin, world.organizationId, { title, visibility, spaces: [spaceId] });
    const assertHidden = (reply: Awaited<ReturnType<typeof browse>>, what: string) => {
      assert.equal(reply.status, 404, what);
      assert.equal(reply.body, unknownSite, `${what}: exactly the page of a site that does not exist`);
      assert.doesNotMatch(reply.body, /heron|Classified/);
    };

    it('does not serve an unpublished site, nor leak anything of it', async () => {
      const site = await make('public', 'Unpublished secret site');
      await world.admin.api.post(`/v1/orgs/${world.organizationId}/sites/${site.id}/unpublish`);
      for (const path of ['', '/classified-handbook', '/robots.txt', '/sitemap.xml', '/llms.txt', '/~search?q=heron', '/~search.json?q=heron', '/classified-handbook.md']) {
        assertHidden(await browse(t.app, `${site.root}${path}`), path);
      }
    });

    it('serves an unlisted site to anyone, marked noindex everywhere', async () => {
      const site = await make('unlisted');
      const page = await browse(t.app, site.root);
      assert.equal(page.status, 200);
      assert.match(page.body, /<meta name="robots" content="noindex">/);
      assert.equal(page.headers['x-robots-tag'], 'noindex');
      assert.equal((await browse(t.app, `${site.root}/robots.txt`)).body, 'User-agent: *\nDisallow: /\n');
      assert.equal((await browse(t.app, `${site.root}/sitemap.xml`)).status, 404);
    });

    it('opens a share-link site with an active key only, and stops at once when the link is deactivated or deleted', async () => {
      const site = await make('share-link');
      assertHidden(await browse(t.app, site.root), 'no key');
      assertHidden(await browse(t.app, `${site.root}?share=not-a-key`), 'a wrong key');
      const links = `/v1/orgs/${world.organizationId}/sites/${site.id}/share-links`;
      const created = await world.admin.api.post(links, { name: 'Partners' });
      assert.equal(created.status, 201);
      const shareUrl = new URL(created.body.urls.published as string);
      const arrival = await browse(t.app, `${shareUrl.pathname}${shareUrl.search}`);
      assert.equal(arrival.status, 302);
      assert.equal(arrival.headers.location, site.root, 'the key leaves the address');
      const [cookie] = arrival.cookies;
      assert.match(cookie.header, /^quire_share=/);
      assert.match(cookie.header, /HttpOnly/);
      assert.match(cookie.header, /SameSite=Lax/);
      assert.match(cookie.header, new RegExp(`Path=${site.root}(;|$)`));
      const page = await browse(t.app, site.root, { cookie: cookie.pair });
      assert.equal(page.status, 200);
      assert.match(page.body, /heron protocol/);
      assert.equal(page.headers['cache-control'], 'private, no-cache');
      assert.equal(page.headers['x-robots-tag'], 'noindex');
      assert.equal((await browse(t.app, `${site.root}/sitemap.xml`, { cookie: cookie.pair })).status, 404, 'no sitemap but for public sites');
      // Keeping other parameters when the key is taken out of the address.
      const deeper = await browse(t.app, `${site.root}/classified-handbook?share=${encodeURIComponent(shareUrl.searchParams.get('share')!)}&x=1`);
      assert.equal(deeper.headers.location, `${site.root}/classified-handbook?x=1`);

      await world.admin.api.patch(`${links}/${created.body.id}`, { active: false });
      assertHidden(await browse(t.app, site.root, { cookie: cookie.pair }), 'a deactivated link');
      await world.admin.api.patch(`${links}/${created.body.id}`, { active: true });
      assert.equal((await browse(t.app, site.root, { cookie: cookie.pair })).status, 200, 'reactivated');
      await world.admin.api.delete(`${links}/${created.body.id}`);
      const deleted = await browse(t.app, site.root, { cookie: cookie.pair });
      assertHidden(deleted, 'a deleted link');
      assert.match(deleted.cookies[0]?.header ?? '', /quire_share=;.*Expires=Thu, 01 Jan 1970/, 'a dead key\'s cookie is cleared');
    });

    it('opens a visitor-auth site with a valid JWT only, and re-checks it on every request', async () => {
      const site = await make('visitor-auth');
      const authPath = `/v1/orgs/${world.organizationId}/sites/${site.id}/publishing/auth`;
      const none = await browse(t.app, site.root);
      assert.equal(none.status, 401);
      assert.match(String(none.headers['content-type']), /^text\/html/);
      assert.match(none.body, /Sign in/);
      assert.doesNotMatch(none.body, /heron|Classified/);

      const key = (await world.admin.api.get(authPath)).body.privateKey as string;
      const inAnHour = new Date(t.clock.now().getTime() + 3600_000);
      const token = await visitorToken(key, { plan: 'pro' }, inAnHour);
      const arrival = await browse(t.app, `${site.root}/classified-handbook?jwt_token=${token}`);
      assert.equal(arrival.status, 302);
      assert.equal(arrival.headers.location, `${site.root}/classified-handbook`);
      const [cookie] = arrival.cookies;
      assert.match(cookie.header, /^quire_visitor=/);
      assert.match(cookie.header, /HttpOnly/);
      assert.match(cookie.header, /SameSite=Lax/);
      assert.match(cookie.header, /Max-Age=3600/);
      const page = await browse(t.app, `${site.root}/classified-handbook`, { cookie: cookie.pair });
      assert.equal(page.status, 200);
      assert.match(page.body, /heron protocol/);
      assert.equal(page.headers['cache-control'], 'private, no-cache');

      const forged = `${token.slice(0, -4)}AAAA`;
      assert.equal((await browse(t.app, `${site.root}?jwt_token=${forged}`)).status, 401, 'a forged token');
      assert.equal((await browse(t.app, site.root, { cookie: `quire_visitor=${forged}` })).status, 401, 'a forged cookie');
      const otherKey = await visitorToken('0'.repeat(64), { plan: 'pro' }, inAnHour);
      assert.equal((await browse(t.app, `${site.root}?jwt_token=${otherKey}`)).status, 401, 'signed with another key');

      t.clock.advance(2 * 3600_000);
      const expired = await browse(t.app, site.root, { cookie: cookie.pair });
      assert.equal(expired.status, 401, 'an expired token');
      assert.match(expired.cookies[0]?.header ?? '', /quire_visitor=;/, 'its cookie is cleared');

      const fresh = await visitorToken(key, {}, new Date(t.clock.now().getTime() + 3600_000));
      const admitted = (await browse(t.app, `${site.root}?jwt_token=${fresh}`)).cookies[0].pair;
      assert.equal((await browse(t.app, site.root, { cookie: admitted })).status, 200);
      await world.admin.api.post(`${authPath}/regenerate`);
      assert.equal((await browse(t.app, site.root, { cookie: admitted })).status, 401, 'a regenerated key logs everyone out');

      await patchSite(world.admin, world.organizationId, site.id, '/publishing/auth', { backend: 'custom', fallbackURL: 'https://login.example.com/start?from=docs' });
      const sent = await browse(t.app, `${site.root}/classified-handbook?tab=2`);
      assert.equal(sent.status, 302);
      assert.equal(sent.headers.location, 'https://login.example.com/start?from=docs&location=%2Fclassified-handbook%3Ftab%3D2');
    });

    it('escapes every text of the site and its pages', async () => {
      const evil = '<img src=x onerror=alert(1)>"\'';
      const space = (await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: evil, description: evil, markdown: `Text ${evil}\n\n## ${evil}\n` }], { title: evil })).spaceId;
      const site = await createSite(world.admin, world.organizationId, { title: `Site ${evil}`, visibility: 'public', spaces: [space] });
      for (const path of ['', '/~search?q=%3Cimg%20src%3Dx%3E', '/nothing-here']) {
        const page = await browse(t.app, `${site.root}${path}`);
        assert.doesNotMatch(page.body, /<img src=x/, path);
      }
    });

    it('reveals nothing of a restricted site in any response to a visitor without credentials', async () => {
      const share = await make('share-link', 'Hush share site');
      const auth = await make('visitor-auth', 'Hush auth site');
      for (const root of [share.root, auth.root]) {
        for (const path of ['', '/classified-handbook', '/robots.txt', '/sitemap.xml', '/llms.txt', '/~search?q=heron', '/~search.json?q=heron', '/classified-handbook.md', '/~files/x/y/z']) {
          const reply = await browse(t.app, `${root}${path}`);
          assert.ok(reply.status === 404 || reply.status === 401, `${root}${path}: ${reply.status}`);
          assert.doesNotMatch(reply.body, /heron|Classified|Hush|Internal/, `${root}${path}`);
        }
      }
    });
  });
}
