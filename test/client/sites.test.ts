import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, SiteAgentsContext, SiteType, SiteVisibility } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, postSpace, type World } from '../helpers/factories.ts';

/**
 * The public client, over real HTTP, runs every site operation: create, list, read, change, publish, share
 * links, visitor authentication and the adaptive schema, then deletes. Every answer is validated against
 * the client's document by the test app.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: sites [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let api: GitBookAPI;
    let reader: GitBookAPI;
    let spaceId: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = (await postSpace(t.clock, world.admin, world.organizationId, { title: 'Guide' })).id;
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: world.admin.token });
      reader = new GitBookAPI({ endpoint: address, authToken: world.members.read.token });
    });
    after(() => t.close());

    it('creates, lists, reads, changes, publishes and deletes a site', async () => {
      const org = world.organizationId;
      const created = await api.orgs.createSite(org, { title: 'Client docs', spaces: [spaceId] });
      assert.equal(created.status, 201);
      const site = created.data;
      assert.equal(site.object, 'site');
      assert.equal(site.published, false);
      assert.equal(site.siteSpaces, 1);
      assert.equal((site as { defaultSpace?: string }).defaultSpace, spaceId);
      const sample = await api.orgs.createSite(org, { spaces: 'sample', visibility: SiteVisibility.Unlisted, type: SiteType.Premium });
      assert.equal(sample.data.title, 'Untitled site');

      const listed = await reader.orgs.listSites(org, { space: spaceId, published: false, type: [SiteType.Basic], title: 'client', limit: 10 });
      assert.deepEqual(listed.data.items.map((s) => s.id), [site.id]);
      assert.equal((await reader.orgs.getSiteById(org, site.id)).data.title, 'Client docs');

      const updated = await api.orgs.updateSiteById(org, site.id, { title: 'Client docs v2', basename: 'client', agentsContext: SiteAgentsContext.Included, adaptiveContent: { enabled: true }, proxy: 'example.com/docs' });
      assert.equal(updated.data.title, 'Client docs v2');
      assert.equal(updated.data.basename, 'client');
      assert.deepEqual(updated.data.proxy, { origin: 'example.com/docs', target: `http://quire.test/sites/${org}/client` });
      const withHostname = await api.orgs.updateSiteById(org, site.id, { hostname: 'docs.client.com' } as never);
      assert.equal(withHostname.data.hostname, 'docs.client.com');
      await assert.rejects(reader.orgs.updateSiteById(org, site.id, { title: 'Nope' }), /create role/);
      await assert.rejects(api.orgs.updateSiteById(org, site.id, { basename: 'a/b' }), /basename/);

      const published = await api.orgs.publishSite(org, site.id);
      assert.equal((published.data as { published: boolean }).published, true);
      assert.equal((published.data as { urls: { published?: string } }).urls.published, `http://quire.test/sites/${org}/client`);
      const unpublished = await api.orgs.unpublishSite(org, site.id);
      assert.equal(unpublished.data.published, false);

      const deleted = await api.orgs.deleteSiteById(org, sample.data.id);
      assert.ok(deleted.ok);
      assert.equal(deleted.status, 205);
      const again = await api.orgs.deleteSiteById(org, sample.data.id);
      assert.equal(again.status, 204);
      await assert.rejects(api.orgs.getSiteById(org, sample.data.id), /No site/);
    });

    it('manages share links', async () => {
      const org = world.organizationId;
      const site = (await api.orgs.createSite(org, { title: 'Shared', visibility: SiteVisibility.ShareLink })).data;
      const link = await api.orgs.createSiteShareLink(org, site.id, { name: 'Partners' });
      assert.equal(link.status, 201);
      assert.match(link.data.urls.published ?? '', /\?share=[A-Za-z0-9_-]+$/);
      const list = await api.orgs.listSiteShareLinks(org, site.id, { limit: 5 });
      assert.deepEqual(list.data.items.map((l) => l.id), [link.data.id]);
      const off = await api.orgs.updateSiteShareLinkById(org, site.id, link.data.id, { active: false, name: 'Old partners' });
      assert.deepEqual([off.data.active, off.data.name], [false, 'Old partners']);
      await assert.rejects(reader.orgs.listSiteShareLinks(org, site.id), /administrators/);
      assert.equal((await api.orgs.deleteSiteShareLinkById(org, site.id, link.data.id)).status, 205);
      assert.equal((await api.orgs.deleteSiteShareLinkById(org, site.id, link.data.id)).status, 204);
    });

    it('reads, changes and regenerates the visitor-auth key', async () => {
      const org = world.organizationId;
      const site = (await api.orgs.createSite(org, { title: 'Private', visibility: SiteVisibility.VisitorAuth })).data;
      const auth = await api.orgs.getSitePublishingAuthById(org, site.id);
      assert.equal(auth.data.object, 'publishing-auth');
      assert.equal(auth.data.backend, 'custom');
      const changed = await api.orgs.updateSitePublishingAuthById(org, site.id, { backend: 'custom', fallbackURL: 'https://example.com/login' });
      assert.equal(changed.data.fallbackURL, 'https://example.com/login');
      assert.equal(changed.data.privateKey, auth.data.privateKey);
      await assert.rejects(api.orgs.updateSitePublishingAuthById(org, site.id, { backend: 'integration' }), /integrations/);
      const regenerated = await api.orgs.regenerateSitePublishingAuthById(org, site.id);
      assert.notEqual(regenerated.data.privateKey, auth.data.privateKey);
      await assert.rejects(reader.orgs.getSitePublishingAuthById(org, site.id), /administrators/);
    });

    it('reads and replaces the adaptive schema, and lists condition templates', async () => {
      const org = world.organizationId;
      const site = (await api.orgs.createSite(org, { title: 'Adaptive' })).data;
      const initial = await reader.orgs.getSiteAdaptiveSchema(org, site.id);
      assert.equal(initial.data.object, 'site-adaptive-schema');
      const jsonSchema = {
        type: 'object' as const,
        properties: {
          isBeta: { type: 'boolean' as const, description: 'In the beta programme' },
          unsigned: { type: 'object' as const, description: 'Unsigned claims of the site visitor.' as const, properties: {}, additionalProperties: false as const },
        },
        additionalProperties: false as const,
      };
      const put = await api.orgs.updateSiteAdaptiveSchema(org, site.id, { jsonSchema } as never);
      assert.deepEqual(put.data.jsonSchema, jsonSchema);
      const conditions = await reader.orgs.listSiteAdaptiveTemplateConditions(org, site.id);
      assert.ok(conditions.data.items.some((c) => c.condition.includes('isBeta')));
    });
  });
}
