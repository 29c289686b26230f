import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { bodyMarkdown } from '../../src/content/documents.ts';
import { findRevision } from '../../src/content/revisions.ts';
import { loadTree, walkPages, type RevisionTree } from '../../src/content/tree.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { editSpace, runJobs } from './support.ts';
import { needs } from '../helpers/system.ts';

const GUIDE = `# Install

Install the **package** with \`npm install quire\` and read the [guide](https://example.com/guide).

## **Prerequisites**

{% hint style="info" %}
The cat sleeps on the table.
{% endhint %}

{% hint style="warning" %}
Make sure the **database** is running.
{% endhint %}

\`\`\`bash
echo "the dog eats the apple"
\`\`\`

See the [configuration](configure.md) page. The formula $$E = mc^2$$ stays.

* First item with Quire Cloud
* Second item
`;

/**
 * A real space translated English → Spanish by Apertium (Debian's apertium and apertium-eng-spa): real
 * Spanish comes back, code and URLs are untouched, links and marks in place, the tree mirrored, stats right,
 * and an edit of one source page translates that page only.
 */
for (const dialect of dialects) {
  describe(`translating a space with Apertium [${dialect}]`, { skip: needs('apertium') }, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let translationId: string;
    const ids: Record<string, string> = {};
    const base = () => `/v1/orgs/${world.organizationId}/translations`;

    async function result(): Promise<{ tree: RevisionTree; body: (id: string) => Promise<string>; translation: Record<string, any> }> {
      const translation = (await world.admin.api.get(`${base()}/${translationId}`)).body;
      const revision = await findRevision(t.ctx, translation.result.revision);
      const tree = await loadTree(t.ctx, revision!.root);
      return { tree, translation, body: (id) => bodyMarkdown(t.ctx, tree.byId.get(id)!) };
    }

    before(async () => {
      t = await createTestApp(dialect, { QUIRE_TRANSLATION_ENGINE: 'apertium' });
      world = await createWorld(t.ctx, t.app, t.clock);
      ids.guide = t.ctx.ids.next();
      ids.configure = t.ctx.ids.next();
      ids.start = t.ctx.ids.next();
      ({ spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { id: ids.start, type: 'document', title: 'Getting started', description: 'The first steps', markdown: 'The dog eats the apple.\n', pages: [
          { id: ids.guide, type: 'document', title: 'Install', markdown: GUIDE },
          { id: ids.configure, type: 'document', title: 'Configure', markdown: 'Open the red door.\n' },
        ] },
      ], { title: 'Handbook' }));
      await world.admin.api.put(`/v1/orgs/${world.organizationId}/translations-glossary`, { operations: [{ type: 'insert', translations: { en: 'Quire Cloud', es: 'Quire Nube' } }] });
      const created = await world.admin.api.post(base(), { language: 'es', source: { space: spaceId } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      translationId = created.body.id;
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
    });
    after(() => t.close());

    it('writes real Spanish, mirrors the tree and counts the work', async () => {
      const { tree, translation, body } = await result();
      assert.equal(translation.status, 'completed');
      assert.deepEqual(translation.stats.runs, 1);
      assert.equal(translation.stats.latestPages, 3);
      assert.equal(translation.stats.totalPages, 3);
      assert.ok(translation.stats.latestWords > 30, JSON.stringify(translation.stats));
      assert.deepEqual([...walkPages(tree.pages)].map((page) => [page.node.id, page.path]), [
        [ids.start, 'getting-started'],
        [ids.guide, 'getting-started/install'],
        [ids.configure, 'getting-started/configure'],
      ]);
      assert.equal(tree.byId.get(ids.start)!.node.title, 'Empezando');
      assert.match(tree.byId.get(ids.start)!.node.description!, /pasos/);
      assert.match(await body(ids.start), /perro come la manzana/i);

      const space = (await world.admin.api.get(`/v1/spaces/${translation.result.space}`)).body;
      assert.equal(space.title, 'Handbook (Spanish)');
      assert.equal(space.language, 'es');
      assert.equal(space.editMode, 'locked');
    });

    it('translates text only: code, URLs, math and links stay, marks in place, glossary terms kept', async () => {
      const { body } = await result();
      const guide = await body(ids.guide);
      assert.match(guide, /\*\*[^*]+\*\*/, 'the bold mark is still there');
      assert.match(guide, /`npm install quire`/);
      assert.match(guide, /\]\(https:\/\/example\.com\/guide\)/);
      assert.match(guide, /\[guía\]/);
      assert.match(guide, /echo "the dog eats the apple"/, 'code is not translated');
      assert.match(guide, /\$\$E = mc\^2\$\$/);
      assert.match(guide, /\]\(configure\.md\)/, 'the link leads to the translated page (same path)');
      assert.match(guide, /Quire Nube/, 'the glossary rendering');
      assert.match(guide, /\{% hint style="info" %\}\n.*gato/);
      assert.match(guide, /Segundo elemento/);
      assert.match(guide, /^# Instala\n/, 'the level-1 heading stays `#`');
      assert.match(guide, /^## \*\*Prerequisites\*\*$/m, 'a bold heading with a word missing from the dictionary, unchanged');
      assert.match(guide, /\{% hint style="warning" %\}\n[^\n]*\*\*base de datos\*\*[^\n]*\n\{% endhint %\}/, 'a hint with bold text, translated with its mark');
    });

    it('translates again only the page whose source changed', async () => {
      await editSpace(t.ctx, spaceId, (writer) => writer.updatePage(ids.configure, { markdown: 'Close the green window.\n' }));
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const { translation, body } = await result();
      assert.equal(translation.stats.runs, 2);
      assert.equal(translation.stats.latestPages, 1);
      assert.equal(translation.stats.totalPages, 3);
      assert.match(await body(ids.configure), /ventana verde/i);
      const pages = (await world.admin.api.get(`${base()}/${translationId}/pages`)).body.items as Array<{ page: string; status: string }>;
      assert.deepEqual(Object.fromEntries(pages.map((p) => [p.page, p.status])), { [ids.start]: 'current', [ids.guide]: 'current', [ids.configure]: 'translated' });
    });

    it('keeps a page edited by hand in the translation', async () => {
      const { translation } = await result();
      await editSpace(t.ctx, translation.result.space, (writer) => writer.updatePage(ids.start, { markdown: 'Texto revisado a mano.\n' }));
      await editSpace(t.ctx, spaceId, (writer) => {
        writer.updatePage(ids.start, { markdown: 'The cat eats the fish.\n' });
        writer.updatePage(ids.configure, { markdown: 'Open the window.\n' });
      });
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const after = await result();
      assert.equal(await after.body(ids.start), 'Texto revisado a mano.\n');
      assert.match(await after.body(ids.configure), /ventana/);
      assert.equal(after.translation.stats.latestPages, 1);
      const pages = (await world.admin.api.get(`${base()}/${translationId}/pages`)).body.items as Array<{ page: string; status: string }>;
      assert.equal(pages.find((p) => p.page === ids.start)!.status, 'edited');
    });

    it('translates everything again on new instructions, and on a glossary change of the pair only', async () => {
      const instructions = { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Formal tone.', marks: [] }] }] }] };
      assert.equal((await world.admin.api.put(`${base()}/${translationId}`, { instructions })).status, 200);
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      let { translation, body } = await result();
      assert.equal(translation.stats.latestPages, 2, 'every page but the one edited by hand');
      assert.equal(await body(ids.start), 'Texto revisado a mano.\n');

      await world.admin.api.put(`/v1/orgs/${world.organizationId}/translations-glossary`, { operations: [{ type: 'insert', translations: { en: 'table', fr: 'tableau' } }] });
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      ({ translation } = await result());
      assert.equal(translation.stats.latestPages, 0, 'no term of en → es changed');

      await world.admin.api.put(`/v1/orgs/${world.organizationId}/translations-glossary`, { operations: [{ type: 'insert', translations: { en: 'table', es: 'TABLA' } }] });
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      ({ translation, body } = await result());
      assert.equal(translation.stats.latestPages, 2);
      assert.match(await body(ids.guide), /TABLA/);
    });

    it('follows pages added to and removed from the source', async () => {
      let added = '';
      await editSpace(t.ctx, spaceId, (writer) => {
        added = writer.addPage({ type: 'document', title: 'New page', markdown: 'The house is big.\n' });
        writer.removePage(ids.configure);
      });
      assert.deepEqual(await runJobs(t.ctx, t.clock), []);
      const { tree, body } = await result();
      assert.equal(tree.byId.has(ids.configure), false);
      assert.match(await body(added), /casa es grande/i);
    });
  });
}
