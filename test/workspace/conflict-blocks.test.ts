import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { needs } from '../helpers/system.ts';
import { assertAccessible, assertKeyboardReachable, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Conflicts block by block in Chromium: the space and a change request both change two paragraphs of one
 * page, and each one other paragraph; the screen shows the one-sided changes as merged and each conflict
 * with both sides; the person keeps the space's first paragraph and their own second, previews, resolves and
 * merges, and the merged page is checked through the API. Axe (light and dark) and the keyboard on the screen.
 */
const skip = needs('chromium');
const doc = (markdown: string) => parseMarkdown(markdown, {}).document;
const page = (blocks: string[]) => `${blocks.join('\n\n')}\n`;
const BASE = ['Install the tool.', 'Open a terminal.', 'Sign in with your account.', 'Start writing.'];

describe('conflicts block by block in the workspace [sqlite]', { skip, timeout: 600_000 }, () => {
  let h: WorkspaceHarness;
  before(async () => {
    h = await startWorkspace('sqlite');
  });
  after(() => h?.close());

  it('keeps the space\'s block in one conflict and mine in the other, merges the rest, and merges the page', async () => {
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

    // The change request changes paragraphs 1, 2 and 3; meanwhile the space changes 1, 3 and 4.
    const cr = await writer.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Clearer steps' });
    const url = `/v1/spaces/${spaceId}/change-requests/${cr.body.id}`;
    const mine = await writer.api.patch(`${url}/content/page/${pageId}`, { document: doc(page(['Install the tool (mine).', 'Open a terminal window.', 'Sign in (mine).', 'Start writing.'])) });
    assert.equal(mine.status, 200, JSON.stringify(mine.body));
    const other = await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Meanwhile' });
    await admin.api.patch(`/v1/spaces/${spaceId}/change-requests/${other.body.id}/content/page/${pageId}`, { document: doc(page(['Install the tool (space).', 'Open a terminal.', 'Sign in (space).', 'Start writing your first page.'])) });
    assert.equal((await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${other.body.id}/merge`)).body.result, 'merge');

    const { page: browser } = await h.signedIn(writer);
    await browser.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${cr.body.id}/review`);
    await browser.getByRole('button', { name: 'Update from the space' }).click();
    await browser.getByRole('heading', { name: 'Conflicts with the space' }).waitFor();
    const conflict = browser.locator('.conflict', { hasText: 'Getting started' });
    const runs = conflict.locator('.block-run.conflicting');
    await runs.nth(1).waitFor();
    assert.equal(await runs.count(), 2);
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
    await conflict.getByRole('button', { name: 'Preview the merged page' }).click();
    const preview = conflict.locator('.block-run.preview');
    await preview.getByText('Install the tool (space).').waitFor();
    await preview.getByText('Sign in (mine).').waitFor();
    await h.shot(browser, 'conflict-blocks');
    await browser.getByRole('button', { name: 'Resolve and update the change request' }).click();
    await browser.getByText('Conflicts resolved: the change request now includes the space\'s changes and can be merged.').waitFor();
    const merged = await admin.api.post(`${url}/merge`);
    assert.equal(merged.body.result, 'merge', JSON.stringify(merged.body));
    const result = (await admin.api.get(`/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).body.markdown as string;
    assert.equal(result.trimEnd(), page(['Install the tool (space).', 'Open a terminal window.', 'Sign in (mine).', 'Start writing your first page.']).trimEnd());
    assert.deepEqual(h.problems, []);
  });
});
