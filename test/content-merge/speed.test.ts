import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { mergeRevisions, mergeStats } from '../../src/content/merge/index.ts';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, manyPages } from '../helpers/content-factory.ts';
import { createWorld } from '../helpers/factories.ts';
import { branch, merged } from './helpers.ts';

/**
 * Merging a change request that edits one page while the space moved on (another page edited): in a
 * 10,000-page space it must cost about what it costs in a 10-page one, since the merge reads only the
 * changed paths and never an unchanged subtree or body.
 */
for (const dialect of dialects) {
  describe(`merge of revisions: speed [${dialect}]`, () => {
    let t: TestApp;
    let org: string;
    before(async () => {
      t = await createTestApp(dialect);
      org = (await createWorld(t.ctx, t.app)).organizationId;
    });
    after(() => t.close());

    /** Base, ours (a page edited near the start) and theirs (a page edited near the end), in a space of `count` pages. */
    async function setup(count: number) {
      const { spaceId, revisionId: base } = await createSpaceWithPages(t.ctx, org, manyPages(count));
      // Three levels down: the first page there, and the last.
      const deep = (w: Parameters<Parameters<typeof branch>[3]>[0], end: 'first' | 'last') => {
        let at: string | null = null;
        for (let level = 0; level < 3; level++) {
          const children = w.children(at);
          at = end === 'first' ? children[0] : children[children.length - 1];
        }
        return at!;
      };
      const ours = await branch(t.ctx, spaceId, base, (w) => w.updatePage(deep(w, 'first'), { markdown: 'The space moved on.' }));
      const theirs = await branch(t.ctx, spaceId, base, (w) => w.updatePage(deep(w, 'last'), { title: 'Edited by the change request', markdown: 'Changed.' }));
      return { base, ours, theirs };
    }

    /** The work one merge does: nodes and bodies read, objects written (counted by the merge itself). */
    async function work(input: { base: string; ours: string; theirs: string }) {
      merged(await mergeRevisions(t.ctx, input));
      return { nodesRead: mergeStats.nodesRead, bodiesRead: mergeStats.bodiesRead, objectsWritten: mergeStats.objectsWritten };
    }

    // Time is measured by `npm run bench`, never asserted here: the suite checks the work, which decides it.
    it('merging one edit into a 10,000-page space reads about as much as in a 10-page space', { timeout: 180_000 }, async () => {
      const small = await work(await setup(10));
      const large = await work(await setup(10_000));
      assert.ok(large.nodesRead <= small.nodesRead + 4, `the large merge read ${large.nodesRead} nodes, the small one ${small.nodesRead}`);
      assert.equal(large.bodiesRead, small.bodiesRead);
      assert.ok(large.objectsWritten <= small.objectsWritten + 1, `the large merge wrote ${large.objectsWritten} objects, the small one ${small.objectsWritten}`);
    });
  });
}
