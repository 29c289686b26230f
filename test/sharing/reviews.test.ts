import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { assertError, createTestApp, dialects, type TestApp } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { cast, createWorld, type TestUser, type World } from '../helpers/factories.ts';

/**
 * Reviewers, reviews with their outdatedness, and merge rules: a rule of two approvals, required reviewers
 * and teams, changes requested, outdated approvals, and the administrator's recorded bypass.
 */
for (const dialect of dialects) {
  describe(`reviews and merge rules [${dialect}]`, () => {
    let t: TestApp;
    let w: World;
    before(async () => {
      t = await createTestApp(dialect);
      w = await createWorld(t.ctx, t.app, t.clock);
    });
    after(() => t.close());

    async function setup(): Promise<{ spaceId: string; pageId: string }> {
      const { spaceId } = await createSpaceWithPages(t.ctx, w.organizationId, [{ type: 'document', title: 'A', markdown: 'One.\n' }]);
      const pages = (await w.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string }>;
      return { spaceId, pageId: pages[0].id };
    }
    async function changeRequest(spaceId: string, pageId: string, text = 'Changed.'): Promise<string> {
      t.clock.advance(1000);
      const reply = await w.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edits' });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      const url = `/v1/spaces/${spaceId}/change-requests/${reply.body.id}`;
      await edit(url, pageId, text);
      return url;
    }
    async function edit(url: string, pageId: string, markdown: string): Promise<void> {
      t.clock.advance(1000);
      const reply = await w.members.edit.api.post(`${url}/content/page/${pageId}/import`, { source: 'markdown', url: `data:text/markdown;base64,${Buffer.from(`${markdown}\n`).toString('base64')}` });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
    }
    async function review(user: TestUser, url: string, status: string, comment?: string) {
      t.clock.advance(1000);
      const reply = await user.api.post(`${url}/reviews`, { status, ...(comment ? { comment: { markdown: comment } } : {}) });
      assert.equal(reply.status, 201, JSON.stringify(reply.body));
      return reply.body;
    }

    it('asks for reviewers, takes them back, and refuses those who cannot review', async () => {
      const { spaceId, pageId } = await setup();
      const url = await changeRequest(spaceId, pageId);
      const asked = await w.members.edit.api.post(`${url}/requested-reviewers`, { users: [w.members.review.id, w.admin.id], subject: 'Please look' });
      assert.equal(asked.status, 200, JSON.stringify(asked.body));
      assert.deepEqual(asked.body.users.map((r: { user: { id: string } }) => r.user.id).sort(), [w.members.review.id, w.admin.id].sort());
      assert.equal(asked.body.users[0].requestedBy.id, w.members.edit.id);
      assert.equal((await w.members.read.api.get(url)).body.subject, 'Please look');
      const listed = await w.members.read.api.get(`${url}/requested-reviewers`);
      assert.equal(listed.status, 200, JSON.stringify(listed.body));
      assert.equal(listed.body.count, 2);
      assertError(await w.members.edit.api.post(`${url}/requested-reviewers`, { users: [w.members.read.id] }), 400, 'cannot review in this space');
      assertError(await w.members.edit.api.post(`${url}/requested-reviewers`, { users: [w.guest.id] }), 400, 'review level');
      assertError(await w.members.comment.api.post(`${url}/requested-reviewers`, { users: [w.members.review.id] }), 403);
      assertError(await w.guest.api.get(`${url}/requested-reviewers`), 404);
      assert.equal((await w.members.edit.api.delete(`${url}/requested-reviewers/${w.admin.id}`)).status, 205);
      assert.equal((await w.members.edit.api.delete(`${url}/requested-reviewers/${w.admin.id}`)).status, 204);
      assert.equal((await w.members.read.api.get(`${url}/requested-reviewers`)).body.count, 1);
    });

    it('takes reviews with comments, says which are outdated, and refuses the author and lower levels', async () => {
      const { spaceId, pageId } = await setup();
      const url = await changeRequest(spaceId, pageId);
      await w.members.edit.api.post(`${url}/requested-reviewers`, { users: [w.members.review.id] });
      const first = await review(w.members.review, url, 'changes-requested', 'Please fix the *typo*.');
      assert.equal(first.object, 'change-request-review');
      assert.equal(first.requestedBy.id, w.members.edit.id);
      assert.equal(first.comment.object, 'comment');
      assert.equal(first.outdated, false);
      for (const [name, user] of cast(w)) {
        if (['admin', 'create', 'review'].includes(name)) continue;
        assertError(await user.api.post(`${url}/reviews`, { status: 'approved' }), name === 'guest' || name === 'outsider' ? 404 : 403);
      }
      // The author cannot approve their own change request, even with the review level given on the space.
      const grant = await w.admin.api.patch(`/v1/spaces/${spaceId}/permissions/users/${w.members.edit.id}`, { role: 'review' });
      assert.equal(grant.status, 204);
      assertError(await w.members.edit.api.post(`${url}/reviews`, { status: 'approved' }), 403, 'cannot review a change request you created');
      assertError(await w.members.review.api.post(`${url}/reviews`, { status: 'maybe' }), 400, 'status');

      await edit(url, pageId, 'Fixed.');
      const second = await review(w.members.review, url, 'approved');
      const reviews = await w.members.read.api.get(`${url}/reviews?format=markdown`);
      assert.equal(reviews.status, 200, JSON.stringify(reviews.body));
      assert.deepEqual(reviews.body.items.map((r: { id: string; outdated: boolean; status: string }) => [r.id, r.status, r.outdated]), [
        [first.id, 'changes-requested', true],
        [second.id, 'approved', false],
      ]);
      assert.equal(reviews.body.items[0].comment.body.markdown, 'Please fix the *typo*.');
    });

    it('a rule of two approvals: refuses the merge naming the rule until two current approvals, and permissions.merge says so', async () => {
      const { spaceId, pageId } = await setup();
      const rules = await w.admin.api.put(`/v1/spaces/${spaceId}/merge-rules`, { minApprovals: 2, adminsCanBypass: false });
      assert.equal(rules.status, 200, JSON.stringify(rules.body));
      assert.deepEqual(rules.body, {
        object: 'merge-rules',
        spaceId,
        minApprovals: 2,
        requiredReviewers: [],
        requiredTeams: [],
        blockOnChangesRequested: true,
        requireCurrentApprovals: true,
        adminsCanBypass: false,
        updatedAt: t.clock.now().toISOString(),
      });
      assertError(await w.members.edit.api.put(`/v1/spaces/${spaceId}/merge-rules`, { minApprovals: 0 }), 403);
      assertError(await w.admin.api.put(`/v1/spaces/${spaceId}/merge-rules`, { minApprovals: 99 }), 400, 'minApprovals');
      assertError(await w.admin.api.put(`/v1/spaces/${spaceId}/merge-rules`, { requiredReviewers: [w.outsider.id] }), 400, 'not members');
      assert.equal((await w.members.read.api.get(`/v1/spaces/${spaceId}/merge-rules`)).body.minApprovals, 2);

      const url = await changeRequest(spaceId, pageId);
      assert.equal((await w.members.review.api.get(url)).body.permissions.merge, false);
      assertError(await w.members.review.api.post(`${url}/merge`), 403, 'rule "min-approvals": it needs 2 approvals and has 0');
      assertError(await w.admin.api.post(`${url}/merge`), 403, 'min-approvals');
      await review(w.members.review, url, 'approved');
      await review(w.members.create, url, 'approved');
      assert.equal((await w.members.review.api.get(url)).body.permissions.merge, true);
      // A change after the approvals makes them outdated: they no longer count.
      await edit(url, pageId, 'Changed again.');
      assert.equal((await w.members.review.api.get(url)).body.permissions.merge, false);
      assertError(await w.members.review.api.post(`${url}/merge`), 403, 'no longer counts');
      await review(w.members.review, url, 'approved');
      await review(w.members.create, url, 'changes-requested');
      assertError(await w.members.review.api.post(`${url}/merge`), 403, 'rule "changes-requested"');
      await review(w.members.create, url, 'approved');
      const merged = await w.members.review.api.post(`${url}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      assert.equal(merged.body.result, 'merge');
    });

    it('required reviewers and teams, and an administrator bypass that is recorded', async () => {
      const { spaceId, pageId } = await setup();
      t.clock.advance(1000);
      const team = await w.admin.api.put(`/v1/orgs/${w.organizationId}/teams`, { title: 'Docs leads', members: [w.members.create.id] });
      const rules = await w.admin.api.put(`/v1/spaces/${spaceId}/merge-rules`, { requiredReviewers: [w.members.review.id], requiredTeams: [team.body.id] });
      assert.equal(rules.status, 200, JSON.stringify(rules.body));
      const url = await changeRequest(spaceId, pageId);
      const refused = await w.members.review.api.post(`${url}/merge`);
      assertError(refused, 403, `rule "required-reviewers": it needs the approval of "${w.members.review.id}"`);
      assert.match(refused.body.error.message, /rule "required-teams"/);
      await review(w.members.review, url, 'approved');
      assertError(await w.members.review.api.post(`${url}/merge`), 403, 'required-teams');
      assert.equal((await w.admin.api.get(url)).body.permissions.merge, true, 'administrators may bypass');
      const merged = await w.admin.api.post(`${url}/merge`);
      assert.equal(merged.status, 200, JSON.stringify(merged.body));
      const bypasses = await t.ctx.db.selectFrom('merge_rule_bypasses').selectAll().where('space_id', '=', spaceId).execute();
      assert.equal(bypasses.length, 1);
      assert.equal(bypasses[0].user_id, w.admin.id);
      assert.deepEqual(JSON.parse(bypasses[0].rules), ['required-teams']);
      assertError(await w.members.review.api.post(`${url}/reviews`, { status: 'approved' }), 409, 'merged');
    });
  });
}
