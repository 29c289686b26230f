import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type Reply, type TestApp } from '../helpers/app.ts';
import { commentCounters, createChangeRequestRow, editChangeRequest, type ChangeRequestFixture } from '../helpers/comment-fixtures.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { cast, type TestUser, createWorld, type World } from '../helpers/factories.ts';
import { roleAtLeast, type MemberRole } from '../../src/policy/roles.ts';

/**
 * Comments in a change request: the same operations as in a space, kept apart from the space's own
 * discussion, attached to the change request's content, with their own counter and the commenters list.
 */
for (const dialect of dialects) {
  describe(`change request comments [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageId: string;
    let cr: ChangeRequestFixture;
    let url: string;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Overview', markdown: 'Overview text\n' }]));
      pageId = (await world.admin.api.get(`/v1/spaces/${spaceId}/content`)).body.pages[0].id;
      cr = await createChangeRequestRow(t.ctx, spaceId, world.members.edit.id);
      url = `/v1/spaces/${spaceId}/change-requests/${cr.id}/comments`;
    });
    after(() => t.close());

    const post = async (user: TestUser, body: Record<string, unknown>, path = url): Promise<Reply> => {
      t.clock.advance(1000);
      const reply = await user.api.post(path, body);
      assert.equal(reply.status, 200, JSON.stringify(reply.body));
      return reply;
    };
    const text = (markdown: string) => ({ body: { markdown } });

    it('posts a comment in a change request, named by id or number; it counts for the change request, not the space', async () => {
      const before = await commentCounters(t.ctx, spaceId, cr.id);
      const byId = await post(world.members.comment, { ...text('On the change'), page: pageId });
      const head = (await t.ctx.db.selectFrom('change_requests').select('revision').where('id', '=', cr.id).executeTakeFirstOrThrow()).revision;
      assert.deepEqual(byId.body.target, {
        space: spaceId,
        revision: head,
        changeRequest: cr.id,
        page: { id: pageId, title: 'Overview', path: 'overview', outdated: false },
      });
      assert.equal(byId.body.urls.location, `http://quire.test/v1/spaces/${spaceId}/change-requests/${cr.id}/comments/${byId.body.id}`);
      const byNumber = await post(world.members.edit, text('By number'), `/v1/spaces/${spaceId}/change-requests/${cr.number}/comments`);
      assert.equal(byNumber.body.target.changeRequest, cr.id);
      assert.deepEqual(await commentCounters(t.ctx, spaceId, cr.id), { space: before.space, changeRequest: (before.changeRequest ?? 0) + 2 });
      const read = await world.members.read.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.number}/comments/${byId.body.id}`);
      assert.equal(read.status, 200);
      assert.equal(read.body.id, byId.body.id);
    });

    it('keeps the discussions apart: a change request comment is not in the space, nor in another change request', async () => {
      const other = await createChangeRequestRow(t.ctx, spaceId);
      const inCr = await post(world.members.comment, text('Only in the change request'));
      const inSpace = await post(world.members.comment, text('Only in the space'), `/v1/spaces/${spaceId}/comments`);
      const crIds = (await world.members.read.api.get(url)).body.items.map((c: { id: string }) => c.id);
      assert.ok(crIds.includes(inCr.body.id));
      assert.ok(!crIds.includes(inSpace.body.id));
      const spaceIds = (await world.members.read.api.get(`/v1/spaces/${spaceId}/comments`)).body.items.map((c: { id: string }) => c.id);
      assert.deepEqual(spaceIds, [inSpace.body.id]);
      assertError(await world.members.read.api.get(`/v1/spaces/${spaceId}/comments/${inCr.body.id}`), 404);
      assertError(await world.members.read.api.get(`/v1/spaces/${spaceId}/change-requests/${other.id}/comments/${inCr.body.id}`), 404);
      assertError(await world.members.read.api.get(`${url.replace(cr.id, 'nope')}`), 404, 'change request');
      assert.equal((await world.admin.api.delete(`/v1/spaces/${spaceId}/comments/${inCr.body.id}`)).status, 204, 'not deleted through the space');
      assert.equal((await world.members.read.api.get(`${url}/${inCr.body.id}`)).status, 200);
    });

    it('targets pages of the change request\'s content, and marks them outdated when the change request edits them', async () => {
      let added = '';
      await editChangeRequest(t.ctx, cr.id, (writer) => {
        added = writer.addPage({ type: 'document', title: 'New in the change', markdown: 'Draft\n' });
      });
      const onNew = await post(world.members.comment, { ...text('About the new page'), page: added });
      assert.deepEqual(onNew.body.target.page, { id: added, title: 'New in the change', path: 'new-in-the-change', outdated: false });
      assertError(await world.members.comment.api.post(`/v1/spaces/${spaceId}/comments`, { ...text('Not in the space yet'), page: added }), 400, 'page');
      await editChangeRequest(t.ctx, cr.id, (writer) => writer.updatePage(added, { markdown: 'Draft, rewritten\n' }));
      const after = await world.members.read.api.get(`${url}/${onNew.body.id}`);
      assert.equal(after.body.target.page.outdated, true);
      assert.equal(after.body.target.revision, onNew.body.target.revision);
    });

    it('resolves, reopens and deletes, keeping the change request\'s counter equal to its open comments', async () => {
      const a = await post(world.members.comment, text('A'));
      const b = await post(world.members.comment, text('B'));
      await world.members.edit.api.put(`${url}/${a.body.id}`, { resolved: true });
      await world.members.edit.api.put(`${url}/${a.body.id}`, { resolved: true });
      await world.members.edit.api.put(`${url}/${b.body.id}`, { resolved: true });
      await world.members.edit.api.put(`${url}/${b.body.id}`, { resolved: false });
      assert.equal((await world.members.comment.api.delete(`${url}/${a.body.id}`)).status, 205);
      const open = await t.ctx.db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('change_request_id', '=', cr.id)
        .where('status', '=', 'open')
        .executeTakeFirstOrThrow();
      const counters = await commentCounters(t.ctx, spaceId, cr.id);
      assert.equal(counters.changeRequest, Number(open.n));
      const spaceOpen = await t.ctx.db
        .selectFrom('comments')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('space_id', '=', spaceId)
        .where('change_request_id', 'is', null)
        .where('status', '=', 'open')
        .executeTakeFirstOrThrow();
      assert.equal(counters.space, Number(spaceOpen.n));
      const listed = await world.members.read.api.get(`${url}?status=resolved`);
      assert.ok(listed.body.items.every((c: { status: string }) => c.status === 'resolved'));
    });

    it('replies in a change request: post, list, get, update, delete', async () => {
      const comment = await post(world.members.comment, text('Thread'));
      const replies = `${url}/${comment.body.id}/replies`;
      const first = await post(world.members.edit, text('First reply'), replies);
      assert.equal(first.body.object, 'comment-reply');
      assert.equal(first.body.urls.location, `http://quire.test${replies}/${first.body.id}`);
      const second = await post(world.admin, text('Second reply'), `${replies}?format=markdown`);
      assert.deepEqual(second.body.body, { markdown: 'Second reply' });
      const listed = await world.members.read.api.get(`${replies}?format=markdown`);
      assert.deepEqual(listed.body.items.map((r: { body: { markdown: string } }) => r.body.markdown), ['First reply', 'Second reply']);
      assert.equal((await world.members.read.api.get(`${url}/${comment.body.id}`)).body.replies, 2);
      const edited = await world.members.edit.api.put(`${replies}/${first.body.id}`, { body: { markdown: 'First reply, edited' }, addedReactions: ['👀'] });
      assert.equal(edited.status, 200);
      assert.ok(edited.body.editedAt);
      assert.equal(edited.body.reactions[0].emoji, '👀');
      assert.equal((await world.members.read.api.get(`${replies}/${first.body.id}`)).body.reactions[0].count, 1);
      assert.equal((await world.admin.api.delete(`${replies}/${second.body.id}`)).status, 205);
      assert.equal((await world.admin.api.delete(`${replies}/${second.body.id}`)).status, 204);
      assert.equal((await world.members.read.api.get(`${url}/${comment.body.id}`)).body.replies, 1);
      assertError(await world.members.read.api.get(`${replies}/${second.body.id}`), 404);
    });

    describe('commenters', () => {
      let quiet: ChangeRequestFixture;
      let busy: ChangeRequestFixture;
      before(async () => {
        quiet = await createChangeRequestRow(t.ctx, spaceId);
        busy = await createChangeRequestRow(t.ctx, spaceId);
        const base = `/v1/spaces/${spaceId}/change-requests/${busy.id}/comments`;
        const first = await post(world.members.review, text('From review'), base);
        await post(world.members.review, text('Again from review'), base);
        await post(world.admin, text('From the admin'), base);
        await post(world.members.comment, text('A reply from comment'), `${base}/${first.body.id}/replies`);
      });

      it('lists the members who wrote a comment or a reply, once each, by name, with count and total', async () => {
        const reply = await world.members.read.api.get(`/v1/spaces/${spaceId}/change-requests/${busy.id}/commenters`);
        assert.equal(reply.status, 200, JSON.stringify(reply.body));
        assert.deepEqual(reply.body.items.map((m: { user: { displayName: string } }) => m.user.displayName), ['Ada Admin', 'comment', 'review']);
        assert.deepEqual(reply.body.items.map((m: { id: string }) => m.id), [world.admin.id, world.members.comment.id, world.members.review.id]);
        assert.equal(reply.body.items[0].object, 'member');
        assert.equal(reply.body.items[2].role, 'review');
        assert.equal(reply.body.count, 3);
        assert.equal(reply.body.total, 3);
        const empty = await world.members.read.api.get(`/v1/spaces/${spaceId}/change-requests/${quiet.number}/commenters`);
        assert.deepEqual([empty.body.items, empty.body.count, empty.body.total], [[], 0, 0]);
      });

      it('pages through commenters, and leaves out authors who are no longer members', async () => {
        const path = `/v1/spaces/${spaceId}/change-requests/${busy.id}/commenters`;
        const first = await world.members.read.api.get(`${path}?limit=2`);
        assert.equal(first.body.items.length, 2);
        const second = await world.members.read.api.get(`${path}?limit=2&page=${encodeURIComponent(first.body.next.page)}`);
        assert.deepEqual(second.body.items.map((m: { id: string }) => m.id), [world.members.review.id]);
        assert.equal(second.body.next, undefined);
        await t.ctx.db.deleteFrom('members').where('user_id', '=', world.members.comment.id).where('organization_id', '=', world.organizationId).execute();
        try {
          const after = await world.members.read.api.get(path);
          assert.deepEqual(after.body.items.map((m: { id: string }) => m.id), [world.admin.id, world.members.review.id]);
          assert.equal(after.body.total, 2);
        } finally {
          await t.ctx.db
            .insertInto('members')
            .values({ organization_id: world.organizationId, user_id: world.members.comment.id, role: 'comment', disabled: 0, sso: 0, joined_at: t.clock.now().toISOString(), last_seen_at: null })
            .execute();
        }
      });

      it('commenters and every change request comment operation follow the roles', async () => {
        const path = `/v1/spaces/${spaceId}/change-requests/${busy.id}`;
        const target = (await world.admin.api.get(`${path}/comments`)).body.items[0].id;
        for (const [name, user] of cast(world)) {
          const hidden = name === 'guest' || name === 'outsider';
          const may = (required: MemberRole) => (hidden ? 404 : roleAtLeast(name as MemberRole, required) ? 200 : 403);
          assert.equal((await user.api.get(`${path}/commenters`)).status, may('read'), `commenters as ${name}`);
          assert.equal((await user.api.get(`${path}/comments`)).status, may('read'), `list as ${name}`);
          assert.equal((await user.api.get(`${path}/comments/${target}/replies`)).status, may('read'), `replies as ${name}`);
          assert.equal((await user.api.post(`${path}/comments`, text('Hi'))).status, may('comment'), `post as ${name}`);
          assert.equal((await user.api.post(`${path}/comments/${target}/replies`, text('Hi'))).status, may('comment'), `reply as ${name}`);
          assert.equal((await user.api.put(`${path}/comments/${target}`, { addedReactions: ['👍'] })).status, may('comment'), `react as ${name}`);
          const edit = (await user.api.put(`${path}/comments/${target}`, text('Changed'))).status;
          assert.equal(edit, hidden ? 404 : name === 'admin' ? 200 : 403, `edit as ${name} (the comment is the admin's)`);
        }
      });
    });
  });
}
