import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { currentRevision } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { gitbookFixtureRepo } from '../git/fixture-repo.ts';
import { documentPages, importZipSpace } from '../helpers/zip-pages.ts';


/**
 * Opening and saving a page changes nothing: for every page of the committed GitBook fixtures (imported as
 * GitBook lays a repository out) and of test/content/corpus, the document read with format=document and
 * sent back unchanged through PATCH leaves its Markdown byte for byte (blocks and inlines an editor does
 * not model, raw HTML, integrations included). And an edit of one paragraph changes one line of Markdown.
 */
const FIXTURES = resolve(import.meta.dirname, '..', 'fixtures', 'gitbook');
const CORPUS = resolve(import.meta.dirname, '..', 'content', 'corpus');
const markdownFiles = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.md')).sort();


for (const dialect of dialects) {
  describe(`page edits keep Markdown [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    const admin = () => world.admin.api;

    const importZip = (files: Record<string, string | Buffer>) => importZipSpace(t.ctx, world.organizationId, admin(), files);
    const documents = (spaceId: string) => documentPages(admin(), spaceId);

    /** Reads each page as a document, PATCHes it back as it came, and compares the Markdown. */
    async function openAndSaveEach(spaceId: string, expected: number): Promise<void> {
      const pages = await documents(spaceId);
      assert.ok(pages.length >= expected, `${pages.length} pages imported, expected at least ${expected}`);
      for (const page of pages) {
        const base = `/v1/spaces/${spaceId}/content/page/${page.id}`;
        const markdown = (await admin().get(`${base}?format=markdown`)).body.markdown as string;
        const read = (await admin().get(base)).body;
        const saved = await admin().patch(base, { document: read.document, baseRevision: await currentRevision(t.ctx, spaceId) });
        assert.equal(saved.status, 200, `${page.title}: ${JSON.stringify(saved.body).slice(0, 500)}`);
        assert.equal((await admin().get(`${base}?format=markdown`)).body.markdown, markdown, `${page.title}: its Markdown changed`);
      }
    }

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    it('opens and saves every page of the GitBook fixtures without changing its Markdown', async () => {
      const repo = gitbookFixtureRepo();
      const spaceId = await importZip(repo);
      const pages = Object.keys(repo).filter((path) => path.endsWith('.md') && !path.includes('.gitbook/') && !path.endsWith('SUMMARY.md'));
      await openAndSaveEach(spaceId, pages.length);
      // A save that changes nothing writes nothing.
      assert.equal((await t.ctx.db.selectFrom('revisions').select('id').where('space_id', '=', spaceId).execute()).length, 2);
    });

    it('opens and saves every page of the corpus and of the hand-written fixtures without changing its Markdown', async () => {
      const files: Record<string, string> = {};
      for (const name of markdownFiles(CORPUS)) files[`corpus/${name}`] = readFileSync(join(CORPUS, name), 'utf8');
      const hand = join(FIXTURES, 'hand-written');
      for (const name of markdownFiles(hand)) files[`hand-written/${name}`] = readFileSync(join(hand, name), 'utf8');
      const spaceId = await importZip(files);
      await openAndSaveEach(spaceId, Object.keys(files).length);
    });

    it('keeps what an editor does not model byte for byte around an edit: raw HTML, unknown tags, integration blocks, mentions', async () => {
      const mention = '<!-- quire:inline {"object":"inline","type":"mention","isVoid":true,"data":{"ref":{"kind":"user","user":"u1"}}} -->';
      const source = [
        'First paragraph.',
        '',
        '<div align="center"><marquee>Old school</marquee></div>',
        '',
        '<!-- quire:block {"object":"block","type":"integration","isVoid":true,"data":{"integration":"runkit","block":"embed","props":{"a":1}}} -->',
        '',
        '{% unknowntag foo="bar" %}',
        'Inside the unknown tag.',
        '{% endunknowntag %}',
        '',
        `Text with a mention ${mention} inline.`,
        '',
        '<table><tr><td>raw</td></tr></table>',
        '',
        'Last paragraph.',
        '',
      ].join('\n');
      const spaceId = await importZip({ 'odd.md': source });
      const [page] = await documents(spaceId);
      const base = `/v1/spaces/${spaceId}/content/page/${page.id}`;
      assert.equal((await admin().get(`${base}?format=markdown`)).body.markdown, source);
      const document = (await admin().get(base)).body.document;
      const texts = (node: { nodes?: Array<{ leaves?: Array<{ text: string }> }> }) => (node.nodes ?? []).flatMap((n) => n.leaves ?? []).map((l) => l.text).join('');
      for (const node of document.nodes) {
        if (texts(node) === 'First paragraph.') node.nodes[0].leaves[0].text = 'First paragraph, edited.';
        if (texts(node) === 'Last paragraph.') node.nodes[0].leaves[0].text = 'Last paragraph, edited.';
        if (texts(node).startsWith('Text with a mention')) node.nodes[0].leaves[0].text = 'Text with the mention ';
      }
      const saved = await admin().patch(base, { document });
      assert.equal(saved.status, 200, JSON.stringify(saved.body).slice(0, 500));
      const after = ((await admin().get(`${base}?format=markdown`)).body.markdown as string).split('\n');
      const before = source.split('\n');
      assert.equal(after.length, before.length);
      // Only the three edited lines changed; the HTML, the integration and the unknown tag keep their bytes.
      assert.deepEqual(
        after.flatMap((line, at) => (line === before[at] ? [] : [at])),
        [0, 10, 14],
      );
      assert.equal(after[0], 'First paragraph, edited.');
      assert.equal(after[14], 'Last paragraph, edited.');
      // An inline in an edited line is written in its canonical (GitBook) form: the same node, read back.
      const mentionOf = (doc: { nodes: Array<{ nodes?: Array<{ type?: string }> }> }) => doc.nodes.flatMap((node) => node.nodes ?? []).find((inline) => inline.type === 'mention');
      const reread = (await admin().get(base)).body.document;
      assert.ok(mentionOf(reread));
      assert.deepEqual(mentionOf(reread), mentionOf(document));
    });

    it('an edit of one paragraph of a GitBook page changes that one line of its Markdown', async () => {
      const spaceId = await importZip(gitbookFixtureRepo());
      const page = (await documents(spaceId)).find((p) => p.title.includes('Themes') || p.title.toLowerCase().includes('theme'))!;
      assert.ok(page, 'the themes page of the fixtures');
      const base = `/v1/spaces/${spaceId}/content/page/${page.id}`;
      const before = (await admin().get(`${base}?format=markdown`)).body.markdown as string;
      const document = (await admin().get(base)).body.document;
      const index = document.nodes.findIndex((node: { type: string }) => node.type === 'paragraph');
      document.nodes[index].nodes.push({ object: 'text', leaves: [{ object: 'leaf', text: ' (edited)', marks: [] }] });
      const saved = await admin().patch(base, { document, baseRevision: await currentRevision(t.ctx, spaceId) });
      assert.equal(saved.status, 200, JSON.stringify(saved.body).slice(0, 500));
      const after = (await admin().get(`${base}?format=markdown`)).body.markdown as string;
      const a = before.split('\n');
      const b = after.split('\n');
      assert.equal(b.length, a.length);
      const changed = b.filter((line, at) => line !== a[at]);
      assert.equal(changed.length, 1, `changed lines:\n${changed.join('\n')}`);
      assert.ok(changed[0].endsWith('(edited)'));
    });
  });
}
