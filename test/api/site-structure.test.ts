import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, postSpace, type TestUser, type World } from '../helpers/factories.ts';

for (const dialect of dialects) {
  describe(`site structure [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let orgUrl: string;
    const spaces: Record<string, string> = {};

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      orgUrl = `/v1/orgs/${world.organizationId}`;
      for (const title of ['Guides', 'Reference', 'Changelog', 'API', 'Blog', 'Extra']) {
        spaces[title] = (await postSpace(t.clock, world.admin, world.organizationId, { title })).id;
      }
    });
    after(() => t.close());

    const ok = (reply: Reply, status = 200) => {
      assert.equal(reply.status, status, JSON.stringify(reply.body));
      return reply.body;
    };
    const newSite = async (spaceTitles: string[], title = 'Docs'): Promise<string> => {
      t.clock.advance(1000);
      const body = ok(await world.admin.api.post(`${orgUrl}/sites`, { title, spaces: spaceTitles.map((s) => spaces[s]) }), 201);
      return body.id;
    };
    const siteUrl = (siteId: string) => `${orgUrl}/sites/${siteId}`;
    const structure = async (siteId: string) => ok(await world.admin.api.get(`${siteUrl(siteId)}/structure`));
    /** The structure as titles: sections "Title*" (default) with site space titles, groups as [title: …]. */
    const outline = async (siteId: string): Promise<unknown> => {
      const s = await structure(siteId);
      const spaceLabel = (ss: any) => `${ss.title}${ss.default ? '*' : ''}`;
      const section = (sec: any) => ({ [`${sec.title}${sec.default ? '*' : ''}`]: sec.siteSpaces.map(spaceLabel) });
      if (s.type === 'siteSpaces') return s.structure.map(spaceLabel);
      return s.structure.map((item: any) => (item.object === 'site-section-group' ? { [`[${item.title}]`]: item.sections.map(section) } : section(item)));
    };
    const version = async (siteId: string) => Number((await t.ctx.db.selectFrom('sites').select('version').where('id', '=', siteId).executeTakeFirstOrThrow()).version);
    const snapshot = async (siteId: string) =>
      JSON.stringify([
        await t.ctx.db.selectFrom('site_sections').selectAll().where('site_id', '=', siteId).orderBy('id').execute(),
        await t.ctx.db.selectFrom('site_section_groups').selectAll().where('site_id', '=', siteId).orderBy('id').execute(),
        await t.ctx.db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).orderBy('id').execute(),
        await t.ctx.db.selectFrom('sites').select(['default_section_id', 'default_site_space_id']).where('id', '=', siteId).execute(),
      ]);
    const addSection = async (siteId: string, space: string, extra: Record<string, unknown> = {}) =>
      ok(await world.admin.api.post(`${siteUrl(siteId)}/sections`, { spaceId: spaces[space], ...extra }), 201);

    it('a site without sections holds site spaces at its root; the first is the default', async () => {
      const siteId = await newSite(['Guides', 'Reference']);
      assert.deepEqual(await outline(siteId), ['Guides*', 'Reference']);
      const list = ok(await world.admin.api.get(`${siteUrl(siteId)}/site-spaces`));
      assert.equal(list.count, 2);
      assert.deepEqual(list.items.map((s: any) => s.path), ['guides', 'reference']);
      assert.equal(list.items[0].space.id, spaces.Guides);
      assert.equal(list.items[0].urls.location, `http://quire.test${siteUrl(siteId)}/site-spaces/${list.items[0].id}`);
      assert.equal(list.items[0].urls.published, undefined, 'no published URL while unpublished');
      assert.equal(list.items[0].section, undefined);
      const defaults = ok(await world.admin.api.get(`${siteUrl(siteId)}/site-spaces?default=true`));
      assert.deepEqual(defaults.items.map((s: any) => s.title), ['Guides']);
      const others = ok(await world.admin.api.get(`${siteUrl(siteId)}/site-spaces?default=false`));
      assert.deepEqual(others.items.map((s: any) => s.title), ['Reference']);
      // Adding a space without a section puts it at the root; the same title gets a suffixed path.
      const again = ok(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: spaces.Guides }), 201);
      assert.equal(again.path, 'guides-2');
      assert.equal(again.default, false);
      assert.deepEqual(await outline(siteId), ['Guides*', 'Reference', 'Guides']);
    });

    it('the first section gathers the root site spaces into a section titled as the site, which stays the default', async () => {
      const siteId = await newSite(['Guides', 'Reference'], 'Product Docs');
      const v = await version(siteId);
      const created = await addSection(siteId, 'Changelog');
      assert.equal(created.object, 'site-section');
      assert.equal(created.title, 'Changelog', 'title defaults to the space title');
      assert.equal(created.path, 'changelog');
      assert.equal(created.default, false);
      assert.equal(created.siteSpaces.length, 1);
      assert.equal(created.siteSpaces[0].default, true);
      assert.equal(created.siteSpaces[0].section, created.id);
      assert.equal(created.urls.location, `http://quire.test${siteUrl(siteId)}/sections/${created.id}`);
      assert.ok((await version(siteId)) > v, 'the site version is bumped');
      assert.deepEqual(await outline(siteId), [{ 'Product Docs*': ['Guides*', 'Reference'] }, { Changelog: ['Changelog*'] }]);
      const sections = ok(await world.admin.api.get(`${siteUrl(siteId)}/sections`));
      assert.deepEqual(sections.items.map((s: any) => s.path), ['product-docs', 'changelog']);
      // A space added without a section goes to the default section.
      const added = ok(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: spaces.API }), 201);
      assert.equal(added.section, sections.items[0].id);
      // With a section, to that one.
      const toChangelog = ok(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: spaces.Blog, sectionId: created.id }), 201);
      assert.equal(toChangelog.section, created.id);
      assert.deepEqual(await outline(siteId), [{ 'Product Docs*': ['Guides*', 'Reference', 'API'] }, { Changelog: ['Changelog*', 'Blog'] }]);
      // A title and an icon may be given; a second section with the same title gets a suffixed path.
      const titled = await addSection(siteId, 'Extra', { title: 'Changelog', icon: 'gear' });
      assert.equal(titled.path, 'changelog-2');
      assert.equal(titled.icon, 'gear');
    });

    it('a site created empty takes its first section as the default', async () => {
      const siteId = await newSite([]);
      assert.deepEqual(await outline(siteId), []);
      const first = await addSection(siteId, 'Guides', { title: null });
      assert.equal(first.default, true);
      assert.deepEqual(await outline(siteId), [{ 'Guides*': ['Guides*'] }]);
    });

    it('refuses bad values with 400 and path clashes with 409, changing nothing', async () => {
      const siteId = await newSite(['Guides']);
      const section = await addSection(siteId, 'Reference');
      const other = await addSection(siteId, 'Changelog');
      const sectionUrl = `${siteUrl(siteId)}/sections/${section.id}`;
      const before = await snapshot(siteId);
      const refusals: Array<[string, unknown, number, string?]> = [
        ['title too short', { title: 'a' }, 400],
        ['title too long', { title: 'x'.repeat(129) }, 400],
        ['path empty', { path: '' }, 400],
        ['path too long', { path: 'p'.repeat(101) }, 400],
        ['path with a slash', { path: 'a/b' }, 400, 'one URL segment'],
        ['path taken', { path: other.path }, 409, 'already has the path'],
        ['condition empty', { condition: '' }, 400],
        ['condition too long', { condition: 'x'.repeat(1025) }, 400],
        ['condition unparsable', { condition: 'visitor.claims.beta ==' }, 400],
        ['icon too long', { icon: 'i'.repeat(51) }, 400],
        ['description too long', { description: 'd'.repeat(257) }, 400],
        ['unknown member', { colour: 'red' }, 400],
        ['default site space of another section', { defaultSiteSpace: other.siteSpaces[0].id }, 400, 'is not in section'],
      ];
      for (const [name, body, status, words] of refusals) {
        const reply = await world.admin.api.patch(sectionUrl, body);
        assertError(reply, status, words);
        assert.equal(await snapshot(siteId), before, `${name}: nothing changed`);
      }
      const siteSpaceUrl = `${siteUrl(siteId)}/site-spaces/${section.siteSpaces[0].id}`;
      for (const body of [{ path: '' }, { path: 'x'.repeat(101) }, { path: 'a b' }, { condition: '' }, { condition: 'x'.repeat(1025) }, { condition: '(((' }, { spaceId: 'nope' }]) {
        const reply = await world.admin.api.patch(siteSpaceUrl, body);
        assert.ok([400, 404].includes(reply.status), `${JSON.stringify(body)} → ${reply.status}`);
      }
      assert.equal(await snapshot(siteId), before);
      // Creation limits.
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/sections`, { spaceId: spaces.Blog, title: 'a' }), 400);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/sections`, { spaceId: spaces.Blog, icon: 'i'.repeat(51) }), 400);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/sections`, {}), 400);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/sections`, { spaceId: 'missing' }), 404, 'No space');
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: spaces.Blog, sectionId: 'missing' }), 400, 'is not a section');
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/section-groups`, { title: '' }), 400);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/section-groups`, { title: 'x'.repeat(101) }), 400);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/section-groups`, { title: 'G', icon: 'i'.repeat(51) }), 400);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/section-groups`, { title: 'G', sections: ['missing'] }), 400, 'is not a section of this site');
      assertError(await world.admin.api.get(`${siteUrl(siteId)}/sections?limit=1001`), 400);
      assert.equal(await snapshot(siteId), before);
      // A space of another organization cannot be published here, even when its admin asks.
      const foreign = await postSpace(t.clock, world.outsider, world.otherOrganizationId, { title: 'Foreign' });
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: foreign.id }), 404);
      assert.equal(await snapshot(siteId), before);
    });

    it('changes sections and site spaces: title, path, condition, icon, description, default, target space', async () => {
      const siteId = await newSite(['Guides']);
      const section = await addSection(siteId, 'Reference');
      const sectionUrl = `${siteUrl(siteId)}/sections/${section.id}`;
      const changed = ok(
        await world.admin.api.patch(sectionUrl, { title: 'Ref', path: 'ref', condition: 'visitor.claims.beta == true', icon: 'book', description: 'All of it' }),
      );
      assert.equal(changed.title, 'Ref');
      assert.equal(changed.path, 'ref');
      assert.equal(changed.condition, 'visitor.claims.beta == true');
      assert.equal(changed.icon, 'book');
      assert.equal(changed.description, 'All of it');
      const cleared = ok(await world.admin.api.patch(sectionUrl, { condition: null, icon: null, description: null }));
      assert.equal(cleared.condition, undefined);
      assert.equal(cleared.icon, undefined);
      assert.equal(cleared.description, undefined);
      assert.equal(ok(await world.admin.api.patch(sectionUrl, { title: 'Reference' })).path, 'ref', 'an omitted member stays');

      const second = ok(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: spaces.API, sectionId: section.id }), 201);
      const withDefault = ok(await world.admin.api.patch(sectionUrl, { defaultSiteSpace: second.id }));
      assert.deepEqual(withDefault.siteSpaces.map((s: any) => [s.title, s.default]), [['Reference', false], ['API', true]]);

      const siteSpaceUrl = `${siteUrl(siteId)}/site-spaces/${second.id}`;
      assertError(await world.admin.api.patch(siteSpaceUrl, { path: 'reference' }), 409, 'already has the path');
      const renamed = ok(await world.admin.api.patch(siteSpaceUrl, { path: 'api-v2', condition: 'visitor.claims.beta == true' }));
      assert.equal(renamed.path, 'api-v2');
      assert.equal(renamed.condition, 'visitor.claims.beta == true');
      const retargeted = ok(await world.admin.api.patch(siteSpaceUrl, { spaceId: spaces.Blog }));
      assert.equal(retargeted.space.id, spaces.Blog);
      assert.equal(retargeted.title, 'Blog');
      assert.equal(retargeted.path, 'api-v2');
      assert.equal(retargeted.condition, 'visitor.claims.beta == true', 'an omitted condition stays');
      // The same path in another container is fine.
      const rootSide = ok(await world.admin.api.get(`${siteUrl(siteId)}/sections`)).items[0];
      ok(await world.admin.api.patch(`${siteUrl(siteId)}/site-spaces/${rootSide.siteSpaces[0].id}`, { path: 'api-v2' }));
    });

    it('deletes sections and site spaces; a default that goes is replaced by the first remaining; missing → 204', async () => {
      const siteId = await newSite(['Guides', 'Reference']);
      await addSection(siteId, 'Changelog');
      await addSection(siteId, 'API');
      const [docs, changelog] = ok(await world.admin.api.get(`${siteUrl(siteId)}/sections`)).items;
      assert.equal(docs.default, true);
      // The default site space of the default section goes: the next one takes over.
      const removed = await world.admin.api.delete(`${siteUrl(siteId)}/site-spaces/${docs.siteSpaces[0].id}`);
      assert.equal(removed.status, 205);
      assert.deepEqual(await outline(siteId), [{ 'Docs*': ['Reference*'] }, { Changelog: ['Changelog*'] }, { API: ['API*'] }]);
      // The default section goes with its site spaces: the next section becomes the default.
      assert.equal((await world.admin.api.delete(`${siteUrl(siteId)}/sections/${docs.id}`)).status, 205);
      assert.deepEqual(await outline(siteId), [{ 'Changelog*': ['Changelog*'] }, { API: ['API*'] }]);
      const left = await t.ctx.db.selectFrom('site_spaces').select('id').where('site_id', '=', siteId).execute();
      assert.equal(left.length, 2, 'the site spaces of the deleted section are gone');
      for (const url of [`sections/${docs.id}`, `site-spaces/${docs.siteSpaces[0].id}`, 'section-groups/missing', `section-groups/missing/sections/${changelog.id}`]) {
        const reply = await world.admin.api.delete(`${siteUrl(siteId)}/${url}`);
        assert.equal(reply.status, 204, url);
        assert.equal(reply.body, undefined);
      }
      // Deleting every section leaves a site without sections.
      for (const s of ok(await world.admin.api.get(`${siteUrl(siteId)}/sections`)).items) await world.admin.api.delete(`${siteUrl(siteId)}/sections/${s.id}`);
      assert.deepEqual(await structure(siteId), { type: 'siteSpaces', structure: [] });
    });

    it('groups sections; deleting a group keeps its sections in its place; sections leave and join groups', async () => {
      const siteId = await newSite([]);
      const a = await addSection(siteId, 'Guides');
      const b = await addSection(siteId, 'Reference');
      const c = await addSection(siteId, 'Changelog');
      const d = await addSection(siteId, 'API');
      const group = ok(await world.admin.api.post(`${siteUrl(siteId)}/section-groups`, { title: 'Dev', icon: 'code', sections: [c.id, b.id] }), 201);
      assert.equal(group.object, 'site-section-group');
      assert.equal(group.icon, 'code');
      assert.deepEqual(group.sections.map((s: any) => s.title), ['Changelog', 'Reference']);
      assert.equal(group.sections[0].sectionGroup, group.id);
      // The group takes the place of its first listed section (Changelog, the third).
      assert.deepEqual(await outline(siteId), [{ 'Guides*': ['Guides*'] }, { '[Dev]': [{ Changelog: ['Changelog*'] }, { Reference: ['Reference*'] }] }, { API: ['API*'] }]);
      const groups = ok(await world.admin.api.get(`${siteUrl(siteId)}/section-groups`));
      assert.deepEqual(groups.items.map((g: any) => g.id), [group.id]);
      // The sections list flattens groups, in order.
      assert.deepEqual(ok(await world.admin.api.get(`${siteUrl(siteId)}/sections`)).items.map((s: any) => s.title), ['Guides', 'Changelog', 'Reference', 'API']);

      const renamed = ok(await world.admin.api.patch(`${siteUrl(siteId)}/section-groups/${group.id}`, { title: 'Developers', icon: null }));
      assert.equal(renamed.title, 'Developers');
      assert.equal(renamed.icon, undefined);

      // Append a section; take one out (it lands right after the group).
      const appended = ok(await world.admin.api.post(`${siteUrl(siteId)}/section-groups/${group.id}/sections`, { sectionId: d.id }), 201);
      assert.deepEqual(appended.sections.map((s: any) => s.title), ['Changelog', 'Reference', 'API']);
      assert.equal((await world.admin.api.delete(`${siteUrl(siteId)}/section-groups/${group.id}/sections/${c.id}`)).status, 205);
      assert.equal((await world.admin.api.delete(`${siteUrl(siteId)}/section-groups/${group.id}/sections/${a.id}`)).status, 204, 'not in the group');
      assert.deepEqual(await outline(siteId), [
        { 'Guides*': ['Guides*'] },
        { '[Developers]': [{ Reference: ['Reference*'] }, { API: ['API*'] }] },
        { Changelog: ['Changelog*'] },
      ]);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/section-groups/${group.id}/sections`, { sectionId: 'missing' }), 400);

      // Deleting the group keeps its sections, where the group was.
      assert.equal((await world.admin.api.delete(`${siteUrl(siteId)}/section-groups/${group.id}`)).status, 205);
      assert.deepEqual(await outline(siteId), [{ 'Guides*': ['Guides*'] }, { Reference: ['Reference*'] }, { API: ['API*'] }, { Changelog: ['Changelog*'] }]);
      assert.equal(ok(await world.admin.api.get(`${siteUrl(siteId)}/section-groups`)).count, 0);
    });

    it('moves reorder sections, groups and site spaces (deprecated operations and sortSiteStructure)', async () => {
      const siteId = await newSite([]);
      const a = await addSection(siteId, 'Guides');
      const b = await addSection(siteId, 'Reference');
      const c = await addSection(siteId, 'Changelog');
      const d = await addSection(siteId, 'API');
      const group = ok(await world.admin.api.post(`${siteUrl(siteId)}/section-groups`, { title: 'Dev', sections: [c.id, d.id] }), 201);
      const move = (kind: string, id: string, body: unknown) => world.admin.api.post(`${siteUrl(siteId)}/${kind}/${id}/move`, body);
      const order = async () => {
        const s = await structure(siteId);
        return s.structure.map((item: any) => (item.object === 'site-section-group' ? `[${item.sections.map((x: any) => x.title).join(',')}]` : item.title));
      };
      assert.deepEqual(await order(), ['Guides', 'Reference', '[Changelog,API]']);

      const moved = ok(await move('sections', b.id, { position: { before: { type: 'site-section', siteSection: a.id } } }));
      assert.equal(moved.id, b.id);
      assert.deepEqual(await order(), ['Reference', 'Guides', '[Changelog,API]']);
      // Next to a section of a group: joins that group.
      const joined = ok(await move('sections', a.id, { position: { after: { type: 'site-section', siteSection: c.id } } }));
      assert.equal(joined.sectionGroup, group.id);
      assert.deepEqual(await order(), ['Reference', '[Changelog,Guides,API]']);
      // Next to a top-level section: leaves the group.
      const left = ok(await move('sections', d.id, { position: { before: { type: 'site-section', siteSection: b.id } } }));
      assert.equal(left.sectionGroup, undefined);
      assert.deepEqual(await order(), ['API', 'Reference', '[Changelog,Guides]']);
      // No position: to the end.
      ok(await move('sections', b.id, {}));
      assert.deepEqual(await order(), ['API', '[Changelog,Guides]', 'Reference']);
      // Groups move among top-level items.
      ok(await move('section-groups', group.id, { position: { before: { type: 'site-section', id: d.id } } }));
      assert.deepEqual(await order(), ['[Changelog,Guides]', 'API', 'Reference']);
      ok(await move('section-groups', group.id, {}));
      assert.deepEqual(await order(), ['API', 'Reference', '[Changelog,Guides]']);
      // Pointers to nothing, to itself, or of the wrong kind: 400, nothing changes.
      const before = await snapshot(siteId);
      assertError(await move('sections', b.id, { position: { before: { type: 'site-section', siteSection: b.id } } }), 400);
      assertError(await move('sections', b.id, { position: { before: { type: 'site-section', siteSection: 'missing' } } }), 400, 'not a section of this site');
      assertError(await move('section-groups', group.id, { position: { after: { type: 'site-section-group', id: group.id } } }), 400);
      assertError(await move('section-groups', group.id, { position: { after: { type: 'site-section', id: c.id } } }), 400, 'inside the group');
      assertError(await move('sections', 'missing', {}), 404);
      assert.equal(await snapshot(siteId), before);

      // Site spaces move within their container only.
      const s2 = ok(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: spaces.Blog, sectionId: a.id }), 201);
      const s3 = ok(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: spaces.Extra, sectionId: a.id }), 201);
      const first = a.siteSpaces[0].id;
      const titles = async () => (await structure(siteId)).structure.at(-1).sections.find((s: any) => s.id === a.id).siteSpaces.map((s: any) => s.title);
      assert.deepEqual(await titles(), ['Guides', 'Blog', 'Extra']);
      ok(await move('site-spaces', s3.id, { position: { before: { type: 'site-space', siteSpace: first } } }));
      assert.deepEqual(await titles(), ['Extra', 'Guides', 'Blog']);
      ok(await move('site-spaces', s3.id, {}));
      assert.deepEqual(await titles(), ['Guides', 'Blog', 'Extra']);
      assertError(await move('site-spaces', s2.id, { position: { after: { type: 'site-space', siteSpace: b.siteSpaces[0].id } } }), 400, 'within its container');
      assertError(await move('site-spaces', s2.id, { position: { after: { type: 'site-space', siteSpace: s2.id } } }), 400);

      // sortSiteStructure moves any of the three.
      const sorted = ok(await world.admin.api.patch(`${siteUrl(siteId)}/structure/sort`, { item: { type: 'site-section', id: b.id }, position: { before: { type: 'site-section', id: d.id } } }));
      assert.equal(sorted.object, 'site-section');
      assert.deepEqual(await order(), ['Reference', 'API', '[Changelog,Guides]']);
      const sortedSpace = ok(await world.admin.api.patch(`${siteUrl(siteId)}/structure/sort`, { item: { type: 'site-space', id: s2.id }, position: { before: { type: 'site-space', id: first } } }));
      assert.equal(sortedSpace.object, 'site-space');
      assert.deepEqual(await titles(), ['Blog', 'Guides', 'Extra']);
      assertError(await world.admin.api.patch(`${siteUrl(siteId)}/structure/sort`, { item: { type: 'site-space', id: s2.id }, position: { before: { type: 'site-section', id: b.id } } }), 400);
    });

    it('presents published URLs per the address scheme once the site is published', async () => {
      const siteId = await newSite(['Guides', 'Reference']);
      await addSection(siteId, 'Changelog');
      ok(await world.admin.api.post(`${siteUrl(siteId)}/publish`));
      const site = ok(await world.admin.api.get(siteUrl(siteId)));
      const root = site.urls.published;
      assert.ok(root);
      const [docs, changelog] = ok(await world.admin.api.get(`${siteUrl(siteId)}/sections`)).items;
      assert.equal(docs.urls.published, root);
      assert.equal(docs.siteSpaces[0].urls.published, root);
      assert.equal(docs.siteSpaces[1].urls.published, `${root}/reference`);
      assert.equal(changelog.urls.published, `${root}/changelog`);
      assert.equal(changelog.siteSpaces[0].urls.published, `${root}/changelog`);
    });

    it('role matrix: members see the structure, the create role and above change it, guests 403, outsiders 404', async () => {
      const siteId = await newSite(['Guides']);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/section-groups`, { title: 'Too soon' }), 400, 'add a section first');
      await addSection(siteId, 'Reference');
      const expectedRead: Record<string, number> = { admin: 200, create: 200, review: 200, edit: 200, comment: 200, read: 200, guest: 403, outsider: 404 };
      const expectedWrite: Record<string, number> = { admin: 201, create: 201, review: 403, edit: 403, comment: 403, read: 403, guest: 403, outsider: 404 };
      for (const [name, user] of cast(world) as Array<[string, TestUser]>) {
        for (const path of ['sections', 'section-groups', 'site-spaces', 'structure']) {
          const reply = await user.api.get(`${siteUrl(siteId)}/${path}`);
          assert.equal(reply.status, expectedRead[name], `${name} GET ${path}: ${JSON.stringify(reply.body)}`);
        }
        const before = await snapshot(siteId);
        const reply = await user.api.post(`${siteUrl(siteId)}/section-groups`, { title: `By ${name}` });
        assert.equal(reply.status, expectedWrite[name], `${name} POST section-groups: ${JSON.stringify(reply.body)}`);
        if (reply.status !== 201) {
          assert.equal(await snapshot(siteId), before);
          const patch = await user.api.patch(`${siteUrl(siteId)}/site-spaces/whatever`, { path: 'x' });
          assert.equal(patch.status, expectedWrite[name] === 404 ? 404 : 403, `${name} PATCH site space`);
          const del = await user.api.delete(`${siteUrl(siteId)}/sections/whatever`);
          assert.equal(del.status, expectedWrite[name] === 404 ? 404 : 403, `${name} DELETE section`);
        }
      }
      // A member who cannot read a space cannot publish it.
      const hidden = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Hidden' });
      ok(await world.admin.api.patch(`/v1/spaces/${hidden.id}`, { defaultLevel: null }));
      assertError(await world.members.create.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: hidden.id }), 404);
    });

    it('paginates lists with cursors', async () => {
      const siteId = await newSite(['Guides', 'Reference', 'Changelog', 'API', 'Blog']);
      const first = ok(await world.admin.api.get(`${siteUrl(siteId)}/site-spaces?limit=2`));
      assert.equal(first.count, 5);
      assert.equal(first.items.length, 2);
      const second = ok(await world.admin.api.get(`${siteUrl(siteId)}/site-spaces?limit=2&page=${encodeURIComponent(first.next.page)}`));
      const third = ok(await world.admin.api.get(`${siteUrl(siteId)}/site-spaces?limit=2&page=${encodeURIComponent(second.next.page)}`));
      assert.equal(third.next, undefined);
      assert.deepEqual([...first.items, ...second.items, ...third.items].map((s: any) => s.title), ['Guides', 'Reference', 'Changelog', 'API', 'Blog']);
      assertError(await world.admin.api.get(`${siteUrl(siteId)}/site-spaces?page=forged`), 400);
    });

    it('leaves out site spaces whose space is in the trash', async () => {
      const trashed = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Soon gone' });
      const siteId = await newSite(['Guides']);
      ok(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: trashed.id }), 201);
      assert.equal(ok(await world.admin.api.get(`${siteUrl(siteId)}/site-spaces`)).count, 2);
      assert.ok([204, 205].includes((await world.admin.api.delete(`/v1/spaces/${trashed.id}`)).status));
      assert.deepEqual(await outline(siteId), ['Guides*']);
      assertError(await world.admin.api.post(`${siteUrl(siteId)}/site-spaces`, { spaceId: trashed.id }), 404);
    });
  });
}
