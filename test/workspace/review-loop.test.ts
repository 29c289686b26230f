import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { dialects } from '../helpers/app.ts';
import { needs } from '../helpers/system.ts';
import { assertAccessible, assertKeyboardReachable, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Reviewing in Chromium: the author asks a second person for a review; that person comments, the author
 * answers and resolves the thread, the reviewer approves, and the change request merges under the space's
 * rule of one approval; then a comment on the published page. Every screen on the way is checked with axe
 * (light and dark) and walked with Tab (every control reached, its focus visible).
 */
const skip = needs('chromium');

const MARKDOWN = '# Install\n\nRun the installer, then sign in.\n\n* one\n* two\n';

for (const dialect of dialects) {
  describe(`reviewing and commenting in the workspace [${dialect}]`, { skip }, () => {
    let h: WorkspaceHarness;
    let spaceId = '';
    let changeRequestId = '';
    let pageId = '';

    before(async () => {
      h = await startWorkspace(dialect);
      const { admin } = h.world;
      const space = await admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Guides' });
      assert.equal(space.status, 201, JSON.stringify(space.body));
      spaceId = space.body.id;
      const rules = await admin.api.put(`/v1/spaces/${spaceId}/merge-rules`, { minApprovals: 1 });
      assert.equal(rules.status, 200, JSON.stringify(rules.body));
      const changeRequest = await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Install guide' });
      assert.equal(changeRequest.status, 201, JSON.stringify(changeRequest.body));
      changeRequestId = changeRequest.body.id;
      const page = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`, {
        title: 'Installing',
        document: parseMarkdown(MARKDOWN, {}).document,
      });
      assert.equal(page.status, 201, JSON.stringify(page.body));
      pageId = page.body.id;
    });
    after(() => h?.close());

    it('asks for a review; the reviewer comments, the author answers and resolves; one approval, then the merge', async () => {
      const { world, base } = h;
      const reviewer = world.members.review;
      const reviewerName = (await reviewer.api.get('/v1/user')).body.displayName as string;
      const adminName = (await world.admin.api.get('/v1/user')).body.displayName as string;
      const review = `${base}/o/${world.organizationId}/s/${spaceId}/cr/${changeRequestId}/review`;

      // The author: ready for review, a review asked of the second person, a word in the discussion.
      const author = await h.signedIn(world.admin);
      await author.page.goto(review);
      await author.page.getByRole('heading', { name: 'Changed pages' }).waitFor();
      await author.page.getByText('No open comments on this change request.').waitFor();
      await author.page.getByRole('button', { name: 'Mark ready for review' }).click();
      await author.page.getByLabel('Ask for a review from').selectOption({ label: reviewerName });
      await author.page.getByRole('button', { name: 'Request review' }).click();
      await author.page.getByText(`Review asked of: ${reviewerName}`).waitFor();
      const asked = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/requested-reviewers`);
      assert.deepEqual(asked.body.items.map((entry: { user: { id: string } }) => entry.user.id), [reviewer.id]);
      await author.page.getByLabel('New comment').fill('Is the order of the steps right?');
      // Ctrl+Enter sends, as the button does.
      await author.page.getByLabel('New comment').press('Control+Enter');
      await author.page.locator('.comment', { hasText: 'Is the order of the steps right?' }).waitFor();
      assert.equal(await author.page.getByLabel('New comment').inputValue(), '');

      // Quire's clock in tests stands still unless moved: the reviewer writes a moment later.
      h.t.clock.advance(60_000);
      // The reviewer: reads the question, replies, adds a comment of their own, approves.
      const second = await h.signedIn(reviewer);
      await second.page.goto(review);
      const question = second.page.locator('.comment', { hasText: 'Is the order of the steps right?' });
      await question.getByRole('button', { name: 'Reply' }).click();
      await second.page.getByLabel(`Reply to ${adminName}`).fill('Yes: install first, then sign in.');
      await second.page.getByRole('button', { name: 'Reply', exact: true }).last().click();
      await question.getByRole('button', { name: '1 reply' }).waitFor();
      await question.getByText('Yes: install first, then sign in.').waitFor();
      await question.getByRole('button', { name: 'React with 👍', exact: true }).click();
      await question.getByRole('button', { name: 'React with 👍 1', pressed: true }).waitFor();
      await second.page.getByLabel('New comment').fill('A screenshot of the installer would help.');
      await second.page.getByRole('button', { name: 'Comment', exact: true }).click();
      await second.page.locator('.comment', { hasText: 'A screenshot of the installer would help.' }).waitFor();
      await assertAccessible(second.page, 'a change request with comments');
      await assertKeyboardReachable(second.page, 'a change request with comments');
      await h.shot(second.page, 'comments');
      await second.page.getByRole('button', { name: 'Approve' }).click();
      await second.page.getByText(`${reviewerName}: approved`).waitFor();
      await second.context.close();

      // Through the API: the threads as the panel showed them.
      const threads = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments?order=asc&format=markdown`);
      assert.equal(threads.status, 200, JSON.stringify(threads.body));
      assert.deepEqual(
        threads.body.items.map((c: { postedBy: { id: string }; body: { markdown: string }; replies: number; status: string }) => [c.postedBy.id, c.body.markdown.trim(), c.replies, c.status]),
        [
          [world.admin.id, 'Is the order of the steps right?', 1, 'open'],
          [reviewer.id, 'A screenshot of the installer would help.', 0, 'open'],
        ],
      );

      // The author: reads the reply, resolves both threads, finds them under Resolved, and merges.
      await author.page.reload();
      await author.page.getByText(`${reviewerName}: approved`).waitFor();
      const mine = author.page.locator('.comment', { hasText: 'Is the order of the steps right?' });
      await mine.getByRole('button', { name: '1 reply' }).click();
      await mine.getByText('Yes: install first, then sign in.').waitFor();
      await mine.getByRole('button', { name: 'Resolve', exact: true }).click();
      await mine.waitFor({ state: 'detached' });
      const comments = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments`;
      const screenshot = 'A screenshot of the installer would help.';
      const theirs = author.page.locator('.comment', { hasText: screenshot });
      // A reaction, pressed and counted, as the API then has it; pressed again, it is taken back.
      await theirs.getByRole('button', { name: 'React with 👍', exact: true }).click();
      await theirs.getByRole('button', { name: 'React with 👍 1', pressed: true }).waitFor();
      const reactionsOf = async () => ((await world.admin.api.get(`${comments}?status=open&format=markdown`)).body.items as Array<{ body: { markdown: string }; reactions: Array<{ emoji: string; count: number }> }>).find((item) => item.body.markdown.includes(screenshot))!.reactions;
      assert.deepEqual((await reactionsOf()).map(({ emoji, count }) => [emoji, count]), [['👍', 1]]);
      await theirs.getByRole('button', { name: 'React with 👍 1', pressed: true }).click();
      await theirs.getByRole('button', { name: 'React with 👍', exact: true, pressed: false }).waitFor();
      assert.deepEqual(await reactionsOf(), []);
      await theirs.getByRole('button', { name: 'Resolve', exact: true }).click();
      await author.page.getByText('No open comments on this change request.').waitFor();
      await author.page.getByRole('button', { name: 'Resolved', pressed: false }).click();
      await author.page.locator('.comment-resolved', { hasText: 'Is the order of the steps right?' }).waitFor();
      await author.page.locator('.comment-resolved', { hasText: `resolved by ${adminName}` }).first().waitFor();
      // Reopened, a thread is open again (for the API too); resolved again before the merge.
      await author.page.locator('.comment-resolved', { hasText: screenshot }).getByRole('button', { name: 'Reopen' }).click();
      await author.page.locator('.comment-resolved', { hasText: screenshot }).waitFor({ state: 'detached' });
      assert.equal((await world.admin.api.get(`${comments}?status=open`)).body.items.length, 1);
      await author.page.getByRole('button', { name: 'Open', exact: true, pressed: false }).click();
      await author.page.locator('.comment', { hasText: screenshot }).getByRole('button', { name: 'Resolve', exact: true }).click();
      await author.page.getByText('No open comments on this change request.').waitFor();
      const open = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments?status=open`);
      assert.equal(open.body.items.length, 0);

      const merge = author.page.getByRole('button', { name: 'Merge into the space' });
      await author.page.getByText('Everything the space asks for is there').waitFor();
      await merge.click();
      await author.page.waitForURL(new RegExp(`/s/${spaceId}$`));
      await author.page.getByRole('heading', { name: 'Installing' }).waitFor();
      assert.equal((await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`)).body.status, 'merged');

      // A comment about the page, in the space's own discussion.
      await author.page.getByText('No open comments on this page.').waitFor();
      await author.page.getByLabel('Comment on this page').fill('Published: thanks for the review.');
      await author.page.getByRole('button', { name: 'Comment', exact: true }).click();
      await author.page.locator('.comment', { hasText: 'Published: thanks for the review.' }).waitFor();
      const about = await world.admin.api.get(`/v1/spaces/${spaceId}/comments?targetPage=${pageId}`);
      assert.equal(about.body.items.length, 1);
      assert.equal(about.body.items[0].target.page.id, pageId);
      await assertAccessible(author.page, 'a space page with comments');
      await assertKeyboardReachable(author.page, 'a space page with comments');
      await h.shot(author.page, 'page-comments');
      await author.context.close();
      assert.deepEqual(h.problems, []);
    });

    it('shows a reader the discussion without a box to write in', async () => {
      const { world, base } = h;
      const reader = await h.signedIn(world.members.read);
      await reader.page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/p/${pageId}`);
      await reader.page.locator('.comment', { hasText: 'Published: thanks for the review.' }).waitFor();
      await reader.page.getByText('commenting needs the comment role').waitFor();
      assert.equal(await reader.page.getByLabel('Comment on this page').count(), 0);
      assert.equal(await reader.page.getByRole('button', { name: 'Resolve', exact: true }).count(), 0);
      await reader.context.close();
      assert.deepEqual(h.problems, []);
    });
  });
}
