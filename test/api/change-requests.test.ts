import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpace, createSpaceWithPages, currentRevision } from '../helpers/content-factory.ts';
import { cast, createWorld, type TestUser, type World } from '../helpers/factories.ts';
import { dataUrl } from '../imports/helpers.ts';

/** Create, list, get and patch change requests: statuses, numbers, counters, roles, locked spaces. */
for (const dialect of dialects) {
  describe(`change requests [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    const editor = () => world.members.edit;
    const create = (spaceId: string, body: unknown = {}, user: TestUser = editor()) => user.api.post(`/v1/spaces/${spaceId}/change-requests`, body);
    const counters = async (spaceId: string) => {
      const space = (await world.admin.api.get(`/v1/spaces/${spaceId}`)).body;
      return { all: space.changeRequests, open: space.changeRequestsOpen, draft: space.changeRequestsDraft };
    };

    it('creates a draft from the space\'s current revision, copying no content', async () => {
      const { spaceId, revisionId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Intro', markdown: 'Hello.\n' }]);
      const objectsBefore = Number((await t.ctx.db.selectFrom('content_objects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      t.clock.advance(1000);
      const reply = await create(spaceId, { subject: 'Rewrite the intro', agentTaskId: 'task-42' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const cr = reply.body;
      assert.equal(reply.headers.location, `http://quire.test/v1/spaces/${spaceId}/change-requests/${cr.id}`);
      assert.equal(cr.object, 'change-request');
      assert.equal(cr.number, 1);
      assert.equal(cr.status, 'draft');
      assert.equal(cr.subject, 'Rewrite the intro');
      assert.equal(cr.revisionInitial, revisionId);
      assert.equal(cr.revisionMergedAncestor, revisionId);
      assert.notEqual(cr.revision, revisionId, 'the change request has its own head');
      assert.equal(cr.revisionMerged, undefined);
      assert.equal(cr.outdated, false);
      assert.equal(cr.comments, 0);
      assert.equal(cr.createdBy.id, editor().id);
      assert.equal(cr.createdAt, '2026-03-01T09:00:' + cr.createdAt.slice(17));
      assert.deepEqual(cr.urls, { location: `http://quire.test/v1/spaces/${spaceId}/change-requests/${cr.id}`, app: `http://quire.test/v1/spaces/${spaceId}/change-requests/${cr.id}` });
      const stored = await t.ctx.db.selectFrom('change_requests').select(['agent_task_id']).where('id', '=', cr.id).executeTakeFirstOrThrow();
      assert.equal(stored.agent_task_id, 'task-42');
      // One revision row over the same root; no content object written.
      const head = await t.ctx.db.selectFrom('revisions').select(['root', 'parents']).where('id', '=', cr.revision).executeTakeFirstOrThrow();
      const initial = await t.ctx.db.selectFrom('revisions').select('root').where('id', '=', revisionId).executeTakeFirstOrThrow();
      assert.equal(head.root, initial.root);
      assert.deepEqual(JSON.parse(head.parents), [revisionId]);
      const objectsAfter = Number((await t.ctx.db.selectFrom('content_objects').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
      assert.equal(objectsAfter, objectsBefore);
      assert.equal(await currentRevision(t.ctx, spaceId), revisionId, 'the space does not move');
      assert.deepEqual(await counters(spaceId), { all: 1, open: 0, draft: 1 });
    });

    it('numbers change requests per space, counting up, never reused; reads them by id or number', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const other = await createSpace(t.ctx, world.organizationId);
      const first = (await create(spaceId)).body;
      const second = (await create(spaceId, { subject: '' })).body;
      const elsewhere = (await create(other)).body;
      assert.deepEqual([first.number, second.number, elsewhere.number], [1, 2, 1]);
      assert.equal(first.subject, '');
      const parallel = await Promise.all([1, 2, 3, 4, 5].map(() => create(spaceId)));
      assert.deepEqual(parallel.map((r) => r.status), [201, 201, 201, 201, 201]);
      assert.deepEqual(parallel.map((r) => r.body.number).sort((a, b) => a - b), [3, 4, 5, 6, 7]);
      const byNumber = await editor().api.get(`/v1/spaces/${spaceId}/change-requests/2`);
      assert.equal(byNumber.body.id, second.id);
      const byId = await world.members.read.api.get(`/v1/spaces/${spaceId}/change-requests/${second.id}`);
      assert.equal(byId.body.number, 2);
      assertError(await editor().api.get(`/v1/spaces/${spaceId}/change-requests/99`), 404);
      assertError(await editor().api.get(`/v1/spaces/${other}/change-requests/${second.id}`), 404, 'no change request');
      assert.deepEqual(await counters(spaceId), { all: 7, open: 0, draft: 7 });
    });

    it('validates the body', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      assertError(await create(spaceId, { subject: 'x'.repeat(101) }), 400, 'subject');
      assertError(await create(spaceId, { subject: 12 }), 400, 'subject');
      assertError(await create(spaceId, { status: 'open' }), 400, 'status');
      assert.equal((await create(spaceId, { subject: 'x'.repeat(100) })).status, 201);
      const cr = (await create(spaceId)).body;
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
      assertError(await editor().api.patch(url, { subject: 'y'.repeat(101) }), 400, 'subject');
      assertError(await editor().api.patch(url, { status: 'merged' }), 400, 'status');
      assertError(await editor().api.patch(url, { status: 'closed' }), 400, 'status');
      assertError(await editor().api.patch(url, { revision: 'x' }), 400, 'revision');
      assertError(await editor().api.get(`/v1/spaces/${spaceId}/change-requests?status=closed`), 400, 'status');
      assertError(await editor().api.get(`/v1/spaces/${spaceId}/change-requests?limit=1001`), 400, 'limit');
    });

    it('moves between statuses only as allowed, keeping the space\'s counters right', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const cr = (await create(spaceId, { subject: 'Statuses' })).body;
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
      const patch = async (body: unknown) => {
        t.clock.advance(1000);
        const reply = await editor().api.patch(url, body);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        return reply.body;
      };
      assert.deepEqual(await counters(spaceId), { all: 1, open: 0, draft: 1 });
      const opened = await patch({ status: 'open' });
      assert.equal(opened.status, 'open');
      assert.ok(opened.updatedAt > cr.updatedAt);
      assert.deepEqual(await counters(spaceId), { all: 1, open: 1, draft: 0 });
      assert.equal((await patch({ status: 'draft' })).status, 'draft');
      assert.deepEqual(await counters(spaceId), { all: 1, open: 0, draft: 1 });
      assert.equal((await patch({ status: 'archived' })).status, 'archived');
      assert.deepEqual(await counters(spaceId), { all: 1, open: 0, draft: 0 });
      assert.equal((await patch({ status: 'open' })).status, 'open');
      assert.equal((await patch({ status: 'archived' })).status, 'archived');
      assert.equal((await patch({ status: 'draft' })).status, 'draft');
      assert.deepEqual(await counters(spaceId), { all: 1, open: 0, draft: 1 });
      const renamed = await patch({ subject: 'New subject', status: 'open' });
      assert.deepEqual([renamed.subject, renamed.status], ['New subject', 'open']);
      assert.deepEqual(await counters(spaceId), { all: 1, open: 1, draft: 0 });
      // An unchanged body changes nothing, not even updatedAt.
      const same = await patch({ subject: 'New subject', status: 'open' });
      assert.equal(same.updatedAt, renamed.updatedAt);
      assert.equal((await patch({})).updatedAt, renamed.updatedAt);
      assert.deepEqual(await counters(spaceId), { all: 1, open: 1, draft: 0 });
    });

    it('keeps the counters equal to the rows through changes made at the same moment', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const made = await Promise.all([0, 1, 2, 3, 4, 5].map(() => create(spaceId)));
      const moves = ['open', 'archived', 'open', 'draft', 'archived', 'open'];
      const replies = await Promise.all(made.flatMap((reply, i) => [
        editor().api.patch(`/v1/spaces/${spaceId}/change-requests/${reply.body.id}`, { status: moves[i] }),
        editor().api.patch(`/v1/spaces/${spaceId}/change-requests/${reply.body.id}`, { status: moves[(i + 1) % moves.length] }),
      ]));
      assert.ok(replies.every((reply) => reply.status === 200 || reply.status === 409), JSON.stringify(replies.map((r) => r.status)));
      const rows = await t.ctx.db.selectFrom('change_requests').select('status').where('space_id', '=', spaceId).execute();
      const expected = { all: rows.length, open: rows.filter((r) => r.status === 'open').length, draft: rows.filter((r) => r.status === 'draft').length };
      assert.deepEqual(await counters(spaceId), expected);
    });

    it('lists by status (open by default), newest first, by contributor, in pages', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const made: Array<{ id: string; number: number }> = [];
      for (let i = 0; i < 5; i++) {
        t.clock.advance(1000);
        made.push((await create(spaceId, { subject: `CR ${i}` }, i === 4 ? world.members.review : editor())).body);
      }
      for (const cr of made.slice(0, 3)) await editor().api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { status: 'open' });
      await editor().api.patch(`/v1/spaces/${spaceId}/change-requests/${made[3].id}`, { status: 'archived' });
      const list = (query = '') => world.members.read.api.get(`/v1/spaces/${spaceId}/change-requests${query}`);
      const open = await list();
      assert.equal(open.status, 200);
      assert.equal(open.body.count, 3);
      assert.deepEqual(open.body.items.map((cr: { number: number }) => cr.number), [3, 2, 1]);
      assert.deepEqual((await list('?status=draft')).body.items.map((cr: { number: number }) => cr.number), [5]);
      assert.deepEqual((await list('?status=archived')).body.items.map((cr: { number: number }) => cr.number), [4]);
      assert.equal((await list('?status=merged')).body.count, 0);
      // contributor: the change requests a user created (or wrote content to).
      assert.deepEqual((await list(`?status=draft&contributor=${world.members.review.id}`)).body.items.map((cr: { number: number }) => cr.number), [5]);
      assert.equal((await list(`?contributor=${world.members.review.id}`)).body.count, 0);
      assert.equal((await list(`?contributor=${editor().id}`)).body.count, 3);
      await world.members.review.api.post(`/v1/spaces/${spaceId}/change-requests/${made[0].id}/content/import`, { source: 'markdown', url: dataUrl('text/markdown', '# Added\n') });
      assert.deepEqual((await list(`?contributor=${world.members.review.id}`)).body.items.map((cr: { number: number }) => cr.number), [1]);
      assert.equal((await list('?contributor=nobody')).body.count, 0);
      // Pages of 2, walked with the cursor; a cursor from another filter is refused.
      const first = await list('?limit=2');
      assert.deepEqual(first.body.items.map((cr: { number: number }) => cr.number), [3, 2]);
      assert.equal(first.body.count, 3);
      const second = await list(`?limit=2&page=${encodeURIComponent(first.body.next.page)}`);
      assert.deepEqual(second.body.items.map((cr: { number: number }) => cr.number), [1]);
      assert.equal(second.body.next, undefined);
      assertError(await list(`?status=draft&page=${encodeURIComponent(first.body.next.page)}`), 400, 'cursor');
    });

    it('applies the role matrix: edit creates and patches, read and comment read, guests and outsiders see nothing', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const cr = (await create(spaceId)).body;
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.id}`;
      for (const [role, user] of cast(world)) {
        const created = await create(spaceId, {}, user);
        const read = await user.api.get(url);
        const listed = await user.api.get(`/v1/spaces/${spaceId}/change-requests?status=draft`);
        const patched = await user.api.patch(url, { subject: `By ${role}` });
        if (['admin', 'create', 'review', 'edit'].includes(role)) {
          assert.equal(created.status, 201, role);
          assert.equal(read.status, 200, role);
          assert.equal(listed.status, 200, role);
          assert.equal(patched.status, 200, role);
        } else if (['comment', 'read'].includes(role)) {
          assertError(created, 403, 'edit level');
          assert.equal(read.status, 200, role);
          assert.equal(listed.status, 200, role);
          assertError(patched, 403, 'edit level');
        } else {
          assertError(created, 404);
          assertError(read, 404);
          assertError(listed, 404);
          assertError(patched, 404);
        }
      }
      // A space whose default level is "none": only administrators see its change requests.
      const hidden = await createSpace(t.ctx, world.organizationId, { defaultLevel: 'none' });
      const hiddenCr = (await create(hidden, {}, world.admin)).body;
      assertError(await editor().api.get(`/v1/spaces/${hidden}/change-requests/${hiddenCr.id}`), 404);
      // A public space can be read by anyone with a token, but not changed.
      const open = await createSpace(t.ctx, world.organizationId, { visibility: 'public' });
      const openCr = (await create(open)).body;
      assert.equal((await world.outsider.api.get(`/v1/spaces/${open}/change-requests/${openCr.id}`)).status, 200);
      assertError(await world.outsider.api.patch(`/v1/spaces/${open}/change-requests/${openCr.id}`, { status: 'open' }), 403);
      assertError(await create(open, {}, world.outsider), 403);
      assertError(await create('nope'), 404);
      assertError(await t.app.inject({ method: 'GET', url: `/v1/spaces/${spaceId}/change-requests` }).then((r) => ({ status: r.statusCode, body: JSON.parse(r.body), headers: r.headers })), 401);
    });

    it('refuses new change requests in a locked space, and still lets them be read and renamed', async () => {
      const spaceId = await createSpace(t.ctx, world.organizationId);
      const cr = (await create(spaceId)).body;
      await world.admin.api.patch(`/v1/spaces/${spaceId}`, { editMode: 'locked' });
      assertError(await create(spaceId), 423, 'locked');
      assertError(await create(spaceId, {}, world.admin), 423, 'locked');
      assert.equal((await editor().api.get(`/v1/spaces/${spaceId}/change-requests/${cr.id}`)).status, 200);
      assert.equal((await editor().api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.id}`, { subject: 'Still fine', status: 'open' })).status, 200);
      assert.deepEqual(await counters(spaceId), { all: 1, open: 1, draft: 0 });
    });
  });
}
