import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI, SiteVisibility } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createWorld, postSpace, type World } from '../helpers/factories.ts';

/**
 * The public client, over real HTTP, builds a site's structure with every operation of the site sections,
 * section groups and site spaces groups (the deprecated moves too), then reads the published profile. Every
 * answer is validated against the client's document by the test app.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: site structure [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let api: GitBookAPI;
    let outsiderApi: GitBookAPI;
    const spaces: Record<string, string> = {};
    let org: string;
    let siteId: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      org = world.organizationId;
      for (const title of ['Guides', 'Reference', 'Changelog', 'API']) spaces[title] = (await postSpace(t.clock, world.admin, org, { title })).id;
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      api = new GitBookAPI({ endpoint: address, authToken: world.admin.token });
      outsiderApi = new GitBookAPI({ endpoint: address, authToken: world.outsider.token });
      siteId = (await api.orgs.createSite(org, { title: 'Client Docs', spaces: [spaces.Guides!] })).data.id;
    });
    after(() => t.close());

    it('manages sections, groups and site spaces, and reads the published profile', async () => {
      // Site spaces at the root.
      const added = (await api.orgs.addSpaceToSite(org, siteId, { spaceId: spaces.Reference! })).data;
      assert.equal(added.object, 'site-space');
      let siteSpaces = (await api.orgs.listSiteSpaces(org, siteId)).data;
      assert.deepEqual(siteSpaces.items.map((s) => s.title), ['Guides', 'Reference']);
      const moved = (await api.orgs.moveSiteSpace(org, siteId, added.id, { position: { before: { type: 'site-space', siteSpace: siteSpaces.items[0]!.id } } })).data;
      assert.equal(moved.id, added.id);
      siteSpaces = (await api.orgs.listSiteSpaces(org, siteId, { default: false })).data;
      assert.deepEqual(siteSpaces.items.map((s) => s.title), ['Reference']);
      const updatedSpace = (await api.orgs.updateSiteSpaceById(org, siteId, added.id, { path: 'ref', condition: 'visitor.claims.beta == true' })).data;
      assert.equal(updatedSpace.path, 'ref');

      // Sections: the first one wraps the root.
      const changelog = (await api.orgs.addSectionToSite(org, siteId, { spaceId: spaces.Changelog! })).data;
      const apiSection = (await api.orgs.addSectionToSite(org, siteId, { spaceId: spaces.API!, title: 'API docs', icon: 'code' })).data;
      let sections = (await api.orgs.listSiteSections(org, siteId)).data;
      assert.deepEqual(sections.items.map((s) => s.title), ['Client Docs', 'Changelog', 'API docs']);
      assert.equal(sections.items[0]!.default, true);
      const updated = (await api.orgs.updateSiteSectionById(org, siteId, changelog.id, { title: 'Release notes', description: 'What changed' })).data;
      assert.equal(updated.title, 'Release notes');
      const movedSection = (await api.orgs.moveSiteSection(org, siteId, apiSection.id, { position: { before: { type: 'site-section', siteSection: changelog.id } } })).data;
      assert.equal(movedSection.id, apiSection.id);
      sections = (await api.orgs.listSiteSections(org, siteId)).data;
      assert.deepEqual(sections.items.map((s) => s.title), ['Client Docs', 'API docs', 'Release notes']);

      // Groups.
      const group = (await api.orgs.addSectionGroupToSite(org, siteId, { title: 'Developers', sections: [apiSection.id] })).data;
      assert.equal(group.object, 'site-section-group');
      const grown = (await api.orgs.addSectionToGroup(org, siteId, group.id, { sectionId: changelog.id })).data;
      assert.deepEqual(grown.sections.map((s) => s.id), [apiSection.id, changelog.id]);
      const renamed = (await api.orgs.updateSiteSectionGroupById(org, siteId, group.id, { title: 'Devs', icon: 'code' })).data;
      assert.equal(renamed.title, 'Devs');
      const movedGroup = (await api.orgs.moveSiteSectionGroup(org, siteId, group.id, { position: { before: { type: 'site-section', id: sections.items[0]!.id } } })).data;
      assert.equal(movedGroup.id, group.id);
      const groups = (await api.orgs.listSiteSectionGroups(org, siteId)).data;
      assert.deepEqual(groups.items.map((g) => g.title), ['Devs']);
      const structure = (await api.orgs.getSiteStructure(org, siteId)).data;
      assert.equal(structure.type, 'sections');
      assert.deepEqual(
        structure.structure.map((item) => item.title),
        ['Devs', 'Client Docs'],
      );
      const sorted = (await api.orgs.sortSiteStructure(org, siteId, { item: { type: 'site-section-group', id: group.id }, position: {} })).data;
      assert.equal(sorted.id, group.id);
      await api.orgs.removeSectionFromGroup(org, siteId, group.id, changelog.id);
      assert.deepEqual((await api.orgs.listSiteSectionGroups(org, siteId)).data.items[0]!.sections.map((s) => s.id), [apiSection.id]);

      // The published profile: an outsider reads it once the site is public and published.
      await assert.rejects(outsiderApi.orgs.getPublishedContentSite(org, siteId), (error: { code?: number; statusCode?: number }) => (error.code ?? error.statusCode) === 404);
      await api.orgs.publishSite(org, siteId);
      await api.orgs.updateSiteById(org, siteId, { visibility: SiteVisibility.Public });
      const profile = (await outsiderApi.orgs.getPublishedContentSite(org, siteId)).data;
      assert.equal(profile.object, 'published-content-site');
      assert.equal(profile.site.id, siteId);
      assert.equal(profile.structure.type, 'sections');

      // Deletes, including of what is already gone.
      await api.orgs.deleteSiteSectionGroupById(org, siteId, group.id);
      await api.orgs.deleteSiteSectionGroupById(org, siteId, group.id);
      await api.orgs.deleteSiteSpaceById(org, siteId, added.id);
      await api.orgs.deleteSiteSpaceById(org, siteId, added.id);
      await api.orgs.deleteSiteSectionById(org, siteId, changelog.id);
      await api.orgs.deleteSiteSectionById(org, siteId, changelog.id);
      sections = (await api.orgs.listSiteSections(org, siteId)).data;
      assert.deepEqual(sections.items.map((s) => s.title), ['Client Docs', 'API docs'], 'the group was sorted to the end; its sections stay there');
    });
  });
}
