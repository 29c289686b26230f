import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, currentRevision, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { treeStats } from '../../src/content/tree.ts';

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

interface Document {
  object: 'document';
  data: Record<string, unknown>;
  nodes: Array<{ type: string; nodes: Array<{ leaves: Array<{ text: string }> }> }>;
}

/** Replaces the text of the paragraph that reads `from` in a document read from the API. */
function edit(document: Document, from: string, to: string): Document {
  const nodes = document.nodes.map((node) => (node.type === 'paragraph' && node.nodes[0]?.leaves[0]?.text === from ? paragraph(to) : node));
  assert.notDeepEqual(nodes, document.nodes, `no paragraph reads "${from}"`);
  return { ...document, nodes: nodes as Document['nodes'] };
}

/**
 * Two people (or two tabs) saving one page: with `baseRevision`, an edit of another part of the page merges
 * with theirs; edits of the same lines or of the same setting answer 409 in the error shape, saying what to
 * do, and write nothing. And a save of one paragraph of a 1,000-block page reads no other page.
 */
for (const dialect of dialects) {
  describe(`page edits: concurrent saves [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageId: string;
    const admin = () => world.admin.api;
    const editor = () => world.members.edit.api;
    const page = () => `/v1/spaces/${spaceId}/content/page/${pageId}`;
    const markdown = async () => (await admin().get(`${page()}?format=markdown`)).body.markdown as string;

    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      spaceId = await createSpace(t.ctx, world.organizationId);
      await editContent(t.ctx, spaceId, (writer) => {
        pageId = writer.addPage({ type: 'document', title: 'Guide', markdown: 'Alpha.\n\nBeta.\n\nGamma.\n\nDelta.\n' });
        writer.addPage({ type: 'document', title: 'Other', markdown: 'Other page.\n' });
      });
    });
    after(() => t.close());

    it('merges an edit of another paragraph made since the base revision', async () => {
      const loaded = (await admin().get(page())).body;
      const base = await currentRevision(t.ctx, spaceId);
      // Someone else saves first, changing the first paragraph.
      const first = await editor().patch(page(), { document: edit(loaded.document, 'Alpha.', 'Alpha, theirs.'), baseRevision: base });
      assert.equal(first.status, 200, JSON.stringify(first.body));
      // This editor still holds the old document and changes the last one.
      const second = await admin().patch(page(), { document: edit(loaded.document, 'Delta.', 'Delta, ours.'), baseRevision: base });
      assert.equal(second.status, 200, JSON.stringify(second.body));
      assert.equal(await markdown(), 'Alpha, theirs.\n\nBeta.\n\nGamma.\n\nDelta, ours.\n');
      assert.equal(second.body.revision, await currentRevision(t.ctx, spaceId));
      // A rename by one and a body edit by the other merge too.
      const base2 = second.body.revision;
      const loaded2 = (await admin().get(page())).body;
      assert.equal((await editor().patch(page(), { title: 'The guide', baseRevision: base2 })).status, 200);
      const body = await admin().patch(page(), { document: edit(loaded2.document, 'Beta.', 'Beta, ours.'), baseRevision: base2 });
      assert.equal(body.status, 200, JSON.stringify(body.body));
      assert.equal(body.body.page.title, 'The guide');
    });

    it('answers 409 for an edit of the same paragraph, saying what to do, and writes nothing', async () => {
      const loaded = (await admin().get(page())).body;
      const base = await currentRevision(t.ctx, spaceId);
      assert.equal((await editor().patch(page(), { document: edit(loaded.document, 'Gamma.', 'Gamma, theirs.'), baseRevision: base })).status, 200);
      const head = await currentRevision(t.ctx, spaceId);
      const before = await markdown();
      const revisions = (await t.ctx.db.selectFrom('revisions').select('id').execute()).length;
      const clash = await admin().patch(page(), { document: edit(loaded.document, 'Gamma.', 'Gamma, ours.'), baseRevision: base, title: 'Renamed too' });
      assertError(clash, 409, 'Nothing was saved');
      assert.match(clash.body.error.message, /line 5/);
      assert.match(clash.body.error.message, new RegExp(`"${head}"`), 'the message names the revision to reload');
      assert.equal(await currentRevision(t.ctx, spaceId), head);
      assert.equal(await markdown(), before);
      assert.equal((await admin().get(page())).body.title, 'The guide');
      assert.equal((await t.ctx.db.selectFrom('revisions').select('id').execute()).length, revisions, 'no revision written');
      // Without baseRevision the document replaces the body (the last save wins).
      const forced = await admin().patch(page(), { document: edit(loaded.document, 'Gamma.', 'Gamma, ours.') });
      assert.equal(forced.status, 200);
      assert.match(await markdown(), /Gamma, ours\./);
    });

    it('answers 409 for the same setting changed differently, a page deleted since, a delete of a page changed since', async () => {
      const base = await currentRevision(t.ctx, spaceId);
      assert.equal((await editor().patch(page(), { emoji: '1f600', baseRevision: base })).status, 200);
      assertError(await admin().patch(page(), { emoji: '1f680', baseRevision: base }), 409, '"emoji"');
      // The same change on both sides is no conflict.
      assert.equal((await admin().patch(page(), { emoji: '1f600', baseRevision: base })).status, 200);
      assertError(await admin().delete(`${page()}?baseRevision=${base}`), 409, 'edited by someone else');

      const created = await admin().post(`/v1/spaces/${spaceId}/content/pages`, { title: 'Doomed' });
      const doomed = `/v1/spaces/${spaceId}/content/page/${created.body.id}`;
      const loaded = created.body.revision;
      assert.equal((await editor().delete(doomed)).status, 204);
      assertError(await admin().patch(doomed, { title: 'Saved?', baseRevision: loaded }), 409, 'was deleted');
    });

    it('merges eight saves sent at once, each of another paragraph from the same base, with no 5xx and no lost edit', async () => {
      const words = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight'];
      const created = await admin().post(`/v1/spaces/${spaceId}/content/pages`, { title: 'Busy', document: { object: 'document', data: {}, nodes: words.map((word) => paragraph(`${word}.`)) } });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const url = `/v1/spaces/${spaceId}/content/page/${created.body.id}`;
      const loaded = (await admin().get(url)).body.document as Document;
      const users = [world.admin, world.members.create, world.members.review, world.members.edit];
      const replies = await Promise.all(
        words.map((word, i) => users[i % users.length].api.patch(url, { document: edit(loaded, `${word}.`, `${word}, edited.`), baseRevision: created.body.revision })),
      );
      assert.deepEqual(replies.map((reply) => reply.status), words.map(() => 200), JSON.stringify(replies.filter((r) => r.status !== 200).map((r) => r.body)));
      const markdown = (await admin().get(`${url}?format=markdown`)).body.markdown;
      assert.equal(markdown, `${words.map((word) => `${word}, edited.`).join('\n\n')}\n`);
      // Eight writes, eight revisions, one after the other.
      const revisions = new Set(replies.map((reply) => reply.body.revision));
      assert.equal(revisions.size, 8);
    });

    it('saves one paragraph of a 1,000-block page without reading the other pages', async () => {
      const blocks = Array.from({ length: 1000 }, (_, i) => `Paragraph ${i}.`);
      const big = await createSpace(t.ctx, world.organizationId);
      let bigPage = '';
      await editContent(t.ctx, big, (writer) => {
        for (let i = 0; i < 200; i++) writer.addPage({ type: 'document', title: `Page ${i}`, markdown: `Body ${i}.\n` });
        bigPage = writer.addPage({ type: 'document', title: 'Big', markdown: `${blocks.join('\n\n')}\n` });
      });
      const url = `/v1/spaces/${big}/content/page/${bigPage}`;
      const document = (await admin().get(url)).body.document as Document;
      const objects = async () => (await t.ctx.db.selectFrom('content_objects').select('hash').execute()).length;
      const storedBefore = await objects();
      const builtBefore = treeStats.built;
      const saved = await admin().patch(url, { document: edit(document, 'Paragraph 500.', 'Paragraph 500, edited.'), baseRevision: await currentRevision(t.ctx, big) });
      assert.equal(saved.status, 200);
      // One body, one page node and one root are new; every other object is shared with the revision before.
      assert.equal(await objects(), storedBefore + 3);
      // The tree came from memory: no page of the space was read again from the store.
      assert.equal(treeStats.built, builtBefore);
      const markdownAfter = (await admin().get(`${url}?format=markdown`)).body.markdown as string;
      assert.equal(markdownAfter.split('\n').filter((line, i) => line !== `${blocks.join('\n\n')}\n`.split('\n')[i]).length, 1);
    });
  });
}
