import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { cast, createWorld, type TestUser, type World } from '../helpers/factories.ts';
import { indexNow, spaceWithPages } from '../search/support.ts';
import { spaceScopeToken } from '../../src/search/dialects/sqlite-spaces.ts';

const filler = (n: number) => Array.from({ length: n }, (_, i) => `filler${i}`).join(' ');

for (const dialect of dialects) {
  describe(`GET /v1/spaces/{spaceId}/search [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await spaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Reference', markdown: `${filler(80)} you can install plugins later, install them again, install install. ${filler(80)}\n` },
        { type: 'document', title: 'Agent setup', markdown: 'Before the steps.\n\n## Install the agent\n\nSteps follow.\n' },
        { type: 'document', title: 'Installation', markdown: 'Get the tool.\n\n## Requirements\n\nA computer.\n' },
        { type: 'document', title: 'Phrases', markdown: 'This is the exact phrase we want.\n' },
        { type: 'document', title: 'Scattered', markdown: 'The phrase is not exact here.\n' },
        { type: 'document', title: 'Private notes', noIndex: true, markdown: 'Install the secret thing.\n' },
        { type: 'group', title: 'Guides', pages: [{ type: 'document', title: 'Configuration', markdown: 'Every configuration option.\n' }] },
      ]);
      await indexNow(t.ctx);
    });
    after(() => t.close());

    const search = (query: string, extra = '', user = world.members.read) => user.api.get(`/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}${extra}`);
    const titles = async (query: string) => {
      const reply = await search(query);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply.body.items.map((item: { title: string }) => item.title);
    };

    it('ranks a title match above a heading match above a body match, however often the body repeats the word', async () => {
      assert.deepEqual(await titles('install'), ['Installation', 'Agent setup', 'Reference']);
    });

    it('finds words by their start, and by their stem', async () => {
      assert.deepEqual(await titles('instal'), ['Installation', 'Agent setup', 'Reference']);
      assert.deepEqual(await titles('configur'), ['Configuration']);
      assert.deepEqual(await titles('installing'), ['Installation', 'Agent setup', 'Reference']);
    });

    it('finds a quoted phrase only where its words follow each other', async () => {
      assert.deepEqual(await titles('"exact phrase"'), ['Phrases']);
      assert.deepEqual((await titles('exact phrase')).sort(), ['Phrases', 'Scattered']);
      assert.deepEqual(await titles('"phrase exact"'), []);
    });

    it('leaves out pages marked noIndex, and finds nothing for punctuation alone', async () => {
      assert.deepEqual(await titles('secret'), []);
      const reply = await search('?!');
      assert.deepEqual(reply.body, { items: [], count: 0 });
    });

    it('answers pages with their path, address and matching sections, each with a snippet around the match', async () => {
      const { body } = await search('install');
      assert.equal(body.count, 3);
      const [installation, agent, reference] = body.items;
      const base = `http://quire.test/v1/spaces/${spaceId}/content/page`;
      assert.deepEqual(installation, { id: installation.id, title: 'Installation', path: 'installation', sections: [], urls: { app: `${base}/${installation.id}` } });
      assert.deepEqual(agent.sections, [
        { id: 'install-the-agent', title: 'Install the agent', path: 'agent-setup#install-the-agent', body: 'Steps follow.', urls: { app: `${base}/${agent.id}#install-the-agent` } },
      ]);
      const [section] = reference.sections;
      assert.deepEqual([section.id, section.title, section.path], ['', 'Reference', 'reference']);
      assert.match(section.body, /^… .*you can install plugins later.* …$/);
      assert.ok(section.body.length < 240, section.body);
      const configuration = (await search('configuration')).body.items[0];
      assert.equal(configuration.path, 'guides/configuration');
    });

    it('pages through the ranking with a cursor bound to the search', async () => {
      const seen: string[] = [];
      let page = '';
      for (let i = 0; i < 5; i++) {
        const reply = await search('install', `&limit=1${page ? `&page=${encodeURIComponent(page)}` : ''}`);
        assert.equal(reply.body.count, 3);
        seen.push(...reply.body.items.map((item: { title: string }) => item.title));
        if (!reply.body.next) break;
        page = reply.body.next.page;
      }
      assert.deepEqual(seen, ['Installation', 'Agent setup', 'Reference']);
      const first = await search('install', '&limit=1');
      assertError(await search('exact', `&page=${encodeURIComponent(first.body.next.page)}`), 400, 'cursor');
      assert.deepEqual((await search('install', '&limit=0')).body, { items: [], count: 3 }, 'count without items');
    });

    it('refuses a missing, empty or too long query, and a limit above 1000', async () => {
      assertError(await world.members.read.api.get(`/v1/spaces/${spaceId}/search`), 400, 'query');
      assertError(await search(''), 400, 'query');
      assertError(await search('x'.repeat(513)), 400, 'query');
      assert.equal((await search('x'.repeat(512))).status, 200);
      assertError(await search('install', '&limit=1001'), 400, 'limit');
      assertError(await search('install', '&unknown=1'), 400);
    });

    it('is open to whoever can read the space, and not found for the others', async () => {
      const closed = await spaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Closed', markdown: 'Install here.\n' }], { defaultLevel: 'none' });
      const open = await spaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Open', markdown: 'Install here.\n' }], { visibility: 'public', defaultLevel: 'none' });
      await indexNow(t.ctx);
      for (const [name, user] of cast(world)) {
        const inClosed = await user.api.get(`/v1/spaces/${closed}/search?query=install`);
        if (name === 'admin') assert.equal(inClosed.body.count, 1);
        else assertError(inClosed, 404);
        const inOpen = await user.api.get(`/v1/spaces/${open}/search?query=install`);
        assert.equal(inOpen.body.count, 1, `${name} reads the public space`);
      }
      assertError(await world.admin.api.raw('GET', `/v1/spaces/${open}/search?query=install`, undefined, { authorization: 'Bearer nope' }), 401);
    });

    it('follows content written through the API: an applied template is found once the job queue has run', async () => {
      const created = await world.members.create.api.post(`/v1/orgs/${world.organizationId}/spaces`, { title: 'Product' });
      const id = created.body.id as string;
      assert.equal((await world.members.create.api.post(`/v1/spaces/${id}/content/template`, { id: 'product-docs' })).status, 201);
      const before = await world.members.read.api.get(`/v1/spaces/${id}/search?query=quickstart`);
      assert.equal(before.body.count, 0, 'not before the job has run');
      assert.equal(await indexNow(t.ctx), 1);
      const after = await world.members.read.api.get(`/v1/spaces/${id}/search?query=quickstart`);
      assert.deepEqual([after.body.items[0].title, after.body.items[0].path], ['Quickstart', 'getting-started/quickstart']);
    });
  });

  describe(`GET /v1/orgs/{organizationId}/search [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    const spaces: Record<string, string> = {};
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      const page = (title: string, markdown: string) => ({ type: 'document' as const, title, markdown });
      spaces.open = await spaceWithPages(t.ctx, world.organizationId, [
        page('Notes', 'A paragraph about otters.\n'),
        page('Otters', 'The title says it.\n'),
        page('Rivers', '## Otter habitats\n\nWet.\n'),
        page('Unrelated', 'Nothing to see.\n'),
      ], { title: 'Open' });
      spaces.closed = await spaceWithPages(t.ctx, world.organizationId, [page('Closed page', 'Otters live here too.\n')], { title: 'Closed', defaultLevel: 'none' });
      spaces.public = await spaceWithPages(t.ctx, world.organizationId, [page('Public page', '## Otters\n\nIn public.\n')], { title: 'Public', visibility: 'public', defaultLevel: 'none' });
      spaces.trashed = await spaceWithPages(t.ctx, world.organizationId, [page('Otters', 'Deleted soon.\n')], { title: 'Trashed' });
      spaces.many = await spaceWithPages(t.ctx, world.organizationId, Array.from({ length: 12 }, (_, i) => page(`Walrus ${i}`, 'Tusks.\n')), { title: 'Many' });
      // Many title matches, the best of them (the shortest title) written last, and a body match ranked below them all.
      const herons = Array.from({ length: 80 }, (_, i) => page(`Heron of the marsh ${i}`, 'Grey.\n'));
      spaces.crowd = await spaceWithPages(t.ctx, world.organizationId, [page('Marsh', 'A heron, a heron.\n'), ...herons, page('Heron', 'Grey.\n')], { title: 'Crowd' });
      // `reed` is an indexed term of its own, and the start of a longer one found only on Marshland.
      spaces.quiet = await spaceWithPages(t.ctx, world.organizationId, [page('Pond', '## Reeds\n\nOne heron.\n'), page('Marshland', 'Reedmace grows here.\n')], { title: 'Quiet' });
      spaces.elsewhere = await spaceWithPages(t.ctx, world.otherOrganizationId, [page('Otters', 'Another organization.\n')], { title: 'Elsewhere', visibility: 'public' });
      await indexNow(t.ctx);
      assert.equal((await world.admin.api.delete(`/v1/spaces/${spaces.trashed}`)).status, 205);
    });
    after(() => t.close());

    const search = (user: TestUser, query: string, extra = '') =>
      user.api.get(`/v1/orgs/${world.organizationId}/search?query=${encodeURIComponent(query)}${extra}`);

    it('groups hits by space, spaces ordered by their best page and pages by relevance', async () => {
      const { status, body } = await search(world.admin, 'otter');
      assert.equal(status, 200);
      assert.equal(body.count, 3);
      assert.deepEqual(
        body.items.map((item: { title: string; pages: Array<{ title: string }> }) => [item.title, item.pages.map((p) => p.title)]),
        [['Open', ['Otters', 'Rivers', 'Notes']], ['Public', ['Public page']], ['Closed', ['Closed page']]],
      );
      const [open] = body.items;
      assert.equal(open.id, spaces.open);
      assert.deepEqual(open.pages[1].sections.map((s: { path: string }) => s.path), ['rivers#otter-habitats']);
      assert.match(open.pages[1].urls.app, new RegExp(`/v1/spaces/${spaces.open}/content/page/`));
    });

    it('shows each caller only the spaces they may read: never a closed space\'s hits, nor a trashed space\'s', async () => {
      for (const [name, user] of cast(world)) {
        const reply = await search(user, 'otter');
        if (name === 'outsider') {
          assertError(reply, 404);
          continue;
        }
        const expected = name === 'admin' ? ['Open', 'Public', 'Closed'] : name === 'guest' ? ['Public'] : ['Open', 'Public'];
        assert.deepEqual(reply.body.items.map((item: { title: string }) => item.title), expected, name);
        assert.equal(reply.body.count, expected.length, name);
      }
      assert.equal((await world.admin.api.post(`/v1/spaces/${spaces.trashed}/restore`)).status, 200);
      assert.ok((await search(world.admin, 'otter')).body.items.some((item: { title: string }) => item.title === 'Trashed'), 'restored, found again');
      assert.equal((await world.admin.api.delete(`/v1/spaces/${spaces.trashed}`)).status, 205);
    });

    it('follows a space closed, opened or renamed between two searches of the same caller', async () => {
      const titles = async () => (await search(world.members.read, 'otter')).body.items.map((item: { title: string }) => item.title);
      assert.deepEqual(await titles(), ['Open', 'Public']);
      assert.equal((await world.admin.api.patch(`/v1/spaces/${spaces.open}`, { defaultLevel: null })).status, 200);
      assert.deepEqual(await titles(), ['Public'], 'closed to members: gone at the next search');
      assert.equal((await world.admin.api.patch(`/v1/spaces/${spaces.closed}`, { defaultLevel: 'read' })).status, 200);
      assert.deepEqual(await titles(), ['Public', 'Closed'], 'opened: found at the next search');
      assert.equal((await world.admin.api.patch(`/v1/spaces/${spaces.closed}`, { title: 'Was closed' })).status, 200);
      assert.deepEqual(await titles(), ['Public', 'Was closed'], 'renamed: the new title');
      await world.admin.api.patch(`/v1/spaces/${spaces.closed}`, { title: 'Closed', defaultLevel: null });
      await world.admin.api.patch(`/v1/spaces/${spaces.open}`, { defaultLevel: 'inherit' });
      assert.deepEqual(await titles(), ['Open', 'Public']);
    });

    it('lists at most 10 pages per space, and pages through spaces', async () => {
      const walrus = await search(world.members.read, 'walrus');
      assert.deepEqual([walrus.body.count, walrus.body.items[0].pages.length], [1, 10]);
      const first = await search(world.admin, 'otter', '&limit=2');
      assert.deepEqual(first.body.items.map((item: { title: string }) => item.title), ['Open', 'Public']);
      const second = await search(world.admin, 'otter', `&limit=2&page=${encodeURIComponent(first.body.next.page)}`);
      assert.deepEqual([second.body.items.map((item: { title: string }) => item.title), second.body.next, second.body.count], [['Closed'], undefined, 3]);
      const none = await search(world.admin, 'otter', '&limit=0');
      assert.deepEqual([none.body.items, none.body.count], [[], 3], 'count without items');
      assertError(await world.admin.api.get(`/v1/orgs/${world.organizationId}/search?query=otter&page=${encodeURIComponent(first.body.next.page)}&limit=2x`), 400);
    });

    it('ranks title matches first, the best of all of them first, and counts every space', async () => {
      const { body } = await search(world.members.read, 'heron');
      assert.equal(body.count, 2);
      assert.deepEqual(body.items.map((item: { title: string }) => item.title), ['Crowd', 'Quiet']);
      const [crowd, quiet] = body.items;
      assert.equal(crowd.pages.length, 10);
      assert.equal(crowd.pages[0].title, 'Heron', 'the best title match, though written last');
      assert.ok(crowd.pages.every((p: { title: string }) => /^Heron( of the marsh \d+)?$/.test(p.title)), 'title matches only');
      assert.deepEqual(quiet.pages.map((p: { title: string }) => p.title), ['Pond']);
    });

    it('finds words by their start in every space, whether or not the start is an indexed word of its own', async () => {
      const found = async (query: string) =>
        (await search(world.admin, query)).body.items.map((item: { title: string; pages: Array<{ title: string }> }) => [item.title, item.pages.map((p) => p.title)]);
      assert.deepEqual(await found('reed'), [['Quiet', ['Pond', 'Marshland']]]);
      assert.deepEqual(await found('reedmace'), [['Quiet', ['Marshland']]]);
      const walrus = await found('walru');
      assert.deepEqual([walrus.map(([title]: [string]) => title), walrus[0][1].length], [['Many'], 10]);
      assert.deepEqual(await found('otters'), [['Open', ['Otters', 'Rivers', 'Notes']], ['Public', ['Public page']], ['Closed', ['Closed page']]]);
      assert.deepEqual(await found('otterx'), []);
      // Many at once (the words' starts are read through one connection's scratch table): the same answers.
      const words = ['reed', 'reedmace', 'otters', 'otterx', 'walru', 'heron', 'reed', 'otters'];
      const alone: unknown[] = [];
      for (const word of words) alone.push(await found(word));
      assert.deepEqual(await Promise.all(words.map(found)), alone);
    });

    it('never matches a space by its id, whatever the engine keeps of it', async () => {
      for (const query of [spaces.open, spaceScopeToken(spaces.open), `"${spaceScopeToken(spaces.open)}"`]) {
        const { body } = await search(world.admin, query);
        assert.deepEqual([body.count, body.items], [0, []], query);
      }
    });

    it('refuses a missing or too long query', async () => {
      assertError(await world.admin.api.get(`/v1/orgs/${world.organizationId}/search`), 400, 'query');
      assertError(await search(world.admin, 'y'.repeat(513)), 400, 'query');
    });
  });
}
