import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ChangeRequestReviewStatus, GitBookAPI } from '@gitbook/api';
import { createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';

/** The public client, over real HTTP, asks for reviewers, reviews, and merges under a rule of one approval. */
for (const dialect of dialects) {
  describe(`the public client against Quire: reviews [${dialect}]`, () => {
    let t: TestApp;
    let w: World;
    let editor: GitBookAPI;
    let reviewer: GitBookAPI;
    before(async () => {
      t = await createTestApp(dialect);
      w = await createWorld(t.ctx, t.app, t.clock);
      const address = await t.app.listen({ host: '127.0.0.1', port: 0 });
      editor = new GitBookAPI({ endpoint: address, authToken: w.members.edit.token });
      reviewer = new GitBookAPI({ endpoint: address, authToken: w.members.review.token });
    });
    after(() => t.close());

    it('requests, lists and removes reviewers; submits and lists reviews; merges once approved', async () => {
      const { spaceId } = await createSpaceWithPages(t.ctx, w.organizationId, [{ type: 'document', title: 'A', markdown: 'One.\n' }]);
      const rules = await w.admin.api.put(`/v1/spaces/${spaceId}/merge-rules`, { minApprovals: 1 });
      assert.equal(rules.status, 200);
      const cr = await editor.spaces.createChangeRequest(spaceId, { subject: 'Tidy' });
      const asked = await editor.spaces.requestReviewersForChangeRequest(spaceId, cr.data.id, { users: [w.members.review.id, w.admin.id] });
      assert.equal(asked.data.users?.length, 2);
      const listed = await editor.spaces.getRequestedReviewersByChangeRequestId(spaceId, cr.data.id);
      assert.equal(listed.data.count, 2);
      assert.equal((await editor.spaces.removeRequestedReviewerFromChangeRequest(spaceId, cr.data.id, w.admin.id)).status, 205);
      await assert.rejects(reviewer.spaces.mergeChangeRequest(spaceId, cr.data.id), /min-approvals/);
      const review = await reviewer.spaces.submitChangeRequestReview(spaceId, cr.data.id, { status: ChangeRequestReviewStatus.Approved, comment: { markdown: 'Looks good.' } });
      assert.equal(review.status, 201);
      assert.equal(review.data.status, 'approved');
      const reviews = await editor.spaces.getReviewsByChangeRequestId(spaceId, cr.data.id, { format: 'markdown' });
      assert.deepEqual(reviews.data.items.map((item) => item.id), [review.data.id]);
      const merged = await reviewer.spaces.mergeChangeRequest(spaceId, cr.data.id);
      assert.equal(merged.data.result, 'merge');
    });
  });
}
