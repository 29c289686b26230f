import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { after, before, describe, it } from 'node:test';
import { parseOptions } from '../../src/content/documents.ts';
import { collectGarbage } from '../../src/content/gc.ts';
import { analyzeRoot, clearLinkAnalysisCache, linkAnalysisStats, type RevisionLinks } from '../../src/content/link-analysis/cache.ts';
import { documentRefs } from '../../src/content/link-analysis/extract.ts';
import { clearBodyFactsCache } from '../../src/content/link-analysis/facts.ts';
import { loadWrittenFacts, storeWrittenFacts } from '../../src/content/link-analysis/store.ts';
import { documentAnchors, readMarkdownBody, readWritten, resolveWritten } from '../../src/content/link-analysis/written.ts';
import { objectHash, putObject } from '../../src/content/objects.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree, walkPages } from '../../src/content/tree.ts';
import type { NewPage } from '../../src/content/writer.ts';
import { nowIso } from '../../src/context.ts';
import { indexSpace } from '../../src/search/indexer.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

const HOUR = 3_600_000;

/** Every Markdown page of the test corpus and of GitBook's fixtures, by name. */
function corpus(): Array<{ name: string; markdown: string }> {
  const pages: Array<{ name: string; markdown: string }> = [];
  const corpusDir = new URL('./corpus/', import.meta.url);
  for (const name of readdirSync(corpusDir).filter((file) => file.endsWith('.md'))) pages.push({ name, markdown: readFileSync(new URL(name, corpusDir), 'utf8') });
  const gitbook = new URL('../fixtures/gitbook/', import.meta.url);
  for (const folder of readdirSync(gitbook, { withFileTypes: true }).filter((entry) => entry.isDirectory())) {
    const dir = new URL(`${folder.name}/`, gitbook);
    for (const name of readdirSync(dir).filter((file) => file.endsWith('.md'))) pages.push({ name: `${folder.name}/${name}`, markdown: readFileSync(new URL(name, dir), 'utf8') });
  }
  return pages;
}

/** What an analysis says, without the tree it was made from. */
function answer(analysis: RevisionLinks): unknown {
  return { usages: analysis.usages, byPage: [...analysis.byPage], fileBacklinks: [...analysis.fileBacklinks], spaces: analysis.spaces };
}

/** As a freshly started process finds things: nothing analysed or read in memory. */
function freshProcess(): void {
  clearLinkAnalysisCache();
  clearBodyFactsCache();
}

for (const dialect of dialects) {
  describe(`link facts stored by body hash [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const rootOf = async (spaceId: string) => (await findRevision(t.ctx, await currentRevision(t.ctx, spaceId)))!.root;
    const storedRows = async () => (await t.ctx.db.selectFrom('link_facts').select('body_hash').execute()).map((row) => row.body_hash);

    /** A space whose links resolve through paths, names, ids and anchors, in folders. */
    async function handbook(): Promise<{ spaceId: string; ids: Record<string, string> }> {
      const spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
      const ids: Record<string, string> = {};
      await editContent(t.ctx, spaceId, async (writer) => {
        ids.logo = await addFile(t.ctx, writer, { name: 'logo.png', contentType: 'image/png', bytes: 'png' });
        ids.pdf = await addFile(t.ctx, writer, { name: 'guide.pdf', contentType: 'application/pdf', bytes: 'pdf' });
        ids.intro = writer.addPage({
          type: 'document',
          title: 'Intro',
          markdown: [
            '# Welcome',
            '',
            'See [install](install.md), [its options](install.md#options), [a bad anchor](install.md#nowhere), [a missing page](missing.md).',
            '',
            '[Up](#welcome), [nowhere](#nope), [plain details](plain.md#details), [configure](guides/configure.md).',
            '',
            '![logo](logo.png) ![gone](files/nofile) [download](files/' + 'PDF' + ')',
            '',
            '* [External](https://example.com/docs), <https://example.org>, www.example.net',
            '* [In the API](http://quire.test/v1/spaces/abc), [a space](spaces/other)',
            '',
            '<figure><img src=".gitbook/assets/logo.png" alt=""><figcaption></figcaption></figure>',
            '',
          ].join('\n').replace('PDF', ids.pdf),
        });
        ids.install = writer.addPage({ type: 'document', title: 'Install', markdown: `# Install\n\n## Options\n\n![](files/${ids.logo})\n\n{% file src="files/${ids.pdf}" %}\n` });
        ids.plain = writer.addPage({ type: 'document', title: 'Plain', markdown: '# Plain\n\n## Details\n\nJust text.\n' });
        ids.guides = writer.addPage({ type: 'group', title: 'Guides' });
        ids.configure = writer.addPage(
          { type: 'document', title: 'Configure', markdown: '[Back](../intro.md), [home](../README.md) and ![logo](../.gitbook/assets/logo.png)\n\n{% content-ref url="../install.md" %}\n[install.md](../install.md)\n{% endcontent-ref %}\n' },
          { parent: ids.guides },
        );
      });
      return { spaceId, ids };
    }

    it('reads a body as written and resolves it in a tree exactly as a parse in that tree does', async () => {
      const pages = corpus();
      const names = new Set<string>();
      for (const { markdown } of pages) for (const match of markdown.matchAll(/\.gitbook\/assets\/([^)"'\s]+)/g)) names.add(decodeURIComponent(match[1]));
      const spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Corpus' });
      await editContent(t.ctx, spaceId, async (writer) => {
        for (const name of names) await addFile(t.ctx, writer, { name, contentType: 'application/octet-stream', bytes: name });
        const group: NewPage = { type: 'document', title: 'Guides', markdown: '# Guides\n', pages: [] };
        pages.forEach(({ name, markdown }, i) => (i % 2 === 0 ? group.pages!.push({ type: 'document', title: name, markdown }) : writer.addPage({ type: 'document', title: name, markdown })));
        writer.addPage(group);
      });
      const tree = await loadTree(t.ctx, await rootOf(spaceId));
      let compared = 0;
      let treeDependent = 0;
      for (const page of walkPages(tree.pages)) {
        const source = pages.find((p) => p.name === page.node.title)?.markdown;
        if (source === undefined) continue;
        const { facts } = readWritten(source);
        if (facts.treeDependent) {
          treeDependent++;
          continue;
        }
        const inTree = readMarkdownBody(source, parseOptions(tree, page));
        assert.deepEqual(resolveWritten(facts.refs, parseOptions(tree, page)), documentRefs(inTree), page.node.title);
        assert.deepEqual(facts.anchors, documentAnchors(inTree), page.node.title);
        compared++;
      }
      assert.ok(compared >= 40, `${compared} bodies compared`);
      assert.ok(compared > treeDependent * 4, `${treeDependent} bodies left to their tree`);
    });

    it('answers a freshly started process from the stored facts without parsing, as a cold parse does', async () => {
      const { spaceId } = await handbook();
      const root = await rootOf(spaceId);
      freshProcess();
      const parsedBefore = linkAnalysisStats.parsed;
      const cold = answer(await analyzeRoot(t.ctx, root));
      assert.ok(linkAnalysisStats.parsed - parsedBefore >= 3, 'nothing was stored: the bodies are read');
      assert.equal((await loadWrittenFacts(t.ctx, (await storedRows()))).size, (await storedRows()).length);

      freshProcess();
      const parsed = linkAnalysisStats.parsed;
      const built = linkAnalysisStats.built;
      const warm = answer(await analyzeRoot(t.ctx, root));
      assert.equal(linkAnalysisStats.built, built + 1, 'the analysis was computed again');
      assert.equal(linkAnalysisStats.parsed, parsed, 'no body was parsed');
      assert.deepEqual(warm, cold);
    });

    it('stores the facts of every body the search indexer reads, so the first analysis parses nothing', async () => {
      const { spaceId, ids } = await handbook();
      // Bodies other than the first space's, so that nothing stored before counts.
      await editContent(t.ctx, spaceId, (writer) => writer.updatePage(ids.plain, { markdown: '# Plain\n\n## Details\n\nOther text, [to intro](intro.md#welcome).\n' }));
      await indexSpace(t.ctx, spaceId);
      const root = await rootOf(spaceId);
      freshProcess();
      const parsed = linkAnalysisStats.parsed;
      const stored = answer(await analyzeRoot(t.ctx, root));
      assert.equal(linkAnalysisStats.parsed, parsed, 'no body was parsed');

      await t.ctx.db.deleteFrom('link_facts').execute();
      freshProcess();
      const cold = answer(await analyzeRoot(t.ctx, root));
      assert.ok(linkAnalysisStats.parsed > parsed, 'without stored facts the bodies are parsed');
      assert.deepEqual(stored, cold);
    });

    it('reads a body whose structure depends on its tree in its tree, every time', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Files by name' });
      let pageId = '';
      await editContent(t.ctx, spaceId, async (writer) => {
        await addFile(t.ctx, writer, { name: 'guide.pdf', contentType: 'application/pdf', bytes: 'another pdf' });
        pageId = writer.addPage({ type: 'document', title: 'Download', markdown: '{% file src="guide.pdf" %}\nThe [guide](https://example.com/guide).\n{% endfile %}\n' });
      });
      const root = await rootOf(spaceId);
      freshProcess();
      const cold = await analyzeRoot(t.ctx, root);
      assert.deepEqual(cold.byPage.get(pageId)!.map((link) => [link.status, link.target.kind]), [['ok', 'file'], ['ok', 'url']]);
      freshProcess();
      const parsed = linkAnalysisStats.parsed;
      assert.deepEqual(answer(await analyzeRoot(t.ctx, root)), answer(cold));
      assert.equal(linkAnalysisStats.parsed, parsed + 1, 'read in its tree');
    });

    it('sweeps the facts of bodies that are gone, once older than the grace', async () => {
      const lonely = await putObject(t.ctx, 'body', 'A lonely [link](https://example.com).\n');
      const kept = objectHash('body', 'Never stored as a body.\n');
      const facts = new Map([lonely, kept].map((hash) => [hash, readWritten('[x](y.md)').facts]));
      await storeWrittenFacts(t.ctx, facts, nowIso(t.ctx));
      const early = await collectGarbage(t.ctx);
      assert.equal(early.derived.linkFacts, 0, 'within the grace');
      t.clock.advance(2 * HOUR);
      const young = objectHash('body', 'Facts stored just now.\n');
      await storeWrittenFacts(t.ctx, new Map([[young, readWritten('text').facts]]), nowIso(t.ctx));
      const dry = await collectGarbage(t.ctx, { dryRun: true });
      assert.ok(dry.derived.linkFacts >= 2, JSON.stringify(dry));
      const report = await collectGarbage(t.ctx);
      assert.equal(report.derived.linkFacts, dry.derived.linkFacts, 'the dry run counted what the run removed');
      const rows = await storedRows();
      assert.ok(!rows.includes(lonely) && !rows.includes(kept), 'the facts of gone bodies went');
      assert.ok(rows.includes(young), 'younger than the grace: kept');
      const reachable = await t.ctx.db.selectFrom('link_facts').innerJoin('content_objects', 'content_objects.hash', 'link_facts.body_hash').select('body_hash').execute();
      assert.equal(reachable.length, rows.length - 1, 'the facts of bodies still stored are kept');
    });
  });
}
