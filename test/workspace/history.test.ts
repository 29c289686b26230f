import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { needs } from '../helpers/system.ts';
import type { TestUser } from '../helpers/factories.ts';
import { assertAccessible, assertKeyboardReachable, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * A space's history, change request diffs and conflicts in Chromium: the history lists who changed which
 * pages, a revision's pages are drawn before and after, and "Restore" opens a change request with the old
 * content; the review screen draws each changed page side by side or inline (the choice remembered per
 * person); a change request that conflicts with the space shows both sides and merges once a side is chosen
 * or the text edited. Each effect is checked through the API; each screen with axe and the keyboard.
 */
const skip = needs('chromium');

const doc = (markdown: string) => parseMarkdown(markdown, {}).document;
const V1 = 'Run the installer.\n\nThen sign in.\n';
const V2 = 'Run the installer as an administrator.\n\nThen sign in.\n';

describe('history, diffs and conflicts in the workspace [sqlite]', { skip, timeout: 600_000 }, () => {
  let h: WorkspaceHarness;
  let spaceId = '';
  let pageId = '';
  let admin: TestUser;

  /** A change request by `user` that sets the page's text, merged by the admin; returns its id. */
  async function mergedEdit(user: TestUser, subject: string, markdown: string, create = false): Promise<string> {
    const cr = await user.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject });
    assert.equal(cr.status, 201, JSON.stringify(cr.body));
    if (create) {
      const page = await user.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/pages`, { title: 'Installing', document: doc(markdown) });
      assert.equal(page.status, 201, JSON.stringify(page.body));
      pageId = page.body.id;
    } else {
      const page = await user.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/page/${pageId}`, { document: doc(markdown) });
      assert.equal(page.status, 200, JSON.stringify(page.body));
    }
    h.t.clock.advance(60_000);
    const merged = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
    assert.equal(merged.body.result, 'merge', JSON.stringify(merged.body));
    return cr.body.id;
  }

  const spaceMarkdown = async () => (await admin.api.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown as string;

  before(async () => {
    h = await startWorkspace('sqlite');
    admin = h.world.admin;
    const space = await admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Guides' });
    assert.equal(space.status, 201, JSON.stringify(space.body));
    spaceId = space.body.id;
    await mergedEdit(admin, 'Install guide', V1, true);
    await mergedEdit(h.world.members.edit, 'Administrator rights', V2);
  });
  after(() => h?.close());

  it('lists the history, draws a revision\'s changes, and restores a page through a change request', async () => {
    const { world, base } = h;
    const { page } = await h.signedIn(world.members.edit);
    await page.goto(`${base}/o/${world.organizationId}/s/${spaceId}`);
    await page.getByRole('link', { name: 'History' }).click();
    await page.getByRole('heading', { name: 'History', level: 1 }).waitFor();
    const revisions = page.getByRole('navigation', { name: 'Revisions' }).getByRole('listitem');
    await revisions.first().getByText('Merged #2 Administrator rights').waitFor();
    await revisions.first().getByText('Edited Installing').waitFor();
    await revisions.nth(1).getByText('Merged #1 Install guide').waitFor();
    // The newest revision is shown: the paragraph that changed, removed on the left and added on the right.
    await page.locator('.rendered-diff.side-by-side .diff-block-removed', { hasText: 'Run the installer.' }).waitFor();
    await page.locator('.rendered-diff.side-by-side .diff-block-added', { hasText: 'Run the installer as an administrator.' }).waitFor();
    assert.equal(await page.locator('.rendered-diff .diff-block-added').count(), 1, 'only the changed paragraph is marked');
    await assertAccessible(page, 'the history of a space');
    await assertKeyboardReachable(page, 'the history of a space');
    await h.shot(page, 'history');

    // A reader sees the same history and changes, without a way to restore.
    const reader = await h.signedIn(world.members.read);
    await reader.page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/history`);
    await reader.page.locator('.rendered-diff .diff-block-added', { hasText: 'Run the installer as an administrator.' }).waitFor();
    await reader.page.getByRole('navigation', { name: 'Revisions' }).getByRole('link').nth(1).click();
    await reader.page.getByRole('heading', { name: 'Merged #1 Install guide' }).waitFor();
    assert.equal(await reader.page.getByRole('button', { name: /Restore|Bring/ }).count(), 0);
    await reader.context.close();

    // The older revision, then "Restore": a change request with the page as it was, the space unchanged.
    await revisions.nth(1).getByRole('link').click();
    await page.getByRole('heading', { name: 'Merged #1 Install guide' }).waitFor();
    await page.getByRole('button', { name: 'Restore “Installing” to this version' }).click();
    await page.getByRole('heading', { name: /^#3 Restore “Installing” as it was on / }).waitFor();
    assert.equal(await spaceMarkdown(), V2, 'the space changes only when the change request is merged');
    const listed = (await admin.api.get(`/v1/spaces/${spaceId}/change-requests?status=draft`)).body.items as Array<{ id: string; number: number }>;
    const restored = listed.find((cr) => cr.number === 3)!;
    const content = await admin.api.get(`/v1/spaces/${spaceId}/change-requests/${restored.id}/content/page/${pageId}?format=markdown`);
    assert.equal(content.body.markdown, V1);
    // Its review screen draws the restore as any change: the administrator's paragraph goes, the old one comes back.
    await page.locator('.rendered-diff .diff-block-added', { hasText: 'Run the installer.' }).waitFor();
    const merged = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${restored.id}/merge`);
    assert.equal(merged.body.result, 'merge', JSON.stringify(merged.body));
    assert.equal(await spaceMarkdown(), V1);

    // The whole space back to the administrator's version: another change request, left for review.
    await page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/history`);
    await revisions.first().getByText('Merged #3 Restore “Installing”', { exact: false }).waitFor();
    await revisions.nth(1).getByRole('link').click();
    await page.getByRole('heading', { name: 'Merged #2 Administrator rights' }).waitFor();
    await page.getByRole('button', { name: 'Restore the space to this version' }).click();
    await page.getByRole('heading', { name: /^#4 Restore the space as it was on / }).waitFor();
    const whole = ((await admin.api.get(`/v1/spaces/${spaceId}/change-requests?status=draft`)).body.items as Array<{ id: string; number: number }>).find((cr) => cr.number === 4)!;
    assert.equal((await admin.api.get(`/v1/spaces/${spaceId}/change-requests/${whole.id}/content/page/${pageId}?format=markdown`)).body.markdown, V2);
    assert.equal(await spaceMarkdown(), V1, 'the space waits for the review');
    assert.deepEqual(h.problems, []);
  });

  it('draws a change request\'s pages side by side or inline, by keyboard, remembered per person', async () => {
    const { world, base } = h;
    const writer = world.members.edit;
    const cr = await writer.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Sign-in step' });
    const edit = await writer.api.patch(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content/page/${pageId}`, { document: doc(`${V1}\nOpen the dashboard.\n`) });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    const review = `${base}/o/${world.organizationId}/s/${spaceId}/cr/${cr.body.id}/review`;
    const { page } = await h.signedIn(writer);
    await page.goto(review);
    await page.locator('.rendered-diff.side-by-side .diff-block-added', { hasText: 'Open the dashboard.' }).waitFor();
    const inline = page.getByRole('button', { name: 'Inline' });
    assert.equal(await inline.getAttribute('aria-pressed'), 'false');
    await inline.focus();
    await page.keyboard.press('Enter');
    await page.locator('.rendered-diff.inline .diff-block-added', { hasText: 'Open the dashboard.' }).waitFor();
    assert.equal(await page.locator('.rendered-diff.side-by-side').count(), 0);
    assert.equal(await inline.getAttribute('aria-pressed'), 'true');
    await assertAccessible(page, 'a change request diff, inline');
    await assertKeyboardReachable(page, 'a change request diff, inline');
    await h.shot(page, 'diff-inline');

    // Remembered for this person after a reload; another person still starts side by side.
    await page.reload();
    await page.locator('.rendered-diff.inline .diff-block-added', { hasText: 'Open the dashboard.' }).waitFor();
    const other = await h.signedIn(world.members.review);
    await other.page.goto(review);
    await other.page.locator('.rendered-diff.side-by-side .diff-block-added', { hasText: 'Open the dashboard.' }).waitFor();
    await assertAccessible(other.page, 'a change request diff, side by side');
    await h.shot(other.page, 'diff-side-by-side');
    // Back to side by side with Space on the focused button.
    await page.getByRole('button', { name: 'Side by side' }).focus();
    await page.keyboard.press('Space');
    await page.locator('.rendered-diff.side-by-side').waitFor();
    assert.equal(await page.evaluate((key) => localStorage.getItem(key), `quire:diff-mode:${writer.id}`), 'side-by-side');

    // The space moves on elsewhere (a new page): "Update from the space" brings that in without conflict.
    const faq = await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'FAQ' });
    const faqPage = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${faq.body.id}/content/pages`, { title: 'FAQ', document: doc('Questions.\n') });
    assert.equal(faqPage.status, 201, JSON.stringify(faqPage.body));
    assert.equal((await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${faq.body.id}/merge`)).body.result, 'merge');
    await page.reload();
    await page.getByRole('button', { name: 'Update from the space' }).click();
    await page.getByText('The change request now includes the space\'s latest changes.').waitFor();
    const updated = (await writer.api.get(`/v1/spaces/${spaceId}/change-requests/${cr.body.id}`)).body;
    assert.deepEqual([updated.outdated, updated.revisionMergedAncestor], [false, (await admin.api.get(`/v1/spaces/${spaceId}`)).body.revision]);
    await page.getByRole('button', { name: 'Update from the space' }).waitFor({ state: 'detached' });
    assert.deepEqual(h.problems, []);
  });

  it('shows both sides of a conflict and merges once the person edits the result', async () => {
    const { world, base } = h;
    const writer = world.members.edit;
    const cr = await writer.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Installer wording' });
    const url = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
    const edit = await writer.api.patch(`${url}/content/page/${pageId}`, { document: doc('Run the setup program.\n\nThen sign in.\n') });
    assert.equal(edit.status, 200, JSON.stringify(edit.body));
    // Meanwhile the space changes the same paragraph.
    await mergedEdit(admin, 'Installer, again', 'Run the installer from the downloads page.\n\nThen sign in.\n');

    const { page } = await h.signedIn(admin);
    await page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${cr.body.id}/review`);
    await page.getByRole('button', { name: 'Merge into the space' }).click();
    await page.getByRole('heading', { name: 'Conflicts with the space' }).waitFor();
    const conflict = page.locator('.conflict', { hasText: 'Installing' });
    // A text conflict opens block by block (test/workspace/conflict-blocks.test.ts); the page's own choices stay.
    await conflict.locator('.block-run.conflicting', { hasText: 'Run the installer from the downloads page.' }).waitFor();
    await conflict.locator('.block-run.conflicting', { hasText: 'Run the setup program.' }).waitFor();
    assert.equal((await admin.api.get(url)).body.status, 'draft', 'a refused merge changes nothing');
    // "Update from the space" (offered while the space has moved on) meets the same conflicts; the panel takes the focus.
    await page.reload();
    await page.getByRole('button', { name: 'Update from the space' }).click();
    await page.getByRole('heading', { name: 'Conflicts with the space' }).waitFor();
    assert.equal(await page.evaluate(() => document.activeElement?.id), 'conflicts-title');
    await conflict.locator('.block-run.conflicting', { hasText: 'Run the setup program.' }).waitFor();
    await assertAccessible(page, 'conflicts of a change request');
    await assertKeyboardReachable(page, 'conflicts of a change request');

    // Block by block is chosen until the person chooses another way: here, the whole page edited.
    assert.equal(await conflict.getByLabel('Block by block').isChecked(), true);
    await conflict.getByLabel('This change request\'s version').check();
    await conflict.locator('.diff-block-removed', { hasText: 'Run the installer from the downloads page.' }).waitFor();
    await conflict.locator('.diff-block-added', { hasText: 'Run the setup program.' }).waitFor();
    await conflict.getByLabel('An edited version').check();
    const text = conflict.getByLabel('Text (Markdown)');
    assert.equal(await text.inputValue(), 'Run the setup program.\n\nThen sign in.\n');
    await text.fill('Run the setup program from the downloads page.\n\nThen sign in.\n');
    await h.shot(page, 'conflicts');
    await page.getByRole('button', { name: 'Resolve and update the change request' }).click();
    await page.getByText('Conflicts resolved: the change request now includes the space\'s changes and can be merged.').waitFor();
    const updated = (await admin.api.get(url)).body;
    assert.equal(updated.outdated, false);
    await page.getByRole('button', { name: 'Merge into the space' }).click();
    await page.waitForURL(`${base}/o/${world.organizationId}/s/${spaceId}`);
    assert.equal(await spaceMarkdown(), 'Run the setup program from the downloads page.\n\nThen sign in.\n');
    assert.equal((await admin.api.get(url)).body.status, 'merged');
    assert.deepEqual(h.problems, []);
  });
});
