import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { dialects } from '../helpers/app.ts';
import type { Locator } from 'playwright-core';
import { needs } from '../helpers/system.ts';
import { assertAccessible, assertKeyboardReachable, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Conflicts block by block in Chromium: the space and a change request both change three paragraphs of one
 * page, and each one other paragraph; the screen shows the one-sided changes as merged and each conflict
 * with both sides; the person keeps the space's first paragraph and their own second, edits the third in
 * the page editor (reached by Tab, left by Escape: text typed and a mark applied), previews, resolves and
 * merges, and the merged page is checked through the API. Axe (light and dark) and the keyboard on the screen;
 * an edited choice sent as a malformed document is refused with a 400.
 */
const skip = needs('chromium');
const doc = (markdown: string) => parseMarkdown(markdown, {}).document;
const page = (blocks: string[]) => `${blocks.join('\n\n')}\n`;
const BASE = ['Install the tool.', 'Open a terminal.', 'Sign in with your account.', 'Start writing.', 'Invite your team.', 'Save your work.'];

/**
 * Each text is in a changed block (marked added or removed) of `drawing`, and the block is drawn wherever the
 * screen is scrolled: its text is visible and the block is never `content-visibility: auto`, whose contents
 * Chromium skips away from the screen (and in a full-page screenshot), leaving the block's coloured box, empty.
 */
async function assertChangedBlocksDrawn(drawing: Locator, texts: string[]): Promise<void> {
  await drawing.waitFor();
  for (const text of texts) {
    const block = drawing.locator('.diff-block-added, .diff-block-removed').filter({ hasText: text }).first();
    await block.getByText(text, { exact: true }).waitFor({ state: 'visible' });
    const skippable = await block.evaluate((element) => {
      for (let at: Element | null = element; at; at = at.parentElement) if (getComputedStyle(at).contentVisibility === 'auto') return true;
      return false;
    });
    assert.equal(skippable, false, `the changed block "${text}" is drawn even away from the screen`);
  }
}

for (const dialect of dialects) {
  describe(`conflicts block by block in the workspace [${dialect}]`, { skip, timeout: 600_000 }, () => {
    let h: WorkspaceHarness;
    before(async () => {
      h = await startWorkspace(dialect);
    });
    after(() => h?.close());

    it('keeps the space\'s block in one conflict, mine in another, edits the third in the editor, merges the rest, and merges the page', async () => {
      const { world, base } = h;
      const admin = world.admin;
      const writer = world.members.edit;
      const space = await admin.api.post(`/v1/orgs/${world.organizationId}/spaces`, { title: 'Handbook' });
      assert.equal(space.status, 201, JSON.stringify(space.body));
      const spaceId = space.body.id as string;
      const first = await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'First page' });
      const created = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${first.body.id}/content/pages`, { title: 'Getting started', document: doc(page(BASE)) });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      const pageId = created.body.id as string;
      assert.equal((await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${first.body.id}/merge`)).body.result, 'merge');

      // The change request changes paragraphs 1, 2, 3 and 6; meanwhile the space changes 1, 3, 4 and 6.
      const cr = await writer.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Clearer steps' });
      const url = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
      const mine = await writer.api.patch(`${url}/content/page/${pageId}`, { document: doc(page(['Install the tool (mine).', 'Open a terminal window.', 'Sign in (mine).', 'Start writing.', 'Invite your team.', 'Save your work (mine)'])) });
      assert.equal(mine.status, 200, JSON.stringify(mine.body));
      const other = await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Meanwhile' });
      await admin.api.patch(`/v1/spaces/${spaceId}/change-requests/${other.body.id}/content/page/${pageId}`, { document: doc(page(['Install the tool (space).', 'Open a terminal.', 'Sign in (space).', 'Start writing your first page.', 'Invite your team.', 'Save your work (space).'])) });
      assert.equal((await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${other.body.id}/merge`)).body.result, 'merge');

      const { page: browser } = await h.signedIn(writer);
      await browser.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${cr.body.id}/review`);
      await browser.getByRole('button', { name: 'Update from the space' }).click();
      await browser.getByRole('heading', { name: 'Conflicts with the space' }).waitFor();
      const conflict = browser.locator('.conflict', { hasText: 'Getting started' });
      const runs = conflict.locator('.block-run.conflicting');
      await runs.nth(2).waitFor();
      assert.equal(await runs.count(), 3);
      // One-sided changes are shown merged; each conflict shows both sides (and the common version).
      await conflict.locator('.block-run.settled', { hasText: 'Open a terminal window.' }).getByText('changed in this change request only').waitFor();
      await conflict.locator('.block-run.settled', { hasText: 'Start writing your first page.' }).getByText('changed in the space only').waitFor();
      await runs.nth(0).getByText('Install the tool (space).').waitFor();
      await runs.nth(0).getByText('Install the tool (mine).').waitFor();
      await runs.nth(0).getByText('Install the tool.').waitFor();
      await assertAccessible(browser, 'conflicts block by block');
      await assertKeyboardReachable(browser, 'conflicts block by block');

      await runs.nth(0).getByLabel('Keep the space\'s').check();
      await runs.nth(1).getByLabel('Keep mine').check();

      // The third in the page editor, prefilled with mine: reached by Tab, text typed and bold applied, left by Escape.
      const third = runs.nth(2);
      await third.getByLabel('Edit', { exact: true }).check();
      const editor = third.getByRole('textbox', { name: /Conflict 3: the blocks to keep/ });
      await editor.getByText('Save your work (mine)').waitFor();
      // The box is as tall as the blocks it holds, as the sides above it are: not an empty page's height.
      const boxHeight = (await third.locator('.block-editor').boundingBox())!.height;
      const sideHeight = (await third.locator('.block-sides .diff-render').last().boundingBox())!.height;
      assert.ok(boxHeight < sideHeight * 1.5, `the editor box is ${boxHeight} px tall for one paragraph; its side is ${sideHeight} px`);
      await third.getByRole('button', { name: 'Edit as Markdown (starts again from mine)' }).focus();
      await browser.keyboard.press('Tab');
      assert.equal(await editor.evaluate((element) => element === document.activeElement), true, 'Tab reaches the editor');
      await browser.keyboard.press('ControlOrMeta+End');
      await browser.keyboard.type(' ');
      await browser.keyboard.press('ControlOrMeta+b');
      await browser.keyboard.type('often');
      await browser.keyboard.press('ControlOrMeta+b');
      await browser.keyboard.type('.');
      await editor.locator('strong', { hasText: 'often' }).waitFor();
      await browser.keyboard.press('Escape');
      assert.equal(await third.getByLabel('Edit', { exact: true }).evaluate((element) => element === document.activeElement), true, 'Escape leaves the editor for the "Edit" choice');
      await assertAccessible(browser, 'a conflict edited in the editor');

      // The API refuses an edited choice whose document is malformed, naming the choice.
      const aligned = await writer.api.get(`${url}/conflicts/page/${pageId}`);
      const refused = await writer.api.post(`${url}/conflicts/page/${pageId}/preview`, { blocks: [{ take: 'space' }, { take: 'change-request' }, { take: 'edited', document: { object: 'document', nodes: [{ object: 'block' }] } }], revisions: aligned.body.revisions });
      assert.equal(refused.status, 400, JSON.stringify(refused.body));
      assert.equal(refused.body.error.code, 400, JSON.stringify(refused.body));
      assert.match(refused.body.error.message, /^blocks\[2\]\.document: /);
      const both = await writer.api.post(`${url}/conflicts/page/${pageId}/preview`, { blocks: [{ take: 'space' }, { take: 'change-request' }, { take: 'edited', markdown: 'x', document: { object: 'document', nodes: [] } }], revisions: aligned.body.revisions });
      assert.equal(both.status, 400, JSON.stringify(both.body));
      await conflict.getByRole('button', { name: 'Preview the merged page' }).click();
      const preview = conflict.locator('.block-run.preview');
      await preview.getByText('Install the tool (space).').waitFor();
      await preview.getByText('Sign in (mine).').waitFor();
      await preview.locator('strong', { hasText: 'often' }).waitFor();
      // The change request's changed page above, drawn while the screen is scrolled down to the conflicts (as
      // the screenshot is taken): each changed block shows its text on its side, side by side and inline, never
      // a bar left empty because the browser skipped drawing a block away from the screen.
      await assertChangedBlocksDrawn(browser.locator('[aria-label="Getting started: Before"]'), ['Install the tool.', 'Open a terminal.', 'Sign in with your account.', 'Save your work.']);
      await assertChangedBlocksDrawn(browser.locator('[aria-label="Getting started: After"]'), ['Install the tool (mine).', 'Open a terminal window.', 'Sign in (mine).', 'Save your work (mine)']);
      // Inline: the removed and the added blocks in one column, each drawn.
      await browser.getByRole('button', { name: 'Inline', exact: true }).click();
      await browser.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await assertChangedBlocksDrawn(browser.locator('.rendered-diff.inline'), ['Install the tool.', 'Install the tool (mine).', 'Open a terminal.', 'Open a terminal window.', 'Sign in with your account.', 'Sign in (mine).', 'Save your work.', 'Save your work (mine)']);
      await browser.getByRole('button', { name: 'Side by side', exact: true }).click();
      await browser.locator('.rendered-diff.side-by-side').waitFor();
      await browser.getByRole('button', { name: 'Preview the merged page' }).scrollIntoViewIfNeeded();
      await h.shot(browser, 'conflict-blocks');
      await browser.getByRole('button', { name: 'Resolve and update the change request' }).click();
      await browser.getByText('Conflicts resolved: the change request now includes the space\'s changes and can be merged.').waitFor();
      const merged = await admin.api.post(`${url}/merge`);
      assert.equal(merged.body.result, 'merge', JSON.stringify(merged.body));
      const result = (await admin.api.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown as string;
      assert.equal(result.trimEnd(), page(['Install the tool (space).', 'Open a terminal window.', 'Sign in (mine).', 'Start writing your first page.', 'Invite your team.', 'Save your work (mine) **often**.']).trimEnd());
      assert.deepEqual(h.problems, []);
    });
  });
}
