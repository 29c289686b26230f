import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { SignJWT } from 'jose';
import { verifyVisitorJwt } from '../../src/sites/visitor.ts';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, postSpace, type TestUser, type World } from '../helpers/factories.ts';

type Role = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read' | 'guest' | 'outsider';
const ROLES: Role[] = ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest', 'outsider'];
/** Expected statuses by role: members (not guests) for views, the create role for changes, admins for secrets. */
const viewers = (ok: number): Record<Role, number> => ({ admin: ok, create: ok, review: ok, edit: ok, comment: ok, read: ok, guest: 403, outsider: 404 });
const managers = (ok: number): Record<Role, number> => ({ admin: ok, create: ok, review: 403, edit: 403, comment: 403, read: 403, guest: 403, outsider: 404 });
const admins = (ok: number): Record<Role, number> => ({ admin: ok, create: 403, review: 403, edit: 403, comment: 403, read: 403, guest: 403, outsider: 404 });

for (const dialect of dialects) {
  describe(`sites [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let orgUrl: string;
    let guide: { id: string };
    let reference: { id: string };
    let hidden: { id: string };
    let foreign: { id: string };
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      orgUrl = `/v1/orgs/${world.organizationId}`;
      guide = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Guide' });
      reference = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Reference' });
      hidden = await postSpace(t.clock, world.admin, world.organizationId, { title: 'Hidden' });
      assert.equal((await world.admin.api.patch(`/v1/spaces/${hidden.id}`, { defaultLevel: null })).status, 200);
      foreign = await postSpace(t.clock, world.outsider, world.otherOrganizationId, { title: 'Elsewhere' });
    });
    after(() => t.close());

    const userOf = (role: Role): TestUser => (role === 'guest' ? world.guest : role === 'outsider' ? world.outsider : world.members[role]);
    const snapshot = async () =>
      JSON.stringify([
        await t.ctx.db.selectFrom('sites').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('site_spaces').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('site_share_links').selectAll().orderBy('id').execute(),
        await t.ctx.db.selectFrom('spaces').select(['id', 'title', 'revision_id']).orderBy('id').execute(),
      ]);
    const newSite = async (body: Record<string, unknown> = {}, user: TestUser = world.admin) => {
      t.clock.advance(1000);
      const reply = await user.api.post(`${orgUrl}/sites`, body);
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return reply.body;
    };
    const siteRow = (id: string) => t.ctx.db.selectFrom('sites').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    const siteSpaceRows = (siteId: string) =>
      t.ctx.db.selectFrom('site_spaces').selectAll().where('site_id', '=', siteId).orderBy('position').execute();
    const ids = (reply: Reply) => reply.body.items.map((item: { id: string }) => item.id);

    describe('POST /v1/orgs/{organizationId}/sites', () => {
      it('creates an unpublished, public, basic "Untitled site" with a sealed visitor-auth key and no spaces', async () => {
        t.clock.advance(1000);
        const reply = await world.admin.api.post(`${orgUrl}/sites`, {});
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
        const site = reply.body;
        const location = `http://quire.test/v1/orgs/${world.organizationId}/sites/${site.id}`;
        assert.equal(reply.headers.location, location);
        assert.deepEqual(site, {
          object: 'site',
          id: site.id,
          type: 'basic',
          title: 'Untitled site',
          basename: 'untitled-site',
          visibility: 'public',
          published: false,
          siteSpaces: 0,
          createdAt: t.clock.now().toISOString(),
          adaptiveContent: { enabled: false },
          agentsContext: 'excluded',
          features: [],
          defaultSpace: null,
          urls: { location, app: location },
        });
        const row = await siteRow(site.id);
        assert.equal(row.created_by, world.admin.id);
        assert.equal(row.published, 0);
        const key = t.ctx.secrets.decrypt(row.auth_key).toString('utf8');
        assert.match(key, /^[0-9a-f]{64}$/);
        assert.ok(!row.auth_key.includes(key), 'the key is not stored in clear');
      });

      it('publishes existing spaces as root site spaces in the order given, the first the default', async () => {
        const site = await newSite({ title: 'Product docs', type: 'premium', visibility: 'unlisted', spaces: [reference.id, guide.id, reference.id] });
        assert.equal(site.type, 'premium');
        assert.equal(site.visibility, 'unlisted');
        assert.equal(site.siteSpaces, 2, 'a space named twice is added once');
        assert.equal(site.defaultSpace, reference.id);
        const rows = await siteSpaceRows(site.id);
        assert.deepEqual(rows.map((r) => [r.space_id, r.section_id]), [[reference.id, null], [guide.id, null]]);
        assert.equal((await siteRow(site.id)).default_site_space_id, rows[0]!.id);
      });

      it('creates a new empty space titled after the site, or a sample space with the product-docs template', async () => {
        const empty = await newSite({ title: 'Handbook', spaces: 'empty' });
        assert.equal(empty.siteSpaces, 1);
        const emptySpace = await world.admin.api.get(`/v1/spaces/${empty.defaultSpace}`);
        assert.equal(emptySpace.body.title, 'Handbook');
        assert.equal((await world.admin.api.get(`/v1/spaces/${empty.defaultSpace}/content/pages`)).body.pages.length, 0);

        const sample = await newSite({ title: 'A very long site title that is longer than fifty characters', spaces: 'sample' });
        const sampleSpace = await world.admin.api.get(`/v1/spaces/${sample.defaultSpace}`);
        assert.equal(sampleSpace.body.title, 'A very long site title that is longer than fifty c'.slice(0, 50).trim());
        const pages = (await world.admin.api.get(`/v1/spaces/${sample.defaultSpace}/content/pages`)).body.pages;
        assert.ok(pages.length > 0, 'the template added pages');
      });

      it('makes the basename from the title, unique in the organization', async () => {
        const first = await newSite({ title: 'Über die Brücke!' });
        const second = await newSite({ title: 'Über die Brücke' });
        const third = await newSite({ title: 'uber DIE brucke' });
        assert.deepEqual([first.basename, second.basename, third.basename], ['uber-die-brucke', 'uber-die-brucke-2', 'uber-die-brucke-3']);
        const symbols = await newSite({ title: '!!' });
        assert.equal(symbols.basename, 'site');
      });

      it('answers 400 naming the problem, and creates nothing', async () => {
        const before = await snapshot();
        const post = (body: unknown) => world.admin.api.post(`${orgUrl}/sites`, body);
        assertError(await post({ title: 'x' }), 400, '"title"');
        assertError(await post({ title: 'x'.repeat(129) }), 400, '"title"');
        assertError(await post({ title: '     ' }), 400, '"title" must have at least 2 characters');
        assertError(await post({ title: 42 }), 400, '"title"');
        assertError(await post({ visibility: 'secret' }), 400, '"visibility"');
        assertError(await post({ type: 'gold' }), 400, '"type"');
        assertError(await post({ colour: 'red' }), 400, '"colour"');
        assertError(await post({ spaces: 'full' }), 400, '"spaces"');
        assertError(await post({ spaces: [guide.id, 'nope'] }), 400, '"spaces" names "nope"');
        assertError(await post({ spaces: [foreign.id] }), 400, `"spaces" names "${foreign.id}"`);
        assert.equal(await snapshot(), before);
        // A space the caller cannot read is refused like a missing one; an administrator can read it.
        assertError(await world.members.create.api.post(`${orgUrl}/sites`, { spaces: [guide.id, hidden.id] }), 400, `"spaces" names "${hidden.id}"`);
        assert.equal(await snapshot(), before);
        const withHidden = await newSite({ spaces: [hidden.id] });
        assert.equal(withHidden.defaultSpace, hidden.id);
      });

      it('lets the create role and administrators create sites; others 403, outsiders 404', async () => {
        for (const [name, user] of cast(world)) {
          const before = await snapshot();
          t.clock.advance(1000);
          const reply = await user.api.post(`${orgUrl}/sites`, { title: `By ${name}` });
          const expected = managers(201)[name as Role];
          if (expected === 201) {
            assert.equal(reply.status, 201, `${name}: ${JSON.stringify(reply.body)}`);
          } else {
            assertError(reply, expected, expected === 404 ? 'No organization' : 'create role');
            assert.equal(await snapshot(), before);
          }
        }
      });
    });

    describe('the role matrix of every operation on a site', () => {
      it('answers each role as the policy says', async () => {
        const site = await newSite({ title: 'Matrix', spaces: [guide.id] });
        const base = `${orgUrl}/sites/${site.id}`;
        const link = await world.admin.api.post(`${base}/share-links`, { name: 'matrix' });
        const schema = { type: 'object', properties: {}, additionalProperties: false };
        const operations: Array<[string, Record<Role, number>, (user: TestUser) => Promise<Reply>]> = [
          ['list', viewers(200), (u) => u.api.get(`${orgUrl}/sites`)],
          ['get', viewers(200), (u) => u.api.get(base)],
          ['patch', managers(200), (u) => u.api.patch(base, { title: 'Matrix' })],
          ['publish', admins(200), (u) => u.api.post(`${base}/publish`)],
          ['unpublish', admins(200), (u) => u.api.post(`${base}/unpublish`)],
          ['list share links', admins(200), (u) => u.api.get(`${base}/share-links`)],
          ['create share link', admins(201), (u) => u.api.post(`${base}/share-links`, { name: 'x' })],
          ['patch share link', admins(200), (u) => u.api.patch(`${base}/share-links/${link.body.id}`, { active: true })],
          ['delete missing share link', admins(204), (u) => u.api.delete(`${base}/share-links/nope`)],
          ['get auth', admins(200), (u) => u.api.get(`${base}/publishing/auth`)],
          ['patch auth', admins(200), (u) => u.api.patch(`${base}/publishing/auth`, { backend: 'custom' })],
          ['regenerate auth', admins(200), (u) => u.api.post(`${base}/publishing/auth/regenerate`)],
          ['get adaptive schema', viewers(200), (u) => u.api.get(`${base}/adaptive-schema`)],
          ['put adaptive schema', managers(200), (u) => u.api.put(`${base}/adaptive-schema`, { jsonSchema: schema })],
          ['template conditions', viewers(200), (u) => u.api.get(`${base}/adaptive-schema/template-conditions`)],
        ];
        for (const [operation, expected, call] of operations) {
          for (const role of ROLES) {
            const reply = await call(userOf(role));
            assert.equal(reply.status, expected[role], `${operation} as ${role}: ${JSON.stringify(reply.body)}`);
            if (reply.status >= 400) assertError(reply, expected[role]);
          }
        }
      });

      it('deletes for administrators only (205); a missing site is 204 for every member and guest', async () => {
        for (const role of ROLES) {
          const site = await newSite({ title: `Doomed ${role}` });
          const reply = await userOf(role).api.delete(`${orgUrl}/sites/${site.id}`);
          const expected = admins(205)[role];
          assert.equal(reply.status, expected, `${role}: ${JSON.stringify(reply.body)}`);
          if (expected === 205) assert.equal(reply.body, undefined);
          else assertError(reply, expected, expected === 404 ? 'No organization' : 'administrators');
          const missing = await userOf(role).api.delete(`${orgUrl}/sites/nope`);
          assert.equal(missing.status, role === 'outsider' ? 404 : 204, `${role} deleting nothing`);
        }
      });

      it('answers 404 for a site that does not exist or belongs to another organization', async () => {
        t.clock.advance(1000);
        const theirs = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/sites`, { title: 'Theirs' });
        assert.equal(theirs.status, 201);
        assertError(await world.admin.api.get(`${orgUrl}/sites/nope`), 404, 'No site "nope"');
        assertError(await world.admin.api.get(`${orgUrl}/sites/${theirs.body.id}`), 404, 'No site');
        assertError(await world.admin.api.patch(`${orgUrl}/sites/${theirs.body.id}`, { title: 'Mine now' }), 404);
        assert.equal((await world.admin.api.delete(`${orgUrl}/sites/${theirs.body.id}`)).status, 204, 'not in this organization: nothing to delete here');
        assert.equal((await world.outsider.api.get(`/v1/orgs/${world.otherOrganizationId}/sites/${theirs.body.id}`)).status, 200);
      });
    });

    describe('PATCH /v1/orgs/{organizationId}/sites/{siteId}', () => {
      it('changes title, visibility, basename, agents context, adaptive content, proxy and hostname, and marks the site changed', async () => {
        const site = await newSite({ title: 'Settings' });
        const url = `${orgUrl}/sites/${site.id}`;
        const version = (await siteRow(site.id)).version;
        const reply = await world.members.create.api.patch(url, {
          title: '  Settings v2 ',
          visibility: 'share-link',
          basename: 'Docs_v2.0',
          agentsContext: 'included',
          adaptiveContent: { enabled: true },
          proxy: 'www.example.com/developer/docs',
          hostname: 'docs.example.com',
        });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.title, 'Settings v2');
        assert.equal(reply.body.visibility, 'share-link');
        assert.equal(reply.body.basename, 'Docs_v2.0');
        assert.equal(reply.body.agentsContext, 'included');
        assert.deepEqual(reply.body.adaptiveContent, { enabled: true });
        assert.equal(reply.body.hostname, 'docs.example.com');
        assert.deepEqual(reply.body.proxy, { origin: 'www.example.com/developer/docs', target: `http://quire.test/sites/${world.organizationId}/Docs_v2.0` });
        assert.ok((await siteRow(site.id)).version > version, 'touchSite bumped the version');
        const removed = await world.admin.api.patch(url, { proxy: null, hostname: null });
        assert.equal(removed.status, 200);
        assert.equal(removed.body.proxy, undefined);
        assert.equal(removed.body.hostname, undefined);
        const row = await siteRow(site.id);
        assert.equal(row.proxy, null);
        assert.equal(row.hostname, null);
        const same = await world.admin.api.patch(url, {});
        assert.equal(same.status, 200);
        assert.equal(same.body.title, 'Settings v2');
      });

      it('refuses invalid values with 400 and changes nothing', async () => {
        const site = await newSite({ title: 'Strict' });
        const url = `${orgUrl}/sites/${site.id}`;
        const before = await snapshot();
        const patch = (body: unknown) => world.admin.api.patch(url, body);
        assertError(await patch({ title: 'x' }), 400, '"title"');
        assertError(await patch({ title: 'x'.repeat(129) }), 400, '"title"');
        assertError(await patch({ visibility: 'private' }), 400, '"visibility"');
        assertError(await patch({ agentsContext: 'maybe' }), 400, '"agentsContext"');
        assertError(await patch({ adaptiveContent: {} }), 400, '"adaptiveContent.enabled"');
        assertError(await patch({ adaptiveContent: { enabled: 'yes' } }), 400, 'adaptiveContent');
        for (const basename of ['', 'a/b', 'a b', 'x'.repeat(101), 'é', '?x']) assertError(await patch({ basename }), 400, '"basename"');
        for (const basename of ['.', '..']) assertError(await patch({ basename }), 400, 'cannot be');
        for (const proxy of ['http://example.com/docs', 'example.com', 'example.com/', 'example/docs', `example.com/${'d'.repeat(520)}`, 42]) {
          assertError(await patch({ proxy }), 400, '"proxy"');
        }
        for (const hostname of ['Docs.Example.com', 'example.com', 'docs..example.com', '-docs.example.com', `${'a.'.repeat(260)}com`, '']) {
          assertError(await patch({ hostname }), 400, '"hostname"');
        }
        assertError(await patch({ colour: 'red' }), 400, '"colour"');
        assertError(await patch({ defaultSiteSpace: 'nope' }), 400, 'Site space "nope"');
        assertError(await patch({ defaultSiteSection: 'nope' }), 400, 'Section "nope"');
        // A refused part refuses the whole body.
        assertError(await patch({ title: 'Changed', defaultSiteSpace: 'nope' }), 400);
        assert.equal(await snapshot(), before);
      });

      it('answers 409 for a basename another site of the organization has, and a hostname any site has', async () => {
        const first = await newSite({ title: 'First' });
        const second = await newSite({ title: 'Second' });
        const theirs = await world.outsider.api.post(`/v1/orgs/${world.otherOrganizationId}/sites`, { title: 'Theirs' });
        assert.equal((await world.outsider.api.patch(`/v1/orgs/${world.otherOrganizationId}/sites/${theirs.body.id}`, { hostname: 'help.theirs.com', basename: 'shared' })).status, 200);
        const before = await snapshot();
        assertError(await world.admin.api.patch(`${orgUrl}/sites/${second.id}`, { basename: first.basename }), 409, `basename "${first.basename}"`);
        assertError(await world.admin.api.patch(`${orgUrl}/sites/${second.id}`, { title: 'Renamed', hostname: 'help.theirs.com' }), 409, 'hostname "help.theirs.com" is already used');
        assert.equal(await snapshot(), before);
        // Basenames are per organization; keeping one's own is not a conflict.
        assert.equal((await world.admin.api.patch(`${orgUrl}/sites/${second.id}`, { basename: 'shared' })).status, 200);
        assert.equal((await world.admin.api.patch(`${orgUrl}/sites/${second.id}`, { basename: 'shared', hostname: 'docs.second.com' })).status, 200);
        assert.equal((await world.admin.api.patch(`${orgUrl}/sites/${second.id}`, { hostname: 'docs.second.com' })).status, 200);
      });

      it('sets the default site space at the root, and the default section of a site with sections', async () => {
        const site = await newSite({ title: 'Defaults', spaces: [guide.id, reference.id] });
        const url = `${orgUrl}/sites/${site.id}`;
        const [first, second] = await siteSpaceRows(site.id);
        const reply = await world.admin.api.patch(url, { defaultSiteSpace: second!.id });
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.defaultSpace, reference.id);
        assert.equal((await siteRow(site.id)).default_site_space_id, second!.id);

        // Two sections, each with one site space (written directly: sections are another area's routes).
        const now = t.clock.now().toISOString();
        await t.ctx.db
          .insertInto('site_sections')
          .values([
            { id: `${site.id}-s1`, site_id: site.id, group_id: null, title: 'One', description: null, path: 'one', condition: null, icon: null, position: 1, default_site_space_id: first!.id, created_at: now },
            { id: `${site.id}-s2`, site_id: site.id, group_id: null, title: 'Two', description: null, path: 'two', condition: null, icon: null, position: 2, default_site_space_id: second!.id, created_at: now },
          ])
          .execute();
        await t.ctx.db.updateTable('site_spaces').set({ section_id: `${site.id}-s1` }).where('id', '=', first!.id).execute();
        await t.ctx.db.updateTable('site_spaces').set({ section_id: `${site.id}-s2` }).where('id', '=', second!.id).execute();
        assert.equal((await world.admin.api.get(url)).body.defaultSpace, guide.id, 'without a stored default section, the first section is the default');
        const sectioned = await world.admin.api.patch(url, { defaultSiteSection: `${site.id}-s2` });
        assert.equal(sectioned.status, 200, JSON.stringify(sectioned.body));
        assert.equal(sectioned.body.defaultSpace, reference.id);
        assert.equal(sectioned.body.siteSpaces, 2);
        assertError(await world.admin.api.patch(url, { defaultSiteSpace: first!.id }), 400, 'not in the default section');
      });
    });

    describe('publishing', () => {
      it('publishes and unpublishes; urls.published only while published', async () => {
        const site = await newSite({ title: 'Launch' });
        const url = `${orgUrl}/sites/${site.id}`;
        const published = await world.admin.api.post(`${url}/publish`);
        assert.equal(published.status, 200, JSON.stringify(published.body));
        assert.equal(published.body.published, true);
        assert.equal(published.body.urls.published, `http://quire.test/sites/${world.organizationId}/launch`);
        assert.equal((await world.admin.api.post(`${url}/publish`)).body.published, true, 'publishing twice is not an error');
        assert.equal((await siteRow(site.id)).published, 1);
        const unpublished = await world.admin.api.post(`${url}/unpublish`);
        assert.equal(unpublished.body.published, false);
        assert.equal(unpublished.body.urls.published, undefined);
        assert.equal((await siteRow(site.id)).published, 0);
      });
    });

    describe('GET /v1/orgs/{organizationId}/sites', () => {
      it('pages through every site once, oldest first, and filters by space, title, published state and type', async () => {
        const t2 = await createTestApp(dialect);
        try {
          const w = await createWorld(t2.ctx, t2.app, t2.clock);
          const org = `/v1/orgs/${w.organizationId}`;
          const a = await postSpace(t2.clock, w.admin, w.organizationId, { title: 'A' });
          const b = await postSpace(t2.clock, w.admin, w.organizationId, { title: 'B' });
          const made: Array<{ id: string }> = [];
          const specs = [
            { title: 'Alpha docs', spaces: [a.id] },
            { title: 'Beta 100% docs', type: 'premium', spaces: [a.id, b.id] },
            { title: 'Gamma', type: 'ultimate' },
            { title: 'ALPHA api', spaces: [b.id] },
            { title: 'Delta_x' },
          ];
          for (const spec of specs) {
            t2.clock.advance(1000);
            const reply = await w.admin.api.post(`${org}/sites`, spec);
            assert.equal(reply.status, 201);
            made.push(reply.body);
          }
          assert.equal((await w.admin.api.post(`${org}/sites/${made[1]!.id}/publish`)).status, 200);
          assert.equal((await w.admin.api.post(`${org}/sites/${made[2]!.id}/publish`)).status, 200);
          const seen: string[] = [];
          let page: string | undefined;
          do {
            const reply = await w.members.read.api.get(`${org}/sites?limit=2${page ? `&page=${encodeURIComponent(page)}` : ''}`);
            assert.equal(reply.status, 200);
            assert.equal(reply.body.count, 5);
            assert.ok(reply.body.items.length <= 2);
            seen.push(...ids(reply));
            page = reply.body.next?.page;
          } while (page);
          assert.deepEqual(seen, made.map((s) => s.id));
          const list = async (query: string) => {
            const reply = await w.members.read.api.get(`${org}/sites?${query}`);
            assert.equal(reply.status, 200, JSON.stringify(reply.body));
            assert.equal(reply.body.count, reply.body.items.length);
            return ids(reply);
          };
          const pick = (...i: number[]) => i.map((n) => made[n]!.id);
          assert.deepEqual(await list(`space=${a.id}`), pick(0, 1));
          assert.deepEqual(await list(`space=${b.id}`), pick(1, 3));
          assert.deepEqual(await list('space=nope'), []);
          assert.deepEqual(await list('title=alpha'), pick(0, 3));
          assert.deepEqual(await list('title=DOCS'), pick(0, 1));
          assert.deepEqual(await list(`title=${encodeURIComponent('100%')}`), pick(1));
          assert.deepEqual(await list(`title=${encodeURIComponent('%')}`), pick(1), '% is taken literally');
          assert.deepEqual(await list('title=gamm_'), [], '_ is taken literally');
          assert.deepEqual(await list('title=a_'), pick(4));
          assert.deepEqual(await list('published=true'), pick(1, 2));
          assert.deepEqual(await list('published=false'), pick(0, 3, 4));
          assert.deepEqual(await list('type=premium'), pick(1));
          assert.deepEqual(await list('type=premium&type=ultimate'), pick(1, 2));
          assert.deepEqual(await list('type=basic&published=false&title=alpha'), pick(0, 3));
          const none = await w.members.read.api.get(`${org}/sites?limit=0`);
          assert.deepEqual([none.body.count, none.body.items.length, none.body.next], [5, 0, undefined]);
          assertError(await w.members.read.api.get(`${org}/sites?type=gold`), 400, '"type');
          assertError(await w.members.read.api.get(`${org}/sites?published=maybe`), 400, '"published"');
          assertError(await w.members.read.api.get(`${org}/sites?limit=1001`), 400, '"limit"');
          const first = await w.members.read.api.get(`${org}/sites?limit=1&title=alpha`);
          assertError(await w.members.read.api.get(`${org}/sites?limit=1&title=beta&page=${encodeURIComponent(first.body.next.page)}`), 400, 'cursor');
          assertError(await w.members.read.api.get(`${org}/sites?page=forged`), 400, 'cursor');
        } finally {
          await t2.close();
        }
      });
    });

    describe('DELETE /v1/orgs/{organizationId}/sites/{siteId}', () => {
      it('removes the site with its site spaces and share links; the spaces stay', async () => {
        const site = await newSite({ title: 'Removed', spaces: [guide.id, reference.id] });
        const url = `${orgUrl}/sites/${site.id}`;
        assert.equal((await world.admin.api.post(`${url}/share-links`, { name: 'one' })).status, 201);
        assert.equal((await siteSpaceRows(site.id)).length, 2);
        const reply = await world.admin.api.delete(url);
        assert.equal(reply.status, 205);
        assert.equal(reply.body, undefined);
        assert.equal(await t.ctx.db.selectFrom('sites').select('id').where('id', '=', site.id).executeTakeFirst(), undefined);
        assert.equal((await siteSpaceRows(site.id)).length, 0);
        assert.equal((await t.ctx.db.selectFrom('site_share_links').select('id').where('site_id', '=', site.id).execute()).length, 0);
        assert.equal((await world.admin.api.get(`/v1/spaces/${guide.id}`)).status, 200);
        assertError(await world.admin.api.get(url), 404);
        assert.equal((await world.admin.api.delete(url)).status, 204);
      });
    });

    describe('secrets', () => {
      it('keeps the visitor-auth key and share keys out of every Site object and list, and never stores them in clear', async () => {
        const site = await newSite({ title: 'Secretive', visibility: 'share-link' });
        const url = `${orgUrl}/sites/${site.id}`;
        await world.admin.api.post(`${url}/publish`);
        const link = await world.admin.api.post(`${url}/share-links`, { name: 'partners' });
        const shareKey = new URL(link.body.urls.published).searchParams.get('share')!;
        assert.ok(shareKey.length >= 16);
        const authKey = (await world.admin.api.get(`${url}/publishing/auth`)).body.privateKey as string;
        assert.match(authKey, /^[0-9a-f]{64}$/);
        const answers = [
          await world.admin.api.get(`${orgUrl}/sites`),
          await world.admin.api.get(url),
          await world.admin.api.patch(url, { title: 'Secretive' }),
          await world.admin.api.post(`${url}/publish`),
          await world.members.read.api.get(`${orgUrl}/sites`),
          await world.members.read.api.get(`${url}/adaptive-schema`),
        ];
        for (const answer of answers) {
          const text = JSON.stringify(answer.body);
          assert.ok(!text.includes(shareKey), 'no share key');
          assert.ok(!text.includes(authKey), 'no auth key');
        }
        const row = await siteRow(site.id);
        assert.ok(!JSON.stringify(row).includes(authKey), 'the auth key is sealed');
        const links = await t.ctx.db.selectFrom('site_share_links').selectAll().where('site_id', '=', site.id).execute();
        assert.equal(links.length, 1);
        assert.ok(!JSON.stringify(links).includes(shareKey), 'the share key is hashed and sealed');
      });
    });

    describe('visitor authentication settings', () => {
      it('reads, changes and regenerates the key; JWTs signed with the old key stop working', async () => {
        const site = await newSite({ title: 'Members only', visibility: 'visitor-auth' });
        const url = `${orgUrl}/sites/${site.id}/publishing/auth`;
        const first = await world.admin.api.get(url);
        assert.equal(first.status, 200);
        assert.deepEqual(Object.keys(first.body).sort(), ['backend', 'object', 'privateKey']);
        assert.equal(first.body.object, 'publishing-auth');
        assert.equal(first.body.backend, 'custom');
        const jwt = await new SignJWT({ beta: true })
          .setProtectedHeader({ alg: 'HS256' })
          .setExpirationTime(Math.floor(t.clock.now().getTime() / 1000) + 3600)
          .sign(new TextEncoder().encode(first.body.privateKey));
        assert.deepEqual(await verifyVisitorJwt(t.ctx, await siteRow(site.id), jwt), { beta: true });

        const withFallback = await world.admin.api.patch(url, { backend: 'custom', fallbackURL: 'https://example.com/login' });
        assert.equal(withFallback.status, 200, JSON.stringify(withFallback.body));
        assert.equal(withFallback.body.fallbackURL, 'https://example.com/login');
        assert.equal(withFallback.body.privateKey, first.body.privateKey);
        assert.equal((await world.admin.api.patch(url, { backend: 'custom' })).body.fallbackURL, 'https://example.com/login', 'omitted leaves it');

        const before = await snapshot();
        assertError(await world.admin.api.patch(url, { backend: 'integration' }), 400, 'no integrations');
        assertError(await world.admin.api.patch(url, { backend: 'custom', fallbackURL: 'ftp://example.com/x' }), 400, 'http or https');
        assertError(await world.admin.api.patch(url, { backend: 'custom', fallbackURL: 'not a url' }), 400, '"fallbackURL"');
        assertError(await world.admin.api.patch(url, { fallbackURL: null }), 400, '"backend"');
        assertError(await world.admin.api.patch(url, { backend: 'custom', privateKey: 'mine' }), 400, '"privateKey"');
        assert.equal(await snapshot(), before);

        const cleared = await world.admin.api.patch(url, { backend: 'custom', fallbackURL: null });
        assert.equal(cleared.body.fallbackURL, undefined);
        assert.equal((await siteRow(site.id)).auth_fallback_url, null);

        const regenerated = await world.admin.api.post(`${url}/regenerate`);
        assert.equal(regenerated.status, 200);
        assert.notEqual(regenerated.body.privateKey, first.body.privateKey);
        assert.equal((await world.admin.api.get(url)).body.privateKey, regenerated.body.privateKey);
        assert.equal(await verifyVisitorJwt(t.ctx, await siteRow(site.id), jwt), null, 'the old key signs nothing any more');
      });
    });

    describe('adaptive schema', () => {
      it('answers the default schema until one is set, stores a checked one, and derives condition templates', async () => {
        const site = await newSite({ title: 'Adaptive' });
        const url = `${orgUrl}/sites/${site.id}/adaptive-schema`;
        const initial = await world.members.read.api.get(url);
        assert.equal(initial.status, 200);
        assert.equal(initial.body.object, 'site-adaptive-schema');
        assert.equal(initial.body.updatedAt, site.createdAt);
        assert.deepEqual(initial.body.jsonSchema.properties.unsigned.properties, {});
        assert.deepEqual((await world.members.read.api.get(`${url}/template-conditions`)).body, { items: [] });

        const jsonSchema = {
          type: 'object',
          properties: {
            isBeta: { type: 'boolean', description: 'In the beta programme' },
            unsigned: { type: 'object', description: 'Unsigned claims of the site visitor.', properties: { darkMode: { type: 'boolean', description: 'Prefers dark' } }, additionalProperties: false },
          },
          additionalProperties: false,
        };
        t.clock.advance(5000);
        const put = await world.members.create.api.put(url, { jsonSchema });
        assert.equal(put.status, 200, JSON.stringify(put.body));
        assert.deepEqual(put.body.jsonSchema, jsonSchema);
        assert.equal(put.body.updatedAt, t.clock.now().toISOString());
        assert.deepEqual((await world.members.read.api.get(url)).body, put.body);
        const conditions = (await world.members.read.api.get(`${url}/template-conditions`)).body.items as Array<{ condition: string }>;
        assert.ok(conditions.some((c) => c.condition.includes('visitor.claims.isBeta')));
        assert.ok(conditions.some((c) => c.condition.includes('visitor.claims.unsigned.darkMode')));

        const before = await snapshot();
        assertError(await world.admin.api.put(url, { jsonSchema: { type: 'array' } }), 400, 'visitor schema');
        assertError(await world.admin.api.put(url, { jsonSchema: { ...jsonSchema, properties: { n: { type: 'number', description: 'x' } } } }), 400, 'visitor schema');
        assertError(await world.admin.api.put(url, { jsonSchema: 'schema' }), 400, '"jsonSchema"');
        assertError(await world.admin.api.put(url, {}), 400, '"jsonSchema"');
        assertError(await world.admin.api.put(url, { jsonSchema, extra: 1 }), 400, '"extra"');
        assert.equal(await snapshot(), before);
      });
    });
  });
}
