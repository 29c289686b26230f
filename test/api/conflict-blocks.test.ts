import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, dialects } from '../helpers/app.ts';
import { importMarkdownInto, useApiSuite } from '../helpers/api-suite.ts';
import { createSpaceWithPages, editContent } from '../helpers/content-factory.ts';
import { cast } from '../helpers/factories.ts';

const BASE = ['Intro.', 'First paragraph.', 'Second paragraph.', 'Third paragraph.', 'Fourth paragraph.'];
const text = (blocks: string[]) => `${blocks.join('\n\n')}\n`;
const replaced = (changes: Record<number, string>) => text(BASE.map((block, index) => changes[index] ?? block));

/** A page's conflicts block by block: getChangeRequestPageConflict, its preview, and resolveChangeRequestConflicts with `take: "blocks"`. */
for (const dialect of dialects) {
  describe(`conflicts block by block [${dialect}]`, () => {
    const suite = useApiSuite(dialect);
    const { editor } = suite;

    /** A change request and the space that both changed blocks 1 and 3 of one page; the space also block 4, the change request block 2. */
    async function conflicting() {
      const { spaceId } = await createSpaceWithPages(suite.t.ctx, suite.world.organizationId, [{ type: 'document', title: 'Page', markdown: text(BASE) }]);
      const pageId = (await editor().api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages[0].id as string;
      const cr = (await editor().api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Blocks' })).body;
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
      const markdown = replaced({ 1: 'First, mine.', 2: 'Second, mine only.', 3: 'Third, mine.' });
      const imported = await importMarkdownInto(editor(), url, pageId, markdown);
      assert.equal(imported.status, 201, JSON.stringify(imported.body));
      const renamed = await editor().api.patch(`${url}/content/page/${pageId}`, { title: 'Page, renamed' });
      assert.equal(renamed.status, 200, JSON.stringify(renamed.body));
      await editContent(suite.t.ctx, spaceId, (writer) => writer.updatePage(pageId, { markdown: replaced({ 1: 'First, the space’s.', 3: 'Third, the space’s.', 4: 'Fourth, the space only.' }) }));
      return { spaceId, pageId, url };
    }

    it('aligns the page by block, previews the choices and resolves with them', async () => {
      const { pageId, url, spaceId } = await conflicting();
      const refused = await suite.world.admin.api.post(`${url}/merge`);
      assert.deepEqual(refused.body.conflicts.map((conflict: { kind: string }) => conflict.kind), ['body']);

      const read = await editor().api.get(`${url}/conflicts/page/${pageId}`);
      assert.equal(read.status, 200, JSON.stringify(read.body));
      const runs = read.body.runs as Array<{ status: string; conflict?: number; space: { markdown: string; document: { nodes: unknown[] } }; changeRequest: { markdown: string }; result?: { markdown: string } }>;
      assert.deepEqual(
        runs.map((run) => [run.status, run.result?.markdown ?? `${run.changeRequest.markdown} | ${run.space.markdown}`]),
        [
          ['unchanged', 'Intro.'],
          ['conflict', 'First, mine. | First, the space’s.'],
          ['change-request', 'Second, mine only.'],
          ['conflict', 'Third, mine. | Third, the space’s.'],
          ['space', 'Fourth, the space only.'],
        ],
      );
      assert.equal(read.body.conflicts, 2);
      assert.deepEqual(runs.filter((run) => run.status === 'conflict').map((run) => run.conflict), [0, 1]);
      assert.equal(runs[1].space.document.nodes.length, 1, 'each side comes as a document too');

      const choices = [{ take: 'space' }, { take: 'change-request' }];
      const preview = await editor().api.post(`${url}/conflicts/page/${pageId}/preview`, { blocks: choices, revisions: read.body.revisions });
      assert.equal(preview.status, 200, JSON.stringify(preview.body));
      const expected = text(['Intro.', 'First, the space’s.', 'Second, mine only.', 'Third, mine.', 'Fourth, the space only.']).trimEnd();
      assert.equal(preview.body.markdown, expected);
      const both = await editor().api.post(`${url}/conflicts/page/${pageId}/preview`, { blocks: [{ take: 'both' }, { take: 'edited', markdown: 'Third, **edited**.' }] });
      assert.equal(both.body.markdown, ['Intro.', 'First, mine.', 'First, the space’s.', 'Second, mine only.', 'Third, **edited**.', 'Fourth, the space only.'].join('\n\n'));
      assert.equal((await editor().api.get(url)).body.revision, read.body.revisions.changeRequest, 'a preview writes nothing');

      // Refusals, each with nothing written.
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: [{ take: 'space' }] }] }), 400, '2 conflicting runs');
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks' }] }), 400, '"blocks"');
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: [{ take: 'edited' }, { take: 'space' }] }] }), 400, 'blocks[0]');
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: [{ take: 'space', markdown: 'x' }, { take: 'space' }] }] }), 400, 'only with "edited"');
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'space', blocks: [] }] }), 400, 'goes only with');
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: [{ take: 'mine' }] }] }), 400);
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: choices }], revisions: { space: 'old', changeRequest: read.body.revisions.changeRequest } }), 409, 'changed since');
      assert.equal((await editor().api.get(url)).body.revision, read.body.revisions.changeRequest, 'nothing written by a refusal');

      const resolved = await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: choices }], revisions: { space: read.body.revisions.space, changeRequest: read.body.revisions.changeRequest } });
      assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
      assert.equal(resolved.body.result, 'update');
      const merged = await suite.world.admin.api.post(`${url}/merge`);
      assert.equal(merged.body.result, 'merge', JSON.stringify(merged.body));
      const page = (await editor().api.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body;
      assert.equal(page.markdown.trimEnd(), expected);
      assert.equal(page.title, 'Page, renamed', 'a rename made in the change request only is kept');
      assertError(await editor().api.get(`${url}/conflicts/page/${pageId}`), 409);
    });

    it('takes an edited run as a document, written by the page writer, and refuses a malformed one', async () => {
      const { pageId, url } = await conflicting();
      const read = (await editor().api.get(`${url}/conflicts/page/${pageId}`)).body;
      // The change request's side of the first conflict, as each side is given, with one word made bold.
      const mine = read.runs.find((run: { conflict?: number }) => run.conflict === 0).changeRequest.document;
      const edited = structuredClone(mine);
      edited.nodes[0].nodes = [
        { object: 'text', leaves: [{ object: 'leaf', text: 'First, ', marks: [] }, { object: 'leaf', text: 'edited', marks: [{ object: 'mark', type: 'bold', data: {} }] }, { object: 'leaf', text: '.', marks: [] }] },
      ];
      const blocks = [{ take: 'edited', document: edited }, { take: 'space' }];
      const preview = await editor().api.post(`${url}/conflicts/page/${pageId}/preview`, { blocks });
      assert.equal(preview.status, 200, JSON.stringify(preview.body));
      assert.equal(preview.body.markdown, ['Intro.', 'First, **edited**.', 'Second, mine only.', 'Third, the space’s.', 'Fourth, the space only.'].join('\n\n'));

      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: [{ take: 'edited', document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'no-such-block', nodes: [] }] } }, { take: 'space' }] }] }), 400, 'blocks[0].document');
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: [{ take: 'edited', document: edited, markdown: 'x' }, { take: 'space' }] }] }), 400, 'both');
      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: [{ take: 'space', document: edited }, { take: 'space' }] }] }), 400, 'only with "edited"');
      assert.equal((await editor().api.get(url)).body.revision, read.revisions.changeRequest, 'nothing written by a refusal');

      const resolved = await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks }], revisions: read.revisions });
      assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
      const page = (await editor().api.get(`${url}/content/page/${pageId}?format=markdown`)).body;
      assert.match(page.markdown, /First, \*\*edited\*\*\.\n\nSecond, mine only\.\n\nThird, the space’s\./);
    });

    it('says what it cannot align', async () => {
      const { spaceId, pageId, url } = await conflicting();
      assertError(await editor().api.get(`${url}/conflicts/page/missing`), 400, 'not in both');
      const fresh = (await editor().api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Up to date' })).body;
      assertError(await editor().api.get(`/v1/spaces/${spaceId}/change-requests/${fresh.id}/conflicts/page/${pageId}`), 400, 'already includes');
    });

    it('lets readers see the alignment and editors resolve; guests and outsiders are refused', async () => {
      const { pageId, url } = await conflicting();
      const read = (await editor().api.get(`${url}/conflicts/page/${pageId}`)).body;
      for (const [name, user] of cast(suite.world)) {
        const canRead = ['admin', 'create', 'review', 'edit', 'comment', 'read'].includes(name);
        const canEdit = ['admin', 'create', 'review', 'edit'].includes(name);
        const seen = await user.api.get(`${url}/conflicts/page/${pageId}`);
        if (canRead) assert.equal(seen.status, 200, `${name} reads: ${JSON.stringify(seen.body)}`);
        else assertError(seen, 404);
        const preview = await user.api.post(`${url}/conflicts/page/${pageId}/preview`, { blocks: [{ take: 'space' }, { take: 'space' }] });
        if (canRead) assert.equal(preview.status, 200, `${name} previews`);
        else assertError(preview, 404);
        // Choices that cannot apply: so every editor reaches the check, and nothing is written.
        const resolve = await user.api.post(`${url}/resolve`, { resolutions: [{ pageId, take: 'blocks', blocks: [{ take: 'space' }] }] });
        if (canEdit) assertError(resolve, 400, 'conflicting runs');
        else assertError(resolve, canRead ? 403 : 404);
      }
      assert.equal((await editor().api.get(url)).body.revision, read.revisions.changeRequest);
    });
  });
}
