import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page, Route, WebSocketRoute } from 'playwright-core';
import { dialects } from '../helpers/app.ts';
import { createSpaceWithPages } from '../helpers/content-factory.ts';
import { needs } from '../helpers/system.ts';
import { startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * No work lost, in Chromium: closing the tab (or leaving the page in the workspace) while a save has not
 * completed asks first, for the page's settings saved over HTTP and for its body sent over the live socket;
 * nothing asks once everything is saved; a failed save is shown, retried and then saved.
 */
const skip = needs('chromium');

const PAGE_WRITE = /\/v1\/spaces\/[^/]+\/change-requests\/[^/]+\/content\/page\/[^/?]+$/;

for (const dialect of dialects) describe(`unsaved work in the workspace [${dialect}]`, { skip }, () => {
  let w: WorkspaceHarness;
  let spaceId = '';

  before(async () => {
    w = await startWorkspace(dialect);
    ({ spaceId } = await createSpaceWithPages(w.t.ctx, w.world.organizationId, [{ type: 'document', title: 'Guide', markdown: 'The first paragraph.\n' }], { title: 'Handbook' }));
  });
  after(async () => {
    await w?.close();
  });

  /**
   * The page "Guide" open in a change request of its own, its editor ready, and the dialogs the tab shows: each
   * recorded, and answered from `answers` (true: accept) or accepted when none is left.
   */
  async function openEditor(): Promise<{ page: Page; changeRequestId: string; dialogs: Array<{ type: string; message: string }>; answers: boolean[] }> {
    w.t.clock.advance(1000);
    const changeRequest = await w.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Edits' });
    assert.equal(changeRequest.status, 201, JSON.stringify(changeRequest.body));
    const pages = (await w.world.admin.api.get(`/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string }>;
    const { page } = await w.signedIn(w.world.admin);
    const dialogs: Array<{ type: string; message: string }> = [];
    const answers: boolean[] = [];
    // The harness accepts every dialog; this test answers them itself.
    page.removeAllListeners('dialog');
    page.on('dialog', (dialog) => {
      dialogs.push({ type: dialog.type(), message: dialog.message() });
      void (answers.shift() ?? true ? dialog.accept() : dialog.dismiss());
    });
    await page.goto(`${w.base}/o/${w.world.organizationId}/s/${spaceId}/cr/${changeRequest.body.id}/p/${pages[0].id}`);
    await page.getByRole('textbox', { name: /Body of/ }).waitFor();
    await page.locator('.save-status[data-state=saved]').waitFor();
    return { page, changeRequestId: changeRequest.body.id as string, dialogs, answers };
  }

  /** The titles of the change request's pages, read through /v1. */
  async function titlesIn(changeRequestId: string): Promise<string[]> {
    const reply = await w.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`);
    assert.equal(reply.status, 200, JSON.stringify(reply.body));
    return (reply.body.pages as Array<{ title: string }>).map((page) => page.title);
  }

  /** Closes the tab as a person does (the page's beforeunload runs) and waits until it is gone. */
  async function closeTab(page: Page): Promise<void> {
    const closed = page.waitForEvent('close');
    await page.close({ runBeforeUnload: true });
    await closed;
  }

  it('warns on closing the tab while the title’s save is pending, and not once it is saved', async () => {
    const held: Route[] = [];
    const { page, dialogs, changeRequestId } = await openEditor();
    await page.route(PAGE_WRITE, (route) => (route.request().method() === 'PATCH' ? void held.push(route) : route.fallback()));
    await page.getByLabel('Page title').fill('Guide for admins');
    await page.locator('.save-status[data-state=saving]').waitFor();
    assert.equal(held.length, 1, 'the save was sent, and is held');
    assert.deepEqual(await titlesIn(changeRequestId), ['Guide'], 'the held save has not reached the server');
    await closeTab(page);
    assert.deepEqual(dialogs.map((dialog) => dialog.type), ['beforeunload']);

    // Everything saved: closing asks nothing.
    const again = await openEditor();
    await again.page.getByLabel('Page title').fill('Guide, saved');
    await again.page.locator('.save-status[data-state=saved]').waitFor();
    await again.page.getByRole('textbox', { name: /Body of/ }).click();
    await again.page.keyboard.press('End');
    await again.page.keyboard.type(' Saved text.');
    await again.page.locator('.save-status[data-state=saved]').waitFor();
    assert.deepEqual(await titlesIn(again.changeRequestId), ['Guide, saved']);
    await closeTab(again.page);
    assert.deepEqual(again.dialogs, []);
    assert.deepEqual(w.problems, []);
  });

  it('warns on closing the tab while the body has not reached the server, and on leaving the page in the workspace', async () => {
    let hold = false;
    const held: Array<() => void> = [];
    const { page, dialogs, answers } = await openEditor();
    // The live socket, with what the browser sends held back while `hold` is set.
    await page.context().routeWebSocket(/\/v1\/live/, (socket: WebSocketRoute) => {
      const server = socket.connectToServer();
      socket.onMessage((message) => (hold ? held.push(() => server.send(message)) : server.send(message)));
    });
    await page.reload();
    await page.getByRole('textbox', { name: /Body of/ }).waitFor();
    await page.locator('.save-status[data-state=saved]').waitFor();
    hold = true;
    await page.getByRole('textbox', { name: /Body of/ }).click();
    await page.keyboard.press('End');
    await page.keyboard.type(' Not sent yet.');
    await page.waitForFunction(() => document.querySelector('.save-status')?.getAttribute('data-state') !== 'saved');

    // In the workspace: a link away asks the page's own question, and stays when the person says no.
    const editing = page.url();
    answers.push(false);
    await page.getByRole('link', { name: '← Back to the space' }).click();
    await page.waitForFunction(() => document.querySelector('.save-status') !== null);
    assert.equal(page.url(), editing);
    await closeTab(page);
    assert.deepEqual(dialogs, [
      { type: 'confirm', message: 'This page has changes that are not saved yet. Leave anyway?' },
      { type: 'beforeunload', message: '' },
    ]);
    assert.ok(held.length > 0, 'the edit was held back');
    assert.deepEqual(w.problems, []);
  });

  it('shows a failed save, retries it, and saves', async () => {
    let refusals = 0;
    const { page, dialogs, changeRequestId } = await openEditor();
    await page.route(PAGE_WRITE, (route) => {
      if (route.request().method() !== 'PATCH' || refusals >= 1) return route.fallback();
      refusals += 1;
      return route.fulfill({ status: 503, contentType: 'application/json', body: JSON.stringify({ error: { code: 'unavailable', message: 'Quire is restarting.' } }) });
    });
    await page.getByLabel('Page title').fill('Guide, retried');
    const problem = page.getByRole('alert').filter({ hasText: 'Not saved.' });
    await problem.waitFor();
    assert.match(await problem.innerText(), /Quire is restarting\./);
    assert.match(await problem.innerText(), /Trying again in \d+ s\./);
    // Retried by itself: saved, and the alert gone.
    await page.locator('.save-status[data-state=saved]').waitFor();
    await problem.waitFor({ state: 'detached' });
    assert.equal(refusals, 1);
    assert.deepEqual(await titlesIn(changeRequestId), ['Guide, retried']);
    await closeTab(page);
    assert.deepEqual(dialogs, []);
    // The one refusal was the test's own.
    assert.deepEqual(w.problems.filter((problem) => !/^503 .*\/content\/page\//.test(problem)), []);
    w.problems.length = 0;
  });
});
