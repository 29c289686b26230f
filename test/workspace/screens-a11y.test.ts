import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { needs } from '../helpers/system.ts';
import { dialects } from '../helpers/app.ts';
import { assertAccessible, assertFitsWidth, assertKeyboardReachable, shot, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Every screen of the workspace, in Chromium, light and dark: axe-core finds no serious or critical
 * violation, and Tab reaches every control with its focus visible. Screens are opened in the states a person
 * meets them in: empty and filled, a form open, a page in the editor, a narrow window.
 */
const skip = needs('chromium');

const MARKDOWN = '# Welcome\n\nSome **bold** words and a [link](https://example.com).\n\n{% hint style="info" %}\nA hint.\n{% endhint %}\n\n* one\n* two\n';

// SQLite always; PostgreSQL too when TEST_DATABASE_URL is set (test/helpers/app.ts).
for (const dialect of dialects) describe(`every workspace screen, accessible and keyboard-reachable [${dialect}]`, { skip }, () => {
  let h: WorkspaceHarness;
  let page: Page;
  let org = '';
  let spaceId = '';
  let emptySpaceId = '';
  let changeRequestId = '';
  let pageId = '';

  before(async () => {
    h = await startWorkspace(dialect);
    const { admin } = h.world;
    org = h.world.organizationId;
    emptySpaceId = (await admin.api.post(`/v1/orgs/${org}/spaces`, { title: 'Empty' })).body.id;
    spaceId = (await admin.api.post(`/v1/orgs/${org}/spaces`, { title: 'Handbook' })).body.id;
    changeRequestId = (await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'First pages' })).body.id;
    const created = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`, { title: 'Welcome', document: parseMarkdown(MARKDOWN, {}).document });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    pageId = created.body.id;
    await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`, { title: 'Child', parent: pageId });
    await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/comments`, { body: { markdown: 'A first remark.' } });
    page = (await h.signedIn(admin)).page;
  });
  after(() => h?.close());

  async function check(address: string, ready: (page: Page) => Promise<unknown>, screen: string) {
    await page.goto(`${h.base}${address}`);
    await ready(page);
    await assertAccessible(page, screen);
    await assertKeyboardReachable(page, screen);
  }

  it('home, with a form open', async () => {
    await check(`/o/${org}`, (p) => p.getByRole('heading', { name: 'Spaces' }).waitFor(), 'home');
    await page.getByRole('button', { name: 'New space' }).click();
    await page.getByLabel('Title').waitFor();
    await assertAccessible(page, 'home with the new-space form');
    await assertKeyboardReachable(page, 'home with the new-space form');
  });

  it('a space, empty and with pages', async () => {
    await check(`/o/${org}/s/${emptySpaceId}`, (p) => p.getByText('This space has no pages.').waitFor(), 'an empty space');
    const merged = await h.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`, {});
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    await check(`/o/${org}/s/${spaceId}/p/${pageId}`, (p) => p.getByText('A hint.').waitFor(), 'a space page');
  });

  it('the editor and the review of a change request', async () => {
    const changeRequest = await h.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'More' });
    const edit = `/o/${org}/s/${spaceId}/cr/${changeRequest.body.id}`;
    await check(`${edit}/p/${pageId}`, (p) => p.getByText('A hint.').waitFor(), 'the editor');
    await check(`${edit}/review`, (p) => p.getByRole('heading', { name: 'Changed pages' }).waitFor(), 'a review');
  });

  it('a space\'s history with a revision\'s pages drawn before and after', async () => {
    await check(`/o/${org}/s/${spaceId}/history`, (p) => p.locator('.rendered-diff .diff-block-added', { hasText: 'A hint.' }).waitFor(), 'the history of a space');
  });

  it('an unknown address, and a narrow window', async () => {
    await check('/o/x/nothing', (p) => p.getByRole('heading', { name: 'Nothing here' }).waitFor(), 'not found');
    await page.setViewportSize({ width: 390, height: 800 });
    await check(`/o/${org}/s/${spaceId}/p/${pageId}`, (p) => p.getByText('A hint.').waitFor(), 'a space page at 390 px');
    await assertFitsWidth(page, 'a space page at 390 px');
    const changeRequest = await h.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'On a phone' });
    const edit = `/o/${org}/s/${spaceId}/cr/${changeRequest.body.id}`;
    await check(`${edit}/p/${pageId}`, (p) => p.getByText('A hint.').waitFor(), 'the editor at 390 px');
    await assertFitsWidth(page, 'the editor at 390 px');
    // The docs show the editor on a phone's width (docs/workspace.md, Accessibility).
    await page.locator('.page-body').getByText('A hint.').click();
    await shot(page, 'editor-narrow');
    await check(`${edit}/review`, (p) => p.getByRole('heading', { name: 'Changed pages' }).waitFor(), 'a review at 390 px');
    await assertFitsWidth(page, 'a review at 390 px');
    await check(`/o/${org}`, (p) => p.getByRole('heading', { name: 'Spaces' }).waitFor(), 'home at 390 px');
    await assertFitsWidth(page, 'home at 390 px');
    assert.deepEqual(h.problems, []);
  });
});
