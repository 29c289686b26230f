import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { cast, createWorld, type World } from '../helpers/factories.ts';
import { analyzeRevision, linkAnalysisStats } from '../../src/content/link-analysis/cache.ts';

interface Location {
  kind: string;
  url?: string;
  page?: { id: string; title: string; pages?: unknown[] };
  file?: { id: string; name: string };
  space?: { id: string };
  organization?: { id: string };
  internalLocation?: { type: string; anchor: string };
}
interface Usage {
  status: string;
  relation: string;
  targetReference: Location;
  locationReferences: Location[];
}

/** A short, readable name for a target: "page:Install#options", "file:logo.png", "space:<id>", "url:…". */
function name(target: Location): string {
  if (target.kind === 'page') return `page:${target.page!.title}${target.internalLocation ? `#${target.internalLocation.anchor}` : ''}`;
  if (target.kind === 'file') return `file:${target.file!.name}`;
  if (target.kind === 'space') return `space:${target.space!.id}`;
  return `url:${target.url}`;
}

/** Each item as "status relation target ← source titles". */
function summary(items: Usage[]): string[] {
  return items.map((u) => `${u.status} ${u.relation} ${name(u.targetReference)} <- ${u.locationReferences.map((l) => l.page!.title).join(',')}`).sort();
}

for (const dialect of dialects) {
  describe(`links [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    const ids: Record<string, string> = {};
    let base: string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ids.readable = await createSpace(t.ctx, world.organizationId, { title: 'Team notes' });
      ids.secret = await createSpace(t.ctx, world.organizationId, { title: 'Secret', defaultLevel: 'none' });
      ids.space = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      base = `/v1/spaces/${ids.space}`;
      await editContent(t.ctx, ids.space, async (writer) => {
        ids.logo = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: 'png' });
        ids.pdf = await addFile(t.ctx, writer, { name: 'guide.pdf', contentType: 'application/pdf', bytes: 'pdf' });
        ids.unused = await addFile(t.ctx, writer, { name: 'unused.txt', contentType: 'text/plain', bytes: 'nothing' });
        ids.intro = writer.addPage({
          type: 'document',
          title: 'Intro',
          markdown: [
            '# Welcome',
            '',
            'See [install](install.md), [its options](install.md#options), [a bad anchor](install.md#nowhere) and [a missing page](missing.md).',
            '',
            '[Up](#welcome), [nowhere](#nope) and [plain details](plain.md#details).',
            '',
            '![logo](logo.png) ![gone](files/nofile) [download](files/' + ids.pdf + ')',
            '',
            '* [External](https://example.com/docs)',
            `* [In the API](http://quire.test/v1/spaces/${ids.space})`,
            `* [Notes](spaces/${ids.readable}), [secret](spaces/${ids.secret}), [nothing](spaces/nosuchspace)`,
            '',
          ].join('\n'),
        });
        ids.install = writer.addPage({ type: 'document', title: 'Install', markdown: `# Install\n\n## Options\n\n![](files/${ids.logo})\n\n{% file src="files/${ids.pdf}" %}\n` });
        // No link in it: parsed only for the anchor that Intro points at.
        ids.plain = writer.addPage({ type: 'document', title: 'Plain', markdown: '# Plain\n\n## Details\n\nJust text.\n' });
        ids.guides = writer.addPage({ type: 'group', title: 'Guides' });
        ids.configure = writer.addPage(
          { type: 'document', title: 'Configure', markdown: `[Back](../intro.md)\n\n[Published notes](http://quire.test/s/${ids.readable}/start)\n\n[All spaces](/v1/spaces)\n` },
          { parent: ids.guides },
        );
        ids.website = writer.addPage({ type: 'link', title: 'Website', target: { kind: 'url', url: 'https://example.com/docs' } });
      });
    });
    after(() => t.close());

    const reader = () => world.members.read.api;

    it('finds and classifies every link of the space, grouped by target', async () => {
      const reply = await reader().get(`${base}/links`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(summary(reply.body.items), [
        'broken dependsOn url:files/nofile <- Intro',
        'broken reference page:Install#nowhere <- Intro',
        'broken reference page:Intro#nope <- Intro',
        'broken reference url:missing.md <- Intro',
        'broken reference url:spaces/nosuchspace <- Intro',
        `broken reference url:spaces/${ids.secret} <- Intro`,
        'in-app reference url:/v1/spaces <- Configure',
        `in-app reference url:http://quire.test/v1/spaces/${ids.space} <- Intro`,
        'ok dependsOn file:guide.pdf <- Install',
        'ok dependsOn file:logo.png <- Intro,Install',
        'ok reference file:guide.pdf <- Intro',
        'ok reference page:Install <- Intro',
        'ok reference page:Install#options <- Intro',
        'ok reference page:Intro <- Configure',
        'ok reference page:Intro#welcome <- Intro',
        'ok reference page:Plain#details <- Intro',
        `ok reference space:${ids.readable} <- Intro,Configure`,
        'ok reference url:https://example.com/docs <- Intro,Website',
      ].sort());
      assert.equal(reply.body.count, 18);
      assert.deepEqual(reply.body.stats, { total: 18, broken: { total: 6, changeRequest: 0 } });
      assert.equal(reply.body.next, undefined);
      const [item] = reply.body.items as Usage[];
      assert.equal(item.locationReferences[0].organization!.id, world.organizationId);
      assert.equal(item.locationReferences[0].space!.id, ids.space);
      assert.deepEqual(item.locationReferences[0].page!.pages, [], 'pages in locations come without their children');
    });

    it('resolves links to other spaces for each caller', async () => {
      const reply = await world.admin.api.get(`${base}/links?status=broken`);
      assert.equal(reply.status, 200);
      assert.deepEqual(reply.body.stats.broken.total, 5, 'an administrator can read the secret space');
      const secret = (reply.body.items as Usage[]).find((u) => u.targetReference.url === `spaces/${ids.secret}`);
      assert.equal(secret, undefined);
    });

    it('filters by status, keeping the stats of the whole list', async () => {
      for (const [status, count] of [['broken', 6], ['in-app', 2], ['ok', 10]] as const) {
        const reply = await reader().get(`${base}/links?status=${status}`);
        assert.equal(reply.status, 200);
        assert.equal(reply.body.count, count);
        assert.equal(reply.body.items.length, count);
        assert.ok((reply.body.items as Usage[]).every((u) => u.status === status));
        assert.deepEqual(reply.body.stats, { total: 18, broken: { total: 6, changeRequest: 0 } });
      }
      assertError(await reader().get(`${base}/links?status=fine`), 400, '"status"');
    });

    it('pages through the links with next, each once; a cursor from another listing is refused', async () => {
      const all = (await reader().get(`${base}/links`)).body.items as Usage[];
      const seen: Usage[] = [];
      let url = `${base}/links?limit=5`;
      for (;;) {
        const reply = await reader().get(url);
        assert.equal(reply.status, 200);
        assert.equal(reply.body.count, 18);
        seen.push(...reply.body.items);
        if (!reply.body.next) break;
        url = `${base}/links?limit=5&page=${encodeURIComponent(reply.body.next.page)}`;
      }
      assert.deepEqual(seen, all);
      const first = await reader().get(`${base}/links?limit=2`);
      assertError(await reader().get(`${base}/links?status=ok&page=${encodeURIComponent(first.body.next.page)}`), 400, 'cursor');
    });

    it("counts GitBook's lost-target marker as a broken link, not as an address of the site", async () => {
      const space = await createSpace(t.ctx, world.organizationId, { title: 'Imported' });
      await editContent(t.ctx, space, async (writer) => {
        writer.addPage({
          type: 'document',
          title: 'Old',
          markdown: '{% content-ref url="/broken/pages/-LJVJwNqt3HkI7n8CFy9" %}\n[Broken link](/broken/pages/-LJVJwNqt3HkI7n8CFy9)\n{% endcontent-ref %}\n\n[Docs](/broken/pages-docs)\n',
        });
      });
      const reply = await world.admin.api.get(`/v1/spaces/${space}/links`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(summary(reply.body.items), [
        'broken reference url:/broken/pages/-LJVJwNqt3HkI7n8CFy9 <- Old',
        'in-app reference url:/broken/pages-docs <- Old',
      ]);
    });

    it('lists the links of one page', async () => {
      const reply = await reader().get(`${base}/content/page/${ids.install}/links`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.deepEqual(summary(reply.body.items), ['ok dependsOn file:guide.pdf <- Install', 'ok dependsOn file:logo.png <- Install']);
      assert.deepEqual(reply.body.stats, { total: 2, broken: { total: 0, changeRequest: 0 } });
      const intro = await reader().get(`${base}/content/page/${ids.intro}/links?status=broken&limit=2`);
      assert.equal(intro.body.count, 6);
      assert.equal(intro.body.items.length, 2);
      assert.ok(intro.body.next);
      assert.deepEqual(intro.body.stats, { total: 15, broken: { total: 6, changeRequest: 0 } });
      const group = await reader().get(`${base}/content/page/${ids.guides}/links`);
      assert.deepEqual([group.body.count, group.body.items], [0, []]);
      const website = await reader().get(`${base}/content/page/${ids.website}/links`);
      assert.deepEqual(summary(website.body.items), ['ok reference url:https://example.com/docs <- Website']);
      assertError(await reader().get(`${base}/content/page/nosuchpage/links`), 404, 'nosuchpage');
    });

    it('lists the pages that use a file, by path', async () => {
      const reply = await reader().get(`${base}/content/files/${ids.logo}/backlinks`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.count, 2);
      assert.deepEqual(reply.body.items.map((l: Location) => [l.kind, l.page!.title, l.space!.id, l.organization!.id]), [
        ['page', 'Install', ids.space, world.organizationId],
        ['page', 'Intro', ids.space, world.organizationId],
      ]);
      const first = await reader().get(`${base}/content/files/${ids.pdf}/backlinks?limit=1`);
      assert.deepEqual(first.body.items.map((l: Location) => l.page!.title), ['Install']);
      const second = await reader().get(`${base}/content/files/${ids.pdf}/backlinks?limit=1&page=${encodeURIComponent(first.body.next.page)}`);
      assert.deepEqual(second.body.items.map((l: Location) => l.page!.title), ['Intro']);
      assert.equal(second.body.next, undefined);
      const unused = await reader().get(`${base}/content/files/${ids.unused}/backlinks`);
      assert.deepEqual([unused.body.count, unused.body.items], [0, []]);
      assertError(await reader().get(`${base}/content/files/nofile/backlinks`), 404, 'nofile');
    });

    it('lets every member role read links; a guest and an outsider get 404', async () => {
      for (const [role, user] of cast(world)) {
        const urls = [`${base}/links`, `${base}/content/page/${ids.intro}/links`, `${base}/content/files/${ids.logo}/backlinks`];
        for (const url of urls) {
          const reply = await user.api.get(url);
          if (role === 'guest' || role === 'outsider') assertError(reply, 404, `No space "${ids.space}"`);
          else assert.equal(reply.status, 200, `${role} ${url}: ${JSON.stringify(reply.body)}`);
        }
      }
      assertError(await reader().get('/v1/spaces/nosuchspace/links'), 404);
    });

    it('lets anyone with a token read the links of a public space', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'Home', markdown: `[Handbook](spaces/${ids.space}) [Home](#home)\n\n# Home\n` },
      ], { visibility: 'public' });
      for (const user of [world.guest, world.outsider]) {
        const reply = await user.api.get(`/v1/spaces/${spaceId}/links`);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.deepEqual(summary(reply.body.items), ['broken reference url:spaces/' + ids.space + ' <- Home', 'ok reference page:Home#home <- Home']);
      }
      const member = await reader().get(`/v1/spaces/${spaceId}/links?status=ok`);
      assert.deepEqual(summary(member.body.items), [`ok reference page:Home#home <- Home`, `ok reference space:${ids.space} <- Home`]);
    });

    it('analyses a revision once, and again only when the content changes', async () => {
      const before = linkAnalysisStats.built;
      await reader().get(`${base}/links`);
      await reader().get(`${base}/content/page/${ids.intro}/links`);
      assert.equal(linkAnalysisStats.built, before, 'the analysis of the current revision is cached');
      await editContent(t.ctx, ids.space, (writer) => writer.updatePage(ids.intro, { markdown: 'Only [install](install.md#gone).\n' }));
      const reply = await reader().get(`${base}/links`);
      assert.equal(linkAnalysisStats.built, before + 1);
      assert.deepEqual(reply.body.stats, { total: 7, broken: { total: 1, changeRequest: 0 } });
      const analysis = await analyzeRevision(t.ctx, await currentRevision(t.ctx, ids.space));
      assert.equal(linkAnalysisStats.built, before + 1, 'a revision id reaches the same cached analysis');
      assert.deepEqual(analysis!.byPage.get(ids.intro)!.map((l) => [l.status, l.href]), [['broken', `pages/${ids.install}#gone`]]);
    });
  });
}
