import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { runDueJobs } from '../../src/jobs/index.ts';
import { needs } from '../helpers/system.ts';
import { startMailbox, type Mailbox } from '../helpers/mailbox.ts';
import { Receiver } from '../webhooks/receiver.ts';
import { assertAccessible, assertKeyboardReachable, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Comments on a block and mentions, in the browser: the writer puts the cursor in a block, chooses
 * "Comment on block", mentions a reviewer with the `@` picker and sends; the thread says which block, the
 * block is marked in the editor (after a reload too), the comment holds the block and the mention (checked
 * through the API), and the reviewer is told by webhook and by mail.
 */
const skip = needs('chromium');

const paragraph = (text: string) => ({ object: 'block', type: 'paragraph', nodes: [{ object: 'text', leaves: [{ object: 'leaf', text, marks: [] }] }] });

describe('comments on blocks and mentions [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let mailbox: Mailbox;
  let receiver: Receiver;
  let spaceId = '';
  let changeRequestId = '';
  let pageId = '';
  let cr = '';

  before(async () => {
    mailbox = await startMailbox();
    receiver = await Receiver.start();
    h = await startWorkspace('sqlite', { QUIRE_SMTP_URL: mailbox.url, QUIRE_WEBHOOK_ALLOW_PRIVATE: '1' });
    const admin = h.world.admin.api;
    assert.equal((await admin.post(`/v1/orgs/${h.world.organizationId}/webhooks`, { url: receiver.url, events: ['comment.mentioned'] })).status, 201);
    spaceId = (await admin.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Handbook' })).body.id;
    changeRequestId = (await h.world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Setup guide' })).body.id;
    cr = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}`;
    const made = await h.world.members.edit.api.post(`${cr}/content/pages`, { type: 'document', title: 'Setup', document: { object: 'document', nodes: [paragraph('First step.'), paragraph('Second step.'), paragraph('Third step.')] } });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    pageId = made.body.id;
  });
  after(async () => {
    await h?.close();
    await receiver?.close();
    await mailbox?.close();
  });

  it('comments on the block at the cursor, mentions a reviewer who is told, and marks the block', async () => {
    const reviewer = h.world.members.review;
    const { page, context } = await h.signedIn(h.world.members.edit);
    await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`);
    const body = page.getByRole('textbox', { name: /Body of/ });
    await body.getByText('Second step.').click();
    await page.getByRole('button', { name: 'Comment on block' }).click();
    const box = page.getByRole('textbox', { name: 'Comment on the block' });
    await box.waitFor();
    await page.getByText('About the block').waitFor();
    assert.equal(await box.evaluate((element) => element === document.activeElement), true, 'the comment box has the focus');

    await box.pressSequentially('Please check this, @rev');
    const option = page.getByRole('option', { name: `@${'review'}` });
    await option.waitFor();
    await assertAccessible(page, 'comment box with the mention picker open');
    await page.keyboard.press('Enter');
    await box.pressSequentially('thanks.');
    assert.equal(await box.inputValue(), 'Please check this, @review thanks.');
    await page.getByRole('button', { name: 'Comment', exact: true }).click();

    const thread = page.getByRole('article').filter({ hasText: 'Please check this, @review thanks.' });
    await thread.getByText('Second step.').waitFor();
    await thread.getByRole('button', { name: 'Show the block' }).waitFor();
    await body.locator('.has-comments', { hasText: 'Second step.' }).waitFor();
    assert.equal(await body.locator('.has-comments').count(), 1, 'only that block is marked');
    await assertAccessible(page, 'page editor with a comment on a block');
    await assertKeyboardReachable(page, 'page editor with a comment on a block');
    await h.shot(page, 'comment-on-block');

    const comments = (await h.world.members.read.api.get(`${cr}/comments?format=markdown`)).body.items as Array<{ id: string; body: { markdown: string }; target: { page?: { id: string }; node?: { id: string } } }>;
    assert.equal(comments.length, 1);
    assert.equal(comments[0].target.page?.id, pageId);
    assert.match(comments[0].target.node?.id ?? '', /^blk-[0-9a-f]{8}$/);
    assert.equal(comments[0].body.markdown, `Please check this, [review](users/${reviewer.id} "mention") thanks.`);

    // After a reload, the block is found again by its words.
    await page.reload();
    await page.getByRole('textbox', { name: /Body of/ }).locator('.has-comments', { hasText: 'Second step.' }).waitFor();
    await context.close();
    assert.deepEqual(h.problems, []);

    for (let round = 0; round < 20; round++) {
      h.t.clock.advance(60_000);
      if ((await runDueJobs(h.t.ctx, { workerId: 'comment-anchors-test' })).claimed === 0) break;
    }
    const events = receiver.received.map((got) => JSON.parse(got.body) as { event: string; data: { mentionedUserIds: string[]; commentId: string } });
    const mentioned = events.filter((event) => event.event === 'comment.mentioned');
    assert.equal(mentioned.length, 1, JSON.stringify(events));
    assert.deepEqual(mentioned[0].data.mentionedUserIds, [reviewer.id]);
    assert.equal(mentioned[0].data.commentId, comments[0].id);
    const mails = mailbox.mails.filter((mail) => mail.includes(`To: ${reviewer.email}`));
    assert.equal(mails.length, 1);
    assert.match(mails[0], /mentioned you in change request #1 "Setup guide"/);
  });
});
