import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, client, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { renderMarkdown, type Document } from '../../src/content/markdown/index.ts';
import { checkResponse } from '../helpers/contract.ts';
import { immutableJsonStats } from '../../src/http/immutable-json.ts';
import { addFile, createSpace, currentRevision, editContent } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';

/** The path routes end in a wildcard, which the automatic contract check cannot name: check them here. */
function assertPathContract(reply: Reply, specPath: string): void {
  assert.deepEqual(checkResponse('GET', `/v1${specPath}`, reply.status, reply.body), []);
}

for (const dialect of dialects) {
  describe(`space content reads [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let firstRevision: string;
    let revision: string;
    const ids: Record<string, string> = {};
    let base: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      firstRevision = await currentRevision(t.ctx, spaceId);
      t.clock.advance(60_000);
      revision = await editContent(t.ctx, spaceId, async (writer) => {
        ids.logo = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: Buffer.from([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]), dimensions: { width: 64, height: 32 } });
        ids.notes = await addFile(t.ctx, writer, { name: 'notes.txt', contentType: 'text/plain', bytes: 'some notes' });
        writer.updateFile(ids.notes, { git: { oid: 'abc123', path: 'assets/notes.txt' } });
        writer.setVariables({ version: '2.1', beta: true });
        ids.start = writer.addPage({
          type: 'document',
          title: 'Getting Started',
          description: 'Start here.',
          emoji: '🚀',
          layout: { width: 'wide', outline: false },
          git: { oid: 'def456', path: 'getting-started/README.md' },
          markdown: '# Welcome\n\nHello **world**.\n',
        });
        ids.install = writer.addPage({ type: 'document', title: 'Install', hidden: true, markdown: 'Run the installer.\n' }, { parent: ids.start });
        ids.install2 = writer.addPage({ type: 'document', title: 'Install', noIndex: true }, { parent: ids.start });
        ids.link = writer.addPage({ type: 'link', title: 'Website', target: { kind: 'url', url: 'https://example.com' } }, { parent: ids.start });
        ids.guides = writer.addPage({ type: 'group', title: 'Guides' });
        ids.configure = writer.addPage({ type: 'document', title: 'Configure', icon: 'gear', variables: { plan: 'pro' }, noRobotsIndex: true, markdown: 'Set it up.\n' }, { parent: ids.guides });
      });
      base = `/v1/spaces/${spaceId}`;
    });
    after(() => t.close());

    const api = () => world.members.read.api;

    describe('GET /v1/spaces/{spaceId}/content', () => {
      it('answers the current revision: its tree, files, variables and history', async () => {
        const reply = await api().get(`${base}/content`);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        const body = reply.body;
        assert.equal(body.object, 'revision');
        assert.equal(body.id, revision);
        assert.equal(body.type, 'edits');
        assert.deepEqual(body.parents, [firstRevision]);
        assert.equal(body.createdAt, t.clock.now().toISOString());
        assert.equal(body.urls.app, `http://quire.test${base}/revisions/${revision}`);
        assert.deepEqual(body.variables, { version: '2.1', beta: true });
        assert.deepEqual(body.reusableContents, []);
        assert.deepEqual(body.pages.map((p: { title: string }) => p.title), ['Getting Started', 'Guides']);
        const [start, guides] = body.pages;
        assert.equal(start.kind, 'sheet');
        assert.equal(start.slug, 'getting-started');
        assert.equal(start.path, 'getting-started');
        assert.equal(start.description, 'Start here.');
        assert.equal(start.emoji, '🚀');
        assert.deepEqual(start.layout, { width: 'wide', cover: true, coverSize: 'hero', title: true, description: true, tableOfContents: true, outline: false, pagination: true, metadata: true });
        assert.equal(start.urls.app, `http://quire.test${base}/content/page/${ids.start}`);
        assert.deepEqual(start.git, { oid: 'def456', path: 'getting-started/README.md' });
        assert.equal(typeof start.documentId, 'string');
        assert.equal(start.document, undefined, 'trees carry no bodies');
        assert.equal(start.markdown, undefined);
        assert.deepEqual(
          start.pages.map((p: { type: string; path?: string; hidden?: boolean; noIndex?: boolean }) => [p.type, p.path, p.hidden, p.noIndex]),
          [['document', 'getting-started/install', true, undefined], ['document', 'getting-started/install-1', undefined, true], ['link', undefined, undefined, undefined]],
        );
        assert.deepEqual(start.pages[2], { id: ids.link, title: 'Website', kind: 'link', type: 'link', target: { kind: 'url', url: 'https://example.com' }, href: 'https://example.com' });
        assert.equal(start.pages[1].documentId, undefined, 'an empty page has no body');
        assert.deepEqual([guides.kind, guides.type, guides.slug, guides.path, guides.urls], ['group', 'group', 'guides', 'guides', undefined]);
        assert.deepEqual([guides.pages[0].path, guides.pages[0].icon, guides.pages[0].variables, guides.pages[0].noRobotsIndex], ['guides/configure', 'gear', { plan: 'pro' }, true]);
        assert.deepEqual(body.files.map((f: { name: string }) => f.name), ['logo.png', 'notes.txt']);
        assert.deepEqual(body.files[0].dimensions, { width: 64, height: 32 });
        assert.match(body.files[0].downloadURL, new RegExp(`^http://quire\\.test/files/${spaceId}/${ids.logo}\\?revision=${revision}&expires=\\d+&signature=`));
      });

      it('leaves Git metadata out with metadata=false, and accepts computed', async () => {
        const reply = await api().get(`${base}/content?metadata=false&computed=false`);
        assert.equal(reply.status, 200);
        assert.equal(reply.body.pages[0].git, undefined);
        assert.equal(reply.body.files[1].git, undefined);
        const withMetadata = await api().get(`${base}/content?metadata=true`);
        assert.deepEqual(withMetadata.body.files[1].git, { oid: 'abc123', path: 'assets/notes.txt' });
      });

      it('names the query parameter that fails validation', async () => {
        assertError(await api().get(`${base}/content?metadata=maybe`), 400, '"metadata"');
        assertError(await api().get(`${base}/content?colour=red`), 400, '"colour"');
      });
    });

    describe('GET …/content/pages', () => {
      it('answers the same tree as the revision', async () => {
        const [pages, content] = await Promise.all([api().get(`${base}/content/pages`), api().get(`${base}/content`)]);
        assert.equal(pages.status, 200);
        assert.deepEqual(pages.body, { pages: content.body.pages });
      });
    });

    describe('GET …/content/files and …/files/{fileId}', () => {
      it('lists the files by name, page by page, with signed download URLs', async () => {
        const first = await api().get(`${base}/content/files?limit=1`);
        assert.equal(first.status, 200, JSON.stringify(first.body));
        assert.equal(first.body.count, 2);
        assert.deepEqual(first.body.items.map((f: { id: string }) => f.id), [ids.logo]);
        assert.equal(typeof first.body.next.page, 'string');
        const second = await api().get(`${base}/content/files?limit=1&page=${encodeURIComponent(first.body.next.page)}`);
        assert.deepEqual(second.body.items.map((f: { id: string }) => f.id), [ids.notes]);
        assert.equal(second.body.next, undefined);
        assert.deepEqual(second.body.items[0], {
          id: ids.notes,
          name: 'notes.txt',
          contentType: 'text/plain',
          size: 10,
          downloadURL: second.body.items[0].downloadURL,
          git: { oid: 'abc123', path: 'assets/notes.txt' },
        });
        const all = await api().get(`${base}/content/files`);
        assert.equal(all.body.items.length, 2);
      });

      it('refuses a bad cursor or limit, naming it', async () => {
        assertError(await api().get(`${base}/content/files?page=forged`), 400, '"page"');
        assertError(await api().get(`${base}/content/files?limit=1001`), 400, '"limit"');
        assertError(await api().get(`${base}/content/files?limit=-1`), 400, '"limit"');
      });

      it('reads one file, and reports a missing one', async () => {
        const reply = await api().get(`${base}/content/files/${ids.logo}`);
        assert.equal(reply.status, 200);
        assert.equal(reply.body.name, 'logo.png');
        assert.equal(reply.body.size, 7);
        assertError(await api().get(`${base}/content/files/nope`), 404, 'No file "nope"');
      });
    });

    describe('GET …/content/page/{pageId} and …/content/path/{pagePath}', () => {
      it('answers a page with its Markdown when format=markdown', async () => {
        const reply = await api().get(`${base}/content/page/${ids.start}?format=markdown`);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.markdown, '# Welcome\n\nHello **world**.\n');
        assert.equal(reply.body.document, undefined);
        assert.equal(reply.body.pages.length, 3, 'with its subtree');
        assert.equal(reply.body.pages[0].markdown, undefined, 'children carry no body');
        const empty = await api().get(`${base}/content/page/${ids.install2}?format=markdown`);
        assert.equal(empty.body.markdown, '');
      });

      it('answers groups and links without a body', async () => {
        const group = await api().get(`${base}/content/page/${ids.guides}`);
        assert.equal(group.status, 200);
        assert.equal(group.body.type, 'group');
        assert.equal(group.body.document, undefined);
        assert.equal(group.body.markdown, undefined);
        const link = await api().get(`${base}/content/page/${ids.link}?format=markdown`);
        assert.equal(link.body.type, 'link');
        assert.equal(link.body.markdown, undefined);
      });

      it('finds pages by path, with the slash written or encoded', async () => {
        for (const path of ['getting-started/install-1', 'getting-started%2Finstall-1', 'getting-started/install-1/']) {
          const reply = await api().get(`${base}/content/path/${path}?format=markdown`);
          assert.equal(reply.status, 200, `${path}: ${JSON.stringify(reply.body)}`);
          assert.equal(reply.body.id, ids.install2);
          assertPathContract(reply, '/spaces/{spaceId}/content/path/{pagePath}');
        }
        const group = await api().get(`${base}/content/path/guides`);
        assert.equal(group.body.id, ids.guides);
        assertPathContract(group, '/spaces/{spaceId}/content/path/{pagePath}');
        assertError(await api().get(`${base}/content/path/getting-started/nope`), 404, 'at the path "getting-started/nope"');
        assertError(await api().get(`${base}/content/path/website`), 404);
      });

      it('serializes a page once per revision and options, answers 304 to a caller who has it, and checks access first', async () => {
        const url = `${base}/content/page/${ids.configure}?format=markdown`;
        const first = await api().get(url);
        const serialized = immutableJsonStats.serialized;
        const again = await world.members.edit.api.get(url);
        assert.deepEqual(again.body, first.body);
        assert.equal(immutableJsonStats.serialized, serialized, 'the second caller gets the serialized bytes');
        assert.equal(typeof first.headers.etag, 'string');
        const cached = await world.members.read.api.raw('GET', url, undefined, { 'if-none-match': String(first.headers.etag) });
        assert.equal(cached.status, 304);
        // Another format is another answer; the pages list has its own.
        assert.equal((await api().get(`${base}/content/page/${ids.configure}`)).body.document.object, 'document');
        assert.ok(immutableJsonStats.serialized > serialized);
        // A cached answer is never a way in: access is checked before the cache is read.
        for (const user of [world.guest, world.outsider]) assertError(await user.api.raw('GET', url, undefined, { 'if-none-match': String(first.headers.etag) }), 404);
      });

      it('reports a missing page, and names a bad format', async () => {
        assertError(await api().get(`${base}/content/page/nope`), 404, 'No page "nope"');
        assertError(await api().get(`${base}/content/page/${ids.start}?format=html`), 400, '"format"');
        assertError(await api().get(`${base}/content/page/${ids.start}?evaluated=perhaps`), 400, '"evaluated"');
      });
    });

    describe('bodies as JSON documents', () => {
      const text = (value: string) => ({ object: 'text', leaves: [{ object: 'leaf', text: value, marks: [] }] });
      const paragraph = (...nodes: unknown[]) => ({ object: 'block', type: 'paragraph', nodes });
      const expression = (source: string) => ({ object: 'inline', type: 'expression', data: { expression: source }, isVoid: true });
      const condition = (source: string, words: string) => ({ object: 'block', type: 'if', data: { expression: source }, nodes: [paragraph(text(words))] });
      let docs: string;
      const page: Record<string, string> = {};

      before(async () => {
        docs = await createSpace(t.ctx, world.organizationId);
        const variablesBody = renderMarkdown({
          object: 'document',
          data: {},
          nodes: [paragraph(text('Version '), expression('space.vars.version'), text(' on the '), expression('page.vars.plan'), text(' plan.'))],
        } as unknown as Document);
        // The client's document allows no `if` block at the top level of a document: this page is only read evaluated.
        const conditionsBody = renderMarkdown({
          object: 'document',
          data: {},
          nodes: [condition('space.vars.beta', 'This is a beta.'), condition('!space.vars.beta', 'This is stable.')],
        } as unknown as Document);
        await editContent(t.ctx, docs, async (writer) => {
          page.logo = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: 'png' });
          writer.setVariables({ version: '2.1', beta: true });
          page.start = writer.addPage({ type: 'document', title: 'Start', markdown: '# Welcome\n\nSee [the variables](variables.md) and ![Our logo](assets/logo.png).\n' });
          page.variables = writer.addPage({ type: 'document', title: 'Variables', variables: { plan: 'Pro' }, markdown: variablesBody }, { parent: page.start });
          page.conditions = writer.addPage({ type: 'document', title: 'Conditions', markdown: conditionsBody });
        });
      });

      it("answers a page's body as a JSON document by default, with links to pages and files resolved", async () => {
        const reply = await api().get(`/v1/spaces/${docs}/content/page/${page.start}`);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.equal(reply.body.markdown, undefined);
        const { document } = reply.body;
        assert.equal(document.object, 'document');
        assert.equal(document.nodes[0].type, 'heading-1');
        const inlines = document.nodes[1].nodes;
        assert.deepEqual(inlines[1].data.ref, { kind: 'page', page: page.variables });
        assert.deepEqual(inlines[3].data.ref, { kind: 'file', file: page.logo });
        const explicit = await api().get(`/v1/spaces/${docs}/content/page/${page.start}?format=document`);
        assert.deepEqual(explicit.body.document, document);
        const byPath = await api().get(`/v1/spaces/${docs}/content/path/start`);
        assert.deepEqual(byPath.body.document, document);
        assertPathContract(byPath, '/spaces/{spaceId}/content/path/{pagePath}');
      });

      it('an empty page is an empty document', async () => {
        const reply = await api().get(`${base}/content/page/${ids.install2}`);
        assert.deepEqual(reply.body.document, { object: 'document', data: {}, nodes: [] });
      });

      it('keeps expressions unless evaluated=true, which replaces them with the values of the variables', async () => {
        const raw = await api().get(`/v1/spaces/${docs}/content/page/${page.variables}`);
        assert.equal(raw.body.document.nodes[0].nodes[1].type, 'expression');
        const evaluated = await api().get(`/v1/spaces/${docs}/content/page/${page.variables}?evaluated=true`);
        assert.equal(evaluated.status, 200, JSON.stringify(evaluated.body));
        const words = (node: { nodes: Array<{ leaves?: Array<{ text: string }> }> }) => node.nodes.map((n) => n.leaves?.map((l) => l.text).join('') ?? '?').join('');
        assert.deepEqual(evaluated.body.document.nodes.map(words), ['Version 2.1 on the Pro plan.']);
        const markdown = await api().get(`/v1/spaces/${docs}/content/page/${page.variables}?format=markdown&evaluated=true`);
        assert.equal(markdown.body.markdown, 'Version 2.1 on the Pro plan.\n');
        const unevaluated = await api().get(`/v1/spaces/${docs}/content/page/${page.variables}?format=markdown`);
        assert.match(unevaluated.body.markdown, /space\.vars\.version/);
      });

      it('keeps the content of conditions that hold and drops the others when evaluated', async () => {
        const evaluated = await api().get(`/v1/spaces/${docs}/content/page/${page.conditions}?evaluated=true`);
        assert.equal(evaluated.status, 200, JSON.stringify(evaluated.body));
        assert.deepEqual(evaluated.body.document.nodes.map((node: { type: string }) => node.type), ['paragraph']);
        const markdown = await api().get(`/v1/spaces/${docs}/content/page/${page.conditions}?format=markdown&evaluated=true`);
        assert.equal(markdown.body.markdown, 'This is a beta.\n');
      });

      it('writes links to pages as relative paths in evaluated Markdown', async () => {
        const reply = await api().get(`/v1/spaces/${docs}/content/page/${page.start}?format=markdown&evaluated=true`);
        assert.match(reply.body.markdown, /\[the variables\]\(variables\.md\)/);
        assert.match(reply.body.markdown, new RegExp(`!\\[Our logo\\]\\(files/${page.logo}\\)`));
      });
    });

    describe('GET /v1/spaces/{spaceId}/revisions/{revisionId} and its reads', () => {
      it('reads an older revision with the same shapes', async () => {
        const old = await api().get(`${base}/revisions/${firstRevision}`);
        assert.equal(old.status, 200);
        assert.equal(old.body.id, firstRevision);
        assert.deepEqual([old.body.pages, old.body.files, old.body.parents], [[], [], []]);
        const current = await api().get(`${base}/revisions/${revision}`);
        const content = await api().get(`${base}/content`);
        assert.deepEqual({ ...current.body, pages: undefined }, { ...content.body, pages: undefined });
        assert.equal(current.body.pages[0].urls.app, `http://quire.test${base}/revisions/${revision}/page/${ids.start}`);
        assert.deepEqual((await api().get(`${base}/revisions/${revision}/pages`)).body.pages, current.body.pages);
        const files = await api().get(`${base}/revisions/${revision}/files`);
        assert.equal(files.body.count, 2);
        const file = await api().get(`${base}/revisions/${revision}/files/${ids.notes}`);
        assert.equal(file.body.name, 'notes.txt');
        const page = await api().get(`${base}/revisions/${revision}/page/${ids.configure}?format=markdown`);
        assert.equal(page.body.markdown, 'Set it up.\n');
        const byPath = await api().get(`${base}/revisions/${revision}/path/guides/configure?format=markdown`);
        assert.equal(byPath.body.id, ids.configure);
        assertPathContract(byPath, '/spaces/{spaceId}/revisions/{revisionId}/path/{pagePath}');
      });

      it('reports what an older revision does not hold, and revisions of other spaces, as missing', async () => {
        assertError(await api().get(`${base}/revisions/${firstRevision}/page/${ids.start}`), 404, `revision "${firstRevision}"`);
        assertError(await api().get(`${base}/revisions/${firstRevision}/files/${ids.logo}`), 404);
        assertError(await api().get(`${base}/revisions/nope`), 404, 'No revision "nope"');
        const other = await createSpace(t.ctx, world.organizationId);
        const otherRevision = await currentRevision(t.ctx, other);
        for (const path of ['', '/pages', '/files', `/page/${ids.start}`]) {
          assertError(await api().get(`${base}/revisions/${otherRevision}${path}`), 404, 'No revision');
        }
      });
    });

    describe('who may read', () => {
      const reads = () => [
        `${base}/content`,
        `${base}/content/pages`,
        `${base}/content/files`,
        `${base}/content/files/${ids.logo}`,
        `${base}/content/page/${ids.start}?format=markdown`,
        `${base}/content/path/guides/configure?format=markdown`,
        `${base}/revisions/${revision}`,
        `${base}/revisions/${revision}/pages`,
        `${base}/revisions/${revision}/files`,
        `${base}/revisions/${revision}/files/${ids.logo}`,
        `${base}/revisions/${revision}/page/${ids.start}?format=markdown`,
        `${base}/revisions/${revision}/path/guides?format=markdown`,
      ];

      it('lets every member role read a private space; a guest and an outsider get 404', async () => {
        for (const [name, user] of cast(world)) {
          for (const url of reads()) {
            const reply = await user.api.get(url);
            if (name === 'guest' || name === 'outsider') assertError(reply, 404, `No space "${spaceId}"`);
            else assert.equal(reply.status, 200, `${name} ${url}: ${JSON.stringify(reply.body)}`);
          }
        }
        assertError(await client(t.app).get(`${base}/content`), 401);
        assertError(await world.admin.api.get('/v1/spaces/nope/content'), 404);
      });

      it('lets anyone with a token read a public space', async () => {
        const open = await createSpace(t.ctx, world.organizationId, { visibility: 'public' });
        const pageId = (await editContent(t.ctx, open, (writer) => void writer.addPage({ id: `${open}-p`, type: 'document', title: 'Public page', markdown: 'Hi\n' })), `${open}-p`);
        for (const user of [world.guest, world.outsider]) {
          assert.equal((await user.api.get(`/v1/spaces/${open}/content`)).status, 200);
          const page = await user.api.get(`/v1/spaces/${open}/content/page/${pageId}?format=markdown`);
          assert.equal(page.body.markdown, 'Hi\n');
        }
      });

      it('hides a space whose default level is none from members below admin, and a deleted space from everyone', async () => {
        const closed = await createSpace(t.ctx, world.organizationId, { defaultLevel: 'none' });
        assertError(await world.members.create.api.get(`/v1/spaces/${closed}/content`), 404);
        assert.equal((await world.admin.api.get(`/v1/spaces/${closed}/content`)).status, 200);
        await t.ctx.db.updateTable('spaces').set({ deleted_at: t.clock.now().toISOString() }).where('id', '=', closed).execute();
        assertError(await world.admin.api.get(`/v1/spaces/${closed}/content`), 404);
      });
    });
  });
}
