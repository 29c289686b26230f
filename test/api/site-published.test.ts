import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { createWorld, postSpace, type World } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`published site profile [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let orgUrl: string;
    const spaces: Record<string, string> = {};

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      orgUrl = `/v1/orgs/${world.organizationId}`;
      for (const title of ['Guides', 'Beta', 'Reference']) spaces[title] = (await postSpace(t.clock, world.admin, world.organizationId, { title })).id;
    });
    after(() => t.close());

    const ok = (reply: Reply, status = 200) => {
      assert.equal(reply.status, status, JSON.stringify(reply.body));
      return reply.body;
    };
    const newSite = async (visibility: string, publish: boolean): Promise<string> => {
      t.clock.advance(1000);
      const site = ok(await world.admin.api.post(`${orgUrl}/sites`, { title: `Site ${visibility}`, visibility, spaces: [spaces.Guides] }), 201);
      if (publish) ok(await world.admin.api.post(`${orgUrl}/sites/${site.id}/publish`));
      return site.id;
    };
    const published = (siteId: string, query = '') => `${orgUrl}/sites/${siteId}/published${query}`;

    it('a published public site is readable by anyone with a token, with the full profile', async () => {
      const siteId = await newSite('public', true);
      const profile = ok(await world.outsider.api.get(published(siteId)));
      assert.equal(profile.object, 'published-content-site');
      assert.equal(profile.site.id, siteId);
      assert.equal(profile.structure.type, 'siteSpaces');
      assert.equal(profile.structure.structure.length, 1);
      const siteSpace = profile.structure.structure[0];
      assert.equal(siteSpace.space.id, spaces.Guides);
      assert.equal(siteSpace.space.permissions.edit, false, 'an outsider holds no level on the space');
      assert.equal(siteSpace.urls.published, profile.site.urls.published);
      assert.deepEqual(profile.scripts, []);
      assert.equal(profile.customizations.site.title, 'Site public');
      assert.equal(profile.customizations.site.styling.theme, 'clean');
      assert.deepEqual(Object.keys(profile.customizations.siteSpaces), [siteSpace.id]);
      // The member sees it too, with their own standing on the space.
      assert.equal(ok(await world.admin.api.get(published(siteId))).structure.structure[0].space.permissions.admin, true);
    });

    it('an unpublished site is 404 for outsiders and 200 for members (not guests)', async () => {
      const siteId = await newSite('public', false);
      assertError(await world.outsider.api.get(published(siteId)), 404);
      assertError(await world.guest.api.get(published(siteId)), 404);
      ok(await world.members.read.api.get(published(siteId)));
      assertError(await world.outsider.api.get(published('missing')), 404);
      assertError(await world.admin.api.get(published('missing')), 404);
    });

    it('a share-link site opens with an active share key only', async () => {
      const siteId = await newSite('share-link', true);
      assertError(await world.outsider.api.get(published(siteId)), 404);
      const link = ok(await world.admin.api.post(`${orgUrl}/sites/${siteId}/share-links`, { name: 'Partners' }), 201);
      const key = new URL(link.urls.published).searchParams.get('share');
      assert.ok(key, 'the share link carries its key');
      const profile = ok(await world.outsider.api.get(published(siteId, `?shareKey=${encodeURIComponent(key!)}`)));
      assert.ok(profile.structure.structure[0].urls.published.includes(`share=${encodeURIComponent(key!)}`), 'published URLs carry the key');
      assertError(await world.outsider.api.get(published(siteId, '?shareKey=not-a-key')), 404);
      assert.equal(ok(await world.admin.api.patch(`${orgUrl}/sites/${siteId}/share-links/${link.id}`, { active: false })).active, false);
      assertError(await world.outsider.api.get(published(siteId, `?shareKey=${encodeURIComponent(key!)}`)), 404);
      // A member still reads it, and their URLs do not carry an inactive key.
      const member = ok(await world.admin.api.get(published(siteId, `?shareKey=${encodeURIComponent(key!)}`)));
      assert.ok(!member.structure.structure[0].urls.published.includes('share='));
    });

    it('a visitor-auth site opens with a valid visitor JWT; forged and expired tokens are refused', async () => {
      const siteId = await newSite('visitor-auth', true);
      const auth = ok(await world.admin.api.get(`${orgUrl}/sites/${siteId}/publishing/auth`));
      const key = new TextEncoder().encode(auth.privateKey);
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const sign = (claims: Record<string, unknown>, exp: number, secret = key) =>
        new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setIssuedAt(now).setExpirationTime(exp).sign(secret);
      assertError(await world.outsider.api.get(published(siteId)), 404);
      const valid = await sign({ name: 'Vera' }, now + 600);
      ok(await world.outsider.api.get(published(siteId, `?jwt_token=${valid}`)));
      const forged = await sign({ name: 'Vera' }, now + 600, new TextEncoder().encode('another key entirely, not the site one'));
      assertError(await world.outsider.api.get(published(siteId, `?jwt_token=${forged}`)), 404);
      const expired = await sign({ name: 'Vera' }, now - 3600);
      assertError(await world.outsider.api.get(published(siteId, `?jwt_token=${expired}`)), 404);
      assertError(await world.outsider.api.get(published(siteId, '?jwt_token=garbage')), 404);
    });

    it('sections and site spaces with a condition are shown only to visitors whose claims satisfy it', async () => {
      const siteId = await newSite('visitor-auth', true);
      const beta = ok(await world.admin.api.post(`${orgUrl}/sites/${siteId}/sections`, { spaceId: spaces.Beta }), 201);
      ok(await world.admin.api.patch(`${orgUrl}/sites/${siteId}/sections/${beta.id}`, { condition: 'visitor.claims.beta == true' }));
      const docs = ok(await world.admin.api.get(`${orgUrl}/sites/${siteId}/sections`)).items[0];
      const hiddenSpace = ok(await world.admin.api.post(`${orgUrl}/sites/${siteId}/site-spaces`, { spaceId: spaces.Reference, sectionId: docs.id }), 201);
      ok(await world.admin.api.patch(`${orgUrl}/sites/${siteId}/site-spaces/${hiddenSpace.id}`, { condition: 'visitor.claims.beta == true' }));
      const auth = ok(await world.admin.api.get(`${orgUrl}/sites/${siteId}/publishing/auth`));
      const key = new TextEncoder().encode(auth.privateKey);
      const now = Math.floor(t.clock.now().getTime() / 1000);
      const token = (claims: Record<string, unknown>) => new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).setExpirationTime(now + 600).sign(key);
      const titles = (profile: any) =>
        profile.structure.structure.map((s: any) => `${s.title}${s.default ? '*' : ''}: ${s.siteSpaces.map((x: any) => x.title).join(',')}`);

      const without = ok(await world.outsider.api.get(published(siteId, `?jwt_token=${await token({ beta: false })}`)));
      assert.deepEqual(titles(without), ['Site visitor-auth*: Guides']);
      assert.deepEqual(Object.keys(without.customizations.siteSpaces).length, 1);
      const withClaim = ok(await world.outsider.api.get(published(siteId, `?jwt_token=${await token({ beta: true })}`)));
      assert.deepEqual(titles(withClaim), ['Site visitor-auth*: Guides,Reference', 'Beta: Beta']);
      // Members without claims see what an anonymous visitor sees.
      assert.deepEqual(titles(ok(await world.admin.api.get(published(siteId)))), ['Site visitor-auth*: Guides']);
    });
  });
}
