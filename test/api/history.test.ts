import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { assertError, dialects } from '../helpers/app.ts';
import { useApiSuite } from '../helpers/api-suite.ts';
import { createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { cast } from '../helpers/factories.ts';

const BODY = `${['One.', 'Two.', 'Three.'].join('\n\n')}\n`;
const withLine = (n: number, text: string, body = BODY) => `${body.trimEnd().split('\n\n').map((line, i) => (i === n - 1 ? text : line)).join('\n\n')}\n`;

/** A space's history (listRevisions), restoring a revision through a change request, resolving conflicts. */
for (const dialect of dialects) {
  describe(`space history, restore and conflict resolution [${dialect}]`, () => {
    const suite = useApiSuite(dialect);
    const { editor } = suite;

    /** A space with pages A and B, then A edited in a second revision and B deleted in a third. */
    async function spaceWithHistory() {
      const { spaceId, revisionId: first } = await createSpaceWithPages(suite.t.ctx, suite.world.organizationId, [
        { type: 'document', title: 'A', markdown: BODY },
        { type: 'document', title: 'B', markdown: BODY, emoji: '1f600' },
      ]);
      const listed = (await editor().api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string }>;
      const a = listed.find((page) => page.title === 'A')!.id;
      const b = listed.find((page) => page.title === 'B')!.id;
      suite.t.clock.advance(1000);
      const second = await editContent(suite.t.ctx, spaceId, (writer) => writer.updatePage(a, { markdown: withLine(2, 'Two, edited.'), title: 'A, renamed' }));
      suite.t.clock.advance(1000);
      const third = await editContent(suite.t.ctx, spaceId, (writer) => writer.removePage(b));
      return { spaceId, a, b, first, second, third };
    }

    it('lists the space\'s revisions newest first with the pages each changed, page by page', async () => {
      const { spaceId, a, b, first, second, third } = await spaceWithHistory();
      const reply = await editor().api.get(`/v1/spaces/${spaceId}/revisions`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      const ids = reply.body.items.map((item: { id: string }) => item.id);
      assert.deepEqual(ids.slice(0, 3), [third, second, first]);
      assert.deepEqual(reply.body.items[0].pages, [{ id: b, title: 'B', change: 'page_deleted' }]);
      assert.deepEqual(reply.body.items[1].pages, [{ id: a, title: 'A, renamed', change: 'page_edited' }]);
      assert.equal(reply.body.items[1].object, 'revision-history-entry');
      assert.equal(reply.body.items[1].type, 'edits');
      assert.equal(typeof reply.body.items[1].createdAt, 'string');

      const paged = await editor().api.get(`/v1/spaces/${spaceId}/revisions?limit=1`);
      assert.deepEqual(paged.body.items.map((item: { id: string }) => item.id), [third]);
      assert.equal(paged.body.next.page, second);
      const next = await editor().api.get(`/v1/spaces/${spaceId}/revisions?limit=1&page=${paged.body.next.page}`);
      assert.deepEqual(next.body.items.map((item: { id: string }) => item.id), [second]);

      assertError(await editor().api.get(`/v1/spaces/${spaceId}/revisions?limit=0`), 400);
      assertError(await editor().api.get(`/v1/spaces/${spaceId}/revisions?page=nope`), 404, 'No revision');
      assertError(await editor().api.get(`/v1/spaces/${spaceId}/revisions?other=1`), 400);
    });

    it('names the change request a merge brought in and who merged it', async () => {
      const { spaceId, a } = await spaceWithHistory();
      const cr = (await editor().api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Third line' })).body;
      const edit = await editor().api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}/content/page/${a}`, { title: 'A, third' });
      assert.equal(edit.status, 200, JSON.stringify(edit.body));
      const merged = await suite.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/merge`);
      assert.equal(merged.body.result, 'merge', JSON.stringify(merged.body));
      const top = (await editor().api.get(`/v1/spaces/${spaceId}/revisions`)).body.items[0];
      assert.equal(top.id, merged.body.revision);
      assert.deepEqual(top.mergedFrom, { id: cr.id, number: cr.number, subject: 'Third line' });
      assert.equal(top.createdBy.id, suite.world.admin.id);
      assert.deepEqual(top.pages, [{ id: a, title: 'A, third', change: 'page_edited' }]);
    });

    it('restores the whole space in a new change request; the space changes only once it is merged', async () => {
      const { spaceId, first, third } = await spaceWithHistory();
      const reply = await editor().api.post(`/v1/spaces/${spaceId}/revisions/${first}/restore`, {});
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.match(reply.headers.location as string, new RegExp(`/v1/spaces/${spaceId}/change-requests/${reply.body.id}$`));
      assert.match(reply.body.subject, /^Restore the space as it was on /);
      assert.equal(await currentRevision(suite.t.ctx, spaceId), third, 'nothing changes in the space before the merge');
      const titles = async (url: string) => ((await editor().api.get(url)).body.pages as Array<{ title: string }>).map((page) => page.title);
      assert.deepEqual(await titles(`/v1/spaces/${spaceId}/change-requests/${reply.body.id}/content/pages`), ['A', 'B']);
      const changes = (await editor().api.get(`/v1/spaces/${spaceId}/change-requests/${reply.body.id}/changes`)).body.changes.map((change: { type: string }) => change.type).sort();
      assert.deepEqual(changes, ['page_created', 'page_edited']);
      const merged = await suite.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests/${reply.body.id}/merge`);
      assert.equal(merged.body.result, 'merge', JSON.stringify(merged.body));
      assert.deepEqual(await titles(`/v1/spaces/${spaceId}/content/pages`), ['A', 'B']);
      assert.equal((await editor().api.get(`/v1/spaces/${spaceId}/revisions/${merged.body.revision}`)).body.type, 'merge');

      // The space now has that content: nothing left to restore.
      assertError(await editor().api.post(`/v1/spaces/${spaceId}/revisions/${first}/restore`, {}), 400, 'nothing to restore');
    });

    it('restores one page, also one deleted since, leaving the others as the space has them', async () => {
      const { spaceId, a, b, first } = await spaceWithHistory();
      const reply = await editor().api.post(`/v1/spaces/${spaceId}/revisions/${first}/restore`, { pageId: a, subject: 'Bring A back' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      assert.equal(reply.body.subject, 'Bring A back');
      const url = `/v1/spaces/${spaceId}/change-requests/${reply.body.id}`;
      const page = (await editor().api.get(`${url}/content/page/${a}?format=markdown`)).body;
      assert.deepEqual([page.title, page.markdown], ['A', BODY]);
      assert.deepEqual(((await editor().api.get(`${url}/content/pages`)).body.pages as Array<{ id: string }>).map((p) => p.id), [a], 'B stays deleted');

      const deleted = await editor().api.post(`/v1/spaces/${spaceId}/revisions/${first}/restore`, { pageId: b });
      assert.equal(deleted.status, 201, JSON.stringify(deleted.body));
      const back = (await editor().api.get(`/v1/spaces/${spaceId}/change-requests/${deleted.body.id}/content/page/${b}?format=markdown`)).body;
      assert.deepEqual([back.title, back.emoji, back.markdown], ['B', '1f600', BODY]);

      assertError(await editor().api.post(`/v1/spaces/${spaceId}/revisions/${first}/restore`, { pageId: 'missing' }), 404, 'not in the revision');
      assertError(await editor().api.post(`/v1/spaces/${spaceId}/revisions/missing/restore`, {}), 404, 'No revision');
      assertError(await editor().api.post(`/v1/spaces/${spaceId}/revisions/${first}/restore`, { pageId: a, extra: true }), 400);
    });

    it('resolves conflicts: each page takes the side chosen or the text edited, and the change request then merges', async () => {
      const { spaceId } = await createSpaceWithPages(suite.t.ctx, suite.world.organizationId, [
        { type: 'document', title: 'A', markdown: BODY },
        { type: 'document', title: 'B', markdown: BODY },
        { type: 'document', title: 'C', markdown: BODY },
        { type: 'document', title: 'D', markdown: BODY },
      ]);
      const listed = (await editor().api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string }>;
      const [a, b, c, d] = ['A', 'B', 'C', 'D'].map((title) => listed.find((page) => page.title === title)!.id);
      const cr = (await editor().api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Conflicting' })).body;
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
      const importInto = async (pageId: string, markdown: string) => {
        const reply = await editor().api.post(`${url}/content/page/${pageId}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}` });
        assert.equal(reply.status, 201, JSON.stringify(reply.body));
      };
      await importInto(a, withLine(1, 'One (change request).'));
      await importInto(b, withLine(1, 'One (change request).'));
      await importInto(c, withLine(1, 'One (change request).'));
      await importInto(d, withLine(3, 'Three (change request).'));
      await editContent(suite.t.ctx, spaceId, (writer) => {
        for (const page of [a, b, c]) writer.updatePage(page, { markdown: withLine(1, 'One (space).') });
        writer.updatePage(d, { markdown: withLine(2, 'Two (space).') });
      });
      const refused = await suite.world.admin.api.post(`${url}/merge`);
      assert.equal(refused.body.result, 'conflicts');
      assert.deepEqual(refused.body.conflicts.map((conflict: { pageId: string }) => conflict.pageId).sort(), [a, b, c].sort());

      // One page left unresolved: still conflicts, nothing changes.
      const head = (await editor().api.get(url)).body.revision;
      const partial = await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId: a, take: 'change-request' }] });
      assert.equal(partial.status, 200, JSON.stringify(partial.body));
      assert.equal(partial.body.result, 'conflicts');
      assert.equal((await editor().api.get(url)).body.revision, head);

      const resolved = await editor().api.post(`${url}/resolve`, {
        resolutions: [
          { pageId: a, take: 'change-request' },
          { pageId: b, take: 'space' },
          { pageId: c, take: 'edited', title: 'C, both', markdown: withLine(1, 'One (both).') },
        ],
      });
      assert.equal(resolved.status, 200, JSON.stringify(resolved.body));
      assert.equal(resolved.body.result, 'update');
      const after = (await editor().api.get(url)).body;
      assert.deepEqual([after.revision, after.outdated, after.revisionMergedAncestor], [resolved.body.revision, false, await currentRevision(suite.t.ctx, spaceId)]);
      const merged = await suite.world.admin.api.post(`${url}/merge`);
      assert.equal(merged.body.result, 'merge', JSON.stringify(merged.body));
      const body = async (pageId: string) => (await editor().api.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body;
      assert.equal((await body(a)).markdown, withLine(1, 'One (change request).'));
      assert.equal((await body(b)).markdown, withLine(1, 'One (space).'));
      assert.deepEqual([(await body(c)).title, (await body(c)).markdown], ['C, both', withLine(1, 'One (both).')]);
      assert.equal((await body(d)).markdown, withLine(3, 'Three (change request).', withLine(2, 'Two (space).')), 'changes without conflict combine');

      assertError(await editor().api.post(`${url}/resolve`, { resolutions: [{ pageId: a, take: 'space' }] }), 409, 'merged');
    });

    it('refuses resolutions it cannot apply, with a reason', async () => {
      const { spaceId, a, b } = await spaceWithHistory();
      const cr = (await editor().api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Up to date' })).body;
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.id}/resolve`;
      assertError(await editor().api.post(url, { resolutions: [{ pageId: a, take: 'space' }] }), 400, 'no conflict');
      await editContent(suite.t.ctx, spaceId, (writer) => writer.updatePage(a, { markdown: 'Space.\n' }));
      assertError(await editor().api.post(url, { resolutions: [{ pageId: a, take: 'edited' }] }), 400, 'markdown');
      assertError(await editor().api.post(url, { resolutions: [{ pageId: a, take: 'space', markdown: 'x' }] }), 400, 'only with "edited"');
      assertError(await editor().api.post(url, { resolutions: [{ pageId: a, take: 'space' }, { pageId: a, take: 'space' }] }), 400, 'twice');
      assertError(await editor().api.post(url, { resolutions: [{ pageId: b, take: 'space' }] }), 400, 'not in both');
      assertError(await editor().api.post(url, { resolutions: [] }), 400);
      assertError(await editor().api.post(url, { resolutions: [{ pageId: a, take: 'mine' }] }), 400);
    });

    it('refuses to restore or resolve while the space is locked', async () => {
      const { spaceId, a, first } = await spaceWithHistory();
      const cr = (await editor().api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Before the lock' })).body;
      await suite.world.admin.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' });
      assertError(await editor().api.post(`/v1/spaces/${spaceId}/revisions/${first}/restore`, {}), 423);
      assertError(await editor().api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/resolve`, { resolutions: [{ pageId: a, take: 'space' }] }), 423);
      assert.equal((await editor().api.get(`/v1/spaces/${spaceId}/revisions`)).status, 200, 'the history is still read');
    });

    it('lets each role do what its level allows', async () => {
      const { spaceId, a, first } = await spaceWithHistory();
      for (const [name, user] of cast(suite.world)) {
        const list = await user.api.get(`/v1/spaces/${spaceId}/revisions`);
        const restore = await user.api.post(`/v1/spaces/${spaceId}/revisions/${first}/restore`, { pageId: a });
        const canRead = ['admin', 'create', 'review', 'edit', 'comment', 'read'].includes(name);
        const canEdit = ['admin', 'create', 'review', 'edit'].includes(name);
        assert.equal(list.status, canRead ? 200 : 404, `${name} lists the history: ${JSON.stringify(list.body)}`);
        if (canEdit) assert.equal(restore.status, 201, `${name} restores: ${JSON.stringify(restore.body)}`);
        else assertError(restore, canRead ? 403 : 404);
        if (!canEdit) continue;
        const resolve = await user.api.post(`/v1/spaces/${spaceId}/change-requests/${restore.body.id}/resolve`, { resolutions: [{ pageId: a, take: 'space' }] });
        assertError(resolve, 400, 'no conflict');
      }
      const cr = (await editor().api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'x' })).body;
      for (const [name, user] of cast(suite.world)) {
        if (['admin', 'create', 'review', 'edit'].includes(name)) continue;
        const resolve = await user.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.id}/resolve`, { resolutions: [{ pageId: a, take: 'space' }] });
        assertError(resolve, ['comment', 'read'].includes(name) ? 403 : 404);
      }
    });
  });
}
