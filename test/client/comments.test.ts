import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { GitBookAPI } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createChangeRequestRow, type ChangeRequestFixture } from '../helpers/comment-fixtures.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/**
 * The public client, over real HTTP, holds a discussion in a space and in a change request as members of
 * different roles: comments, replies, reactions, resolution, deletion, and the refusals a reader gets.
 * Every answer is validated against the client's document by the test app.
 */
for (const dialect of dialects) {
  describe(`the public client against Quire: comments [${dialect}]`, () => {
    let t: TestApp;
    let world: World;
    let spaceId: string;
    let pageId: string;
    let cr: ChangeRequestFixture;
    const as: Record<'admin' | 'edit' | 'comment' | 'read', GitBookAPI> = {} as never;
    before(async () => {
      t = await createTestApp(dialect);
      world = await createWorld(t.ctx, t.app, t.clock);
      ({ spaceId } = await createSpaceWithPages(t.ctx, world.organizationId, [{ type: 'document', title: 'Getting started', markdown: 'Install, then run.\n' }]));
      cr = await createChangeRequestRow(t.ctx, spaceId, world.members.edit.id);
      const endpoint = await t.app.listen({ host: '127.0.0.1', port: 0 });
      for (const role of ['admin', 'edit', 'comment', 'read'] as const) as[role] = new GitBookAPI({ endpoint, authToken: world.members[role].token });
      pageId = (await as.read.spaces.listPages(spaceId)).data.pages[0].id;
    });
    after(() => t.close());

    it('comments on a page, replies, reacts, resolves and deletes in a space', async () => {
      const posted = await as.comment.spaces.postCommentInSpace(spaceId, { body: { markdown: 'Should this say **how** to run it?' }, page: pageId });
      assert.equal(posted.status, 200);
      const comment = posted.data;
      assert.equal(comment.status, 'open');
      assert.equal(comment.target.page?.title, 'Getting started');
      assert.equal(comment.target.page?.outdated, false);
      assert.equal(comment.permissions.edit, true);

      const listed = await as.read.spaces.listCommentsInSpace(spaceId, { status: 'open', format: 'markdown', authors: [world.members.comment.id], targetPage: pageId });
      assert.deepEqual(listed.data.items.map((c) => c.body), [{ markdown: 'Should this say **how** to run it?' }]);
      assert.equal(listed.data.items[0].permissions.reply, false, 'a reader may not reply');

      const reply = await as.edit.spaces.postCommentReplyInSpace(spaceId, comment.id, { body: { markdown: 'Yes, with `quire serve`.' } });
      assert.equal(reply.data.object, 'comment-reply');
      const replies = await as.read.spaces.listCommentRepliesInSpace(spaceId, comment.id, { format: 'markdown' });
      assert.deepEqual(replies.data.items.map((r) => r.id), [reply.data.id]);
      const edited = await as.edit.spaces.updateCommentReplyInSpace(spaceId, comment.id, reply.data.id, { body: { markdown: 'Yes: `bin/quire serve`.' } });
      assert.ok(edited.data.editedAt);
      const gotReply = await as.read.spaces.getCommentReplyInSpace(spaceId, comment.id, reply.data.id, { format: 'markdown' });
      assert.deepEqual(gotReply.data.body, { markdown: 'Yes: `bin/quire serve`.' });

      const reacted = await as.edit.spaces.updateCommentInSpace(spaceId, comment.id, { addedReactions: ['👍'] });
      await as.admin.spaces.updateCommentInSpace(spaceId, comment.id, { addedReactions: ['👍', '🎉'] });
      assert.equal(reacted.data.reactions[0].users[0].user.id, world.members.edit.id);
      const resolved = await as.comment.spaces.updateCommentInSpace(spaceId, comment.id, { resolved: true });
      assert.equal(resolved.data.status, 'resolved');
      assert.equal(resolved.data.status === 'resolved' ? resolved.data.resolvedBy.id : '', world.members.comment.id);
      assert.deepEqual(resolved.data.reactions.map((r) => [r.emoji, r.count]), [['🎉', 1], ['👍', 2]]);
      assert.equal(resolved.data.replies, 1);
      const space = await as.read.spaces.getSpaceById(spaceId);
      assert.equal(space.data.comments, 0, 'the resolved comment is not counted as open');

      await assert.rejects(as.read.spaces.postCommentInSpace(spaceId, { body: { markdown: 'May I?' } }), /comment level/);
      await assert.rejects(as.read.spaces.updateCommentInSpace(spaceId, comment.id, { addedReactions: ['👎'] }), /comment level/);
      await assert.rejects(as.edit.spaces.updateCommentInSpace(spaceId, comment.id, { body: { markdown: 'Not mine' } }), /author/);
      await assert.rejects(as.read.spaces.deleteCommentInSpace(spaceId, comment.id), /delete/);
      await assert.rejects(as.comment.spaces.postCommentInSpace(spaceId, { body: { markdown: '' } }), /body\.markdown/);

      assert.equal((await as.admin.spaces.deleteCommentReplyInSpace(spaceId, comment.id, reply.data.id)).status, 205);
      assert.equal((await as.comment.spaces.deleteCommentInSpace(spaceId, comment.id)).status, 205);
      assert.equal((await as.comment.spaces.deleteCommentInSpace(spaceId, comment.id)).status, 204);
      await assert.rejects(as.read.spaces.getCommentInSpace(spaceId, comment.id), /No comment/);
    });

    it('discusses a change request, and lists who took part', async () => {
      const number = String(cr.number);
      const posted = await as.comment.spaces.postCommentInChangeRequest(spaceId, number, { body: { document: { object: 'document', data: {}, nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Looks good.', marks: [] }] }] }] } } });
      assert.equal(posted.data.target.changeRequest, cr.id);
      const reply = await as.admin.spaces.postCommentReplyInChangeRequest(spaceId, cr.id, posted.data.id, { body: { markdown: 'Agreed.' } }, { format: 'markdown' });
      assert.deepEqual(reply.data.body, { markdown: 'Agreed.' });
      const got = await as.read.spaces.getCommentInChangeRequest(spaceId, cr.id, posted.data.id, { format: 'markdown' });
      assert.deepEqual(got.data.body, { markdown: 'Looks good.' });
      assert.equal(got.data.replies, 1);
      const listed = await as.read.spaces.listCommentsInChangeRequest(spaceId, cr.id, { order: 'asc', status: 'all' });
      assert.deepEqual(listed.data.items.map((c) => c.id), [posted.data.id]);
      const replies = await as.read.spaces.listCommentRepliesInChangeRequest(spaceId, cr.id, posted.data.id);
      assert.equal(replies.data.count, 1);
      const reacted = await as.edit.spaces.updateCommentReplyInChangeRequest(spaceId, cr.id, posted.data.id, reply.data.id, { addedReactions: ['🚀'] });
      assert.equal(reacted.data.reactions[0].count, 1);
      const fetched = await as.read.spaces.getCommentReplyInChangeRequest(spaceId, cr.id, posted.data.id, reply.data.id);
      assert.equal(fetched.data.reactions[0].users[0].user.id, world.members.edit.id);
      const resolved = await as.edit.spaces.updateCommentInChangeRequest(spaceId, cr.id, posted.data.id, { resolved: true });
      assert.equal(resolved.data.status, 'resolved');

      const commenters = await as.read.spaces.listCommentersInChangeRequest(spaceId, cr.id);
      assert.deepEqual(commenters.data.items.map((m) => m.id).sort(), [world.admin.id, world.members.comment.id].sort());
      assert.equal(commenters.data.count, 2);

      await assert.rejects(as.read.spaces.postCommentReplyInChangeRequest(spaceId, cr.id, posted.data.id, { body: { markdown: 'Me too' } }), /comment level/);
      assert.equal((await as.admin.spaces.deleteCommentReplyInChangeRequest(spaceId, cr.id, posted.data.id, reply.data.id)).status, 205);
      assert.equal((await as.admin.spaces.deleteCommentInChangeRequest(spaceId, cr.id, posted.data.id)).status, 205);
      assert.equal((await as.read.spaces.listCommentsInChangeRequest(spaceId, cr.id)).data.count, 0);
    });
  });
}
