import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages, currentRevision, editContent } from '../helpers/content-factory.ts';
import { cast, createWorld, type TestUser, type World } from '../helpers/factories.ts';
import type { Kysely } from 'kysely';
import type { Context } from '../../src/context.ts';
import type { DB } from '../../src/db/types.ts';
import { mergeChangeRequest, mergeRetries, updateChangeRequestFromSpace } from '../../src/modules/change-requests/merge-service.ts';

/** Six paragraphs, one line each. */
const BODY = `${['One.', 'Two.', 'Three.', 'Four.', 'Five.', 'Six.'].join('\n\n')}\n`;

/** BODY with paragraph `n` (1-based) replaced. */
const withLine = (n: number, text: string, body = BODY) => `${body.trimEnd().split('\n\n').map((line, i) => (i === n - 1 ? text : line)).join('\n\n')}\n`;

/**
 * Merging change requests into their space, updating them from it, conflicts (which change nothing), and
 * merges fired at the same moment.
 */
for (const dialect of dialects) {
  describe(`change request merge and update [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const editor = () => world.members.edit;
    const reviewer = () => world.members.review;

    /** A space with pages A, B and C, each with BODY. */
    async function space(): Promise<{ spaceId: string; pages: Record<'a' | 'b' | 'c', string> }> {
      const { spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [
        { type: 'document', title: 'A', markdown: BODY },
        { type: 'document', title: 'B', markdown: BODY },
        { type: 'document', title: 'C', markdown: BODY },
      ]);
      const listed = (await editor().api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; title: string }>;
      const id = (title: string) => listed.find((page) => page.title === title)!.id;
      return { spaceId, pages: { a: id('A'), b: id('B'), c: id('C') } };
    }

    async function changeRequest(spaceId: string, user: TestUser = editor()): Promise<{ id: string; url: string; number: number }> {
      const reply = await user.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edits' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return { id: reply.body.id, number: reply.body.number, url: `/v1/spaces/${spaceId}/change-requests/${reply.body.id}` };
    }

    /** Replaces a page's body in a change request (a page import of one Markdown page). */
    async function editInChangeRequest(url: string, pageId: string, markdown: string): Promise<void> {
      const reply = await editor().api.post(`${url}/content/page/${pageId}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from(markdown).toString('base64')}` });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
    }

    async function editInSpace(spaceId: string, pageId: string, markdown: string): Promise<string> {
      return editContent(t.ctx, spaceId, (writer) => writer.updatePage(pageId, { markdown }));
    }

    const spaceBody = async (spaceId: string, pageId: string) => (await editor().api.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown as string;
    const crBody = async (url: string, pageId: string) => (await editor().api.get(`${url}/content/page/${pageId}?format=markdown`)).body.markdown as string;
    const get = async (url: string) => (await editor().api.get(url)).body;
    const counters = async (spaceId: string) => {
      const body = (await world.admin.api.get(`/v1/spaces/${spaceId}`)).body;
      return { all: body.changeRequests, open: body.changeRequestsOpen, draft: body.changeRequestsDraft };
    };

    it('merges a change request: a merge revision with both heads as parents becomes the space\'s content', async () => {
      const { spaceId, pages } = await space();
      const cr = await changeRequest(spaceId);
      await editor().api.patch(cr.url, { status: 'open' });
      await editInChangeRequest(cr.url, pages.a, withLine(1, 'One, edited in the change request.'));
      const spaceHead = await currentRevision(t.ctx, spaceId);
      const crHead = (await get(cr.url)).revision;
      assert.deepEqual(await counters(spaceId), { all: 1, open: 1, draft: 0 });
      t.clock.advance(1000);
      const reply = await reviewer().api.post(`${cr.url}/merge`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.result, 'merge');
      assert.equal(reply.body.conflicts, undefined);
      assert.equal(await currentRevision(t.ctx, spaceId), reply.body.revision);
      const revision = (await editor().api.get(`/v1/spaces/${spaceId}/content`)).body;
      assert.deepEqual([revision.id, revision.type, revision.parents], [reply.body.revision, 'merge', [spaceHead, crHead]]);
      assert.deepEqual([revision.mergedFrom.object, revision.mergedFrom.id, revision.mergedFrom.status], ['change-request', cr.id, 'merged']);
      assert.equal(await spaceBody(spaceId, pages.a), withLine(1, 'One, edited in the change request.'));
      const merged = await get(cr.url);
      assert.deepEqual([merged.status, merged.revisionMerged, merged.outdated], ['merged', reply.body.revision, false]);
      assert.deepEqual(await counters(spaceId), { all: 1, open: 0, draft: 0 });
      assert.equal((await editor().api.get(`/v1/spaces/${spaceId}/change-requests?status=merged`)).body.count, 1);

      // A merged change request is final.
      assertError(await reviewer().api.post(`${cr.url}/merge`), 409, 'merged');
      assertError(await editor().api.post(`${cr.url}/update`), 409, 'merged');
      assertError(await editor().api.patch(cr.url, { status: 'open' }), 409, 'merged');
      assertError(await editor().api.patch(cr.url, { subject: 'Renamed' }), 409, 'merged');
      assertError(await editor().api.post(`${cr.url}/content/import`, { source: 'markdown', url: 'data:text/markdown,x' }), 409, 'merged');
      assertError(await editor().api.post(`${cr.url}/content/page/${pages.a}/import`, { source: 'markdown', url: 'data:text/markdown,x' }), 409, 'merged');
      assert.equal(await currentRevision(t.ctx, spaceId), reply.body.revision);
      assert.equal((await get(cr.url)).status, 'merged');
    });

    it('merges edits of different lines of one page and of different pages made on both sides', async () => {
      const { spaceId, pages } = await space();
      const cr = await changeRequest(spaceId);
      await editInChangeRequest(cr.url, pages.a, withLine(1, 'One (change request).'));
      await editInChangeRequest(cr.url, pages.b, withLine(2, 'Two (change request).'));
      await editInSpace(spaceId, pages.a, withLine(6, 'Six (space).'));
      await editInSpace(spaceId, pages.c, withLine(3, 'Three (space).'));
      assert.equal((await get(cr.url)).outdated, true);
      const reply = await reviewer().api.post(`${cr.url}/merge`);
      assert.equal(reply.body.result, 'merge', JSON.stringify(reply.body));
      assert.equal(await spaceBody(spaceId, pages.a), withLine(6, 'Six (space).', withLine(1, 'One (change request).')));
      assert.equal(await spaceBody(spaceId, pages.b), withLine(2, 'Two (change request).'));
      assert.equal(await spaceBody(spaceId, pages.c), withLine(3, 'Three (space).'));
      assert.equal((await get(cr.url)).outdated, false, 'a merged change request is never outdated');
    });

    it('reports conflicts and changes nothing', async () => {
      const { spaceId, pages } = await space();
      const cr = await changeRequest(spaceId);
      await editor().api.patch(cr.url, { status: 'open' });
      await editInChangeRequest(cr.url, pages.a, withLine(3, 'Three, as the change request says.'));
      await editInChangeRequest(cr.url, pages.b, withLine(1, 'One (change request).'));
      const spaceHead = await editInSpace(spaceId, pages.a, withLine(3, 'Three, as the space says.'));
      const before = await get(cr.url);
      const countersBefore = await counters(spaceId);
      const revisionsBefore = Number((await t.ctx.db.selectFrom('revisions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      t.clock.advance(1000);
      const reply = await reviewer().api.post(`${cr.url}/merge`);
      assert.equal(reply.status, 200);
      assert.equal(reply.body.result, 'conflicts');
      assert.equal(reply.body.revision, before.revision);
      assert.deepEqual(reply.body.conflicts.map((c: { kind: string; pageId: string; title: string; path: string }) => [c.kind, c.pageId, c.title, c.path]), [['body', pages.a, 'A', 'a']]);
      assert.equal(typeof reply.body.conflicts[0].detail, 'string');
      assert.equal(await currentRevision(t.ctx, spaceId), spaceHead);
      assert.deepEqual(await get(cr.url), before);
      assert.deepEqual(await counters(spaceId), countersBefore);
      const revisionsAfter = Number((await t.ctx.db.selectFrom('revisions').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      assert.equal(revisionsAfter, revisionsBefore, 'no revision was written');
      assert.equal(await spaceBody(spaceId, pages.b), BODY);

      // Updating hits the same conflict, and changes nothing either.
      const update = await editor().api.post(`${cr.url}/update`);
      assert.deepEqual([update.body.result, update.body.revision, update.body.conflicts.length], ['conflicts', before.revision, 1]);
      assert.deepEqual(await get(cr.url), before);

      // Fixed in the change request (it takes the space's line), the update and then the merge go through.
      await editInChangeRequest(cr.url, pages.a, withLine(3, 'Three, as the space says.'));
      assert.equal((await editor().api.post(`${cr.url}/update`)).body.result, 'update');
      assert.equal((await reviewer().api.post(`${cr.url}/merge`)).body.result, 'merge');
      assert.equal(await spaceBody(spaceId, pages.b), withLine(1, 'One (change request).'));
    });

    it('updates an outdated change request with the space\'s content', async () => {
      const { spaceId, pages } = await space();
      const cr = await changeRequest(spaceId);
      await editInChangeRequest(cr.url, pages.a, withLine(1, 'One (change request).'));
      const headBefore = (await get(cr.url)).revision;
      assert.equal((await get(cr.url)).outdated, false);
      const spaceHead = await editInSpace(spaceId, pages.b, withLine(4, 'Four (space).'));
      assert.equal((await get(cr.url)).outdated, true);
      t.clock.advance(1000);
      const reply = await editor().api.post(`${cr.url}/update`);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      assert.equal(reply.body.result, 'update');
      const after = await get(cr.url);
      assert.equal(after.revision, reply.body.revision);
      assert.deepEqual([after.revisionMergedAncestor, after.outdated, after.status], [spaceHead, false, 'draft']);
      const revision = (await editor().api.get(`${cr.url}/content`)).body;
      assert.deepEqual([revision.type, revision.parents], ['update', [headBefore, spaceHead]]);
      assert.equal(await crBody(cr.url, pages.b), withLine(4, 'Four (space).'));
      assert.equal(await crBody(cr.url, pages.a), withLine(1, 'One (change request).'));
      assert.equal(await currentRevision(t.ctx, spaceId), spaceHead, 'updating never moves the space');
      // Up to date: nothing to pull, nothing written.
      const again = await editor().api.post(`${cr.url}/update`);
      assert.deepEqual(again.body, { result: 'update', revision: after.revision });
      // The merge afterwards starts from the new base: only the change request's own edit is new.
      const merge = await reviewer().api.post(`${cr.url}/merge`);
      assert.equal(merge.body.result, 'merge');
      assert.equal(await spaceBody(spaceId, pages.a), withLine(1, 'One (change request).'));
      assert.equal(await spaceBody(spaceId, pages.b), withLine(4, 'Four (space).'));
    });

    it('lands merges fired at the same moment; none overwrites another', async () => {
      const { spaceId, pages } = await space();
      const edits: Array<[keyof typeof pages, number]> = [['a', 1], ['b', 2], ['a', 6], ['c', 4], ['b', 5]];
      const crs = [];
      for (const [page, line] of edits) {
        const cr = await changeRequest(spaceId);
        await editInChangeRequest(cr.url, pages[page], withLine(line, `Line ${line} (${page}).`));
        crs.push(cr);
      }
      const retriesBefore = mergeRetries.count;
      const replies = await Promise.all(crs.map((cr) => reviewer().api.post(`${cr.url}/merge`)));
      assert.deepEqual(replies.map((r) => [r.status, r.body.result]), crs.map(() => [200, 'merge']));
      // On SQLite each request runs to its end without waiting on I/O, so they queue; on PostgreSQL they overlap.
      if (dialect === 'postgres') assert.ok(mergeRetries.count > retriesBefore, 'merges were overtaken and computed again');
      assert.equal(await spaceBody(spaceId, pages.a), withLine(6, 'Line 6 (a).', withLine(1, 'Line 1 (a).')));
      assert.equal(await spaceBody(spaceId, pages.b), withLine(5, 'Line 5 (b).', withLine(2, 'Line 2 (b).')));
      assert.equal(await spaceBody(spaceId, pages.c), withLine(4, 'Line 4 (c).'));
      // The merges form one line: every one but the first was built on another merge.
      const heads = replies.map((r) => r.body.revision as string);
      assert.ok(heads.includes(await currentRevision(t.ctx, spaceId)));
      const parents = await Promise.all(heads.map(async (id) => JSON.parse((await t.ctx.db.selectFrom('revisions').select('parents').where('id', '=', id).executeTakeFirstOrThrow()).parents)[0] as string));
      assert.equal(parents.filter((parent) => heads.includes(parent)).length, heads.length - 1);
      assert.equal(new Set(parents).size, heads.length, 'no two merges were built on the same head');
      for (const cr of crs) assert.equal((await get(cr.url)).status, 'merged');
      assert.deepEqual(await counters(spaceId), { all: edits.length, open: 0, draft: 0 });
    });

    /**
     * A Context for the service functions whose first transaction starts only after `race` has run: the
     * space moves between the moment a merge is computed and the moment it is written.
     */
    function racingContext(user: TestUser, race: () => Promise<unknown>): Context {
      let raced = false;
      const db = new Proxy(t.ctx.db, {
        get(target, prop) {
          if (prop === 'transaction') {
            return () => ({
              execute: async <T>(work: (trx: Kysely<DB>) => Promise<T>): Promise<T> => {
                if (!raced) {
                  raced = true;
                  await race();
                }
                return target.transaction().execute(work);
              },
            });
          }
          const value = Reflect.get(target, prop, target);
          return typeof value === 'function' ? value.bind(target) : value;
        },
      });
      return { ...t.ctx, db, actor: { userId: user.id, email: user.email }, checked: new Set() };
    }

    it('computes a merge again when the space moved after it was computed, keeping both changes', async () => {
      const { spaceId, pages } = await space();
      const cr = await changeRequest(spaceId);
      await editInChangeRequest(cr.url, pages.a, withLine(1, 'One (change request).'));
      let moved = '';
      const retriesBefore = mergeRetries.count;
      const ctx = racingContext(reviewer(), async () => {
        moved = await editInSpace(spaceId, pages.a, withLine(6, 'Six (landed first).'));
      });
      const outcome = await mergeChangeRequest(ctx, spaceId, cr.id, { warn: () => {} });
      assert.equal(outcome.result, 'merge');
      assert.equal(mergeRetries.count, retriesBefore + 1);
      const parents = JSON.parse((await t.ctx.db.selectFrom('revisions').select('parents').where('id', '=', outcome.revision).executeTakeFirstOrThrow()).parents);
      assert.equal(parents[0], moved, 'built on the revision that landed first');
      assert.equal(await currentRevision(t.ctx, spaceId), outcome.revision);
      assert.equal(await spaceBody(spaceId, pages.a), withLine(6, 'Six (landed first).', withLine(1, 'One (change request).')));
    });

    it('reports conflicts, changing nothing, when what landed first conflicts', async () => {
      const { spaceId, pages } = await space();
      const cr = await changeRequest(spaceId);
      await editInChangeRequest(cr.url, pages.a, withLine(2, 'Two (change request).'));
      let moved = '';
      const ctx = racingContext(reviewer(), async () => {
        moved = await editInSpace(spaceId, pages.a, withLine(2, 'Two (landed first).'));
      });
      const before = await get(cr.url);
      const outcome = await mergeChangeRequest(ctx, spaceId, cr.id, { warn: () => {} });
      assert.equal(outcome.result, 'conflicts');
      assert.equal(outcome.revision, before.revision);
      assert.equal(await currentRevision(t.ctx, spaceId), moved);
      assert.deepEqual(await get(cr.url), { ...before, outdated: true });

      // Updating while another import lands in the change request: computed again over its new head.
      const fixed = await changeRequest(spaceId);
      await editInChangeRequest(fixed.url, pages.b, withLine(1, 'One (b).'));
      await editInSpace(spaceId, pages.c, withLine(3, 'Three (c).'));
      const update = await updateChangeRequestFromSpace(
        racingContext(editor(), () => editInChangeRequest(fixed.url, pages.b, withLine(4, 'Four (b).', withLine(1, 'One (b).')))),
        spaceId,
        fixed.id,
      );
      assert.equal(update.result, 'update');
      assert.equal(await crBody(fixed.url, pages.b), withLine(4, 'Four (b).', withLine(1, 'One (b).')));
      assert.equal(await crBody(fixed.url, pages.c), withLine(3, 'Three (c).'));
      assert.equal((await get(fixed.url)).revision, update.revision);
    });

    it('of two conflicting merges fired at the same moment, one lands and the other reports conflicts', async () => {
      const { spaceId, pages } = await space();
      const first = await changeRequest(spaceId);
      const second = await changeRequest(spaceId);
      await editInChangeRequest(first.url, pages.c, withLine(5, 'Five (first).'));
      await editInChangeRequest(second.url, pages.c, withLine(5, 'Five (second).'));
      const replies = await Promise.all([first, second].map((cr) => reviewer().api.post(`${cr.url}/merge`)));
      const results = replies.map((r) => r.body.result).sort();
      assert.deepEqual(results, ['conflicts', 'merge']);
      const winner = replies.findIndex((r) => r.body.result === 'merge');
      assert.equal(await currentRevision(t.ctx, spaceId), replies[winner].body.revision);
      assert.equal(await spaceBody(spaceId, pages.c), withLine(5, winner === 0 ? 'Five (first).' : 'Five (second).'));
      const loser = [first, second][1 - winner];
      assert.equal((await get(loser.url)).status, 'draft');
      assert.equal((await get(loser.url)).outdated, true);
    });

    it('applies the role matrix: review merges, edit updates; locked spaces and archived change requests refuse', async () => {
      const { spaceId, pages } = await space();
      for (const [role, user] of cast(world)) {
        const cr = await changeRequest(spaceId);
        await editInChangeRequest(cr.url, pages.a, withLine(1, `One (${role}).`));
        await editInSpace(spaceId, pages.c, withLine(2, `Two (${role}).`));
        const update = await user.api.post(`${cr.url}/update`);
        const merge = await user.api.post(`${cr.url}/merge`);
        if (['admin', 'create', 'review'].includes(role)) {
          assert.equal(update.body.result, 'update', role);
          assert.equal(merge.body.result, 'merge', role);
        } else if (role === 'edit') {
          assert.equal(update.body.result, 'update', role);
          assertError(merge, 403, 'review level');
        } else if (['comment', 'read'].includes(role)) {
          assertError(update, 403, 'edit level');
          assertError(merge, 403, 'review level');
        } else {
          assertError(update, 404);
          assertError(merge, 404);
        }
      }
      const archived = await changeRequest(spaceId);
      await editor().api.patch(archived.url, { status: 'archived' });
      assertError(await reviewer().api.post(`${archived.url}/merge`), 409, 'archived');
      assertError(await editor().api.post(`${archived.url}/update`), 409, 'archived');
      const cr = await changeRequest(spaceId);
      await editInChangeRequest(cr.url, pages.b, withLine(3, 'Three (locked).'));
      await editInSpace(spaceId, pages.c, withLine(4, 'Four (before the lock).'));
      await world.admin.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' });
      const head = await currentRevision(t.ctx, spaceId);
      assertError(await reviewer().api.post(`${cr.url}/merge`), 423, 'locked');
      assertError(await world.admin.api.post(`${cr.url}/merge`), 423, 'locked');
      assertError(await editor().api.post(`${cr.url}/update`), 423, 'locked');
      assert.equal(await currentRevision(t.ctx, spaceId), head);
      await world.admin.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'live' });
      assert.equal((await reviewer().api.post(`/v1/spaces/${spaceId}/change-requests/${cr.number}/merge`)).body.result, 'merge');
    });
  });
}
