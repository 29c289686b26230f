import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { dialects } from '../helpers/app.ts';
import { addMember, createUser, type TestUser } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { assertAccessible, assertFitsWidth, shot } from '../workspace/support.ts';
import { hold, liveBrowser, type LiveBrowser } from './fixture.ts';

/**
 * A live page that another person's act stops while its writer types: the change request merged or archived
 * (the archive's late edits are test/live/presence.test.ts's), the page deleted from it, the writer removed from
 * the organization or lowered to reader. Each time the writer is told (a status naming why, an alert that the
 * last edits were not written), the editor stops taking edits where it can no longer write, the edits the change
 * request had already taken are kept, the late ones stay on the screen, and axe finds nothing in that state. The
 * panels beside the page follow: a merged or archived change request's files are listed but no longer added
 * (uploaded or inserted), its discussion goes on; a person who lost access is told so by the comments panel and
 * the files panel, which offer nothing.
 */
const skip = needs('chromium');

for (const dialect of dialects) {
  describe(`a live page stopped by another person while its writer types [${dialect}]`, { skip }, () => {
    let live: LiveBrowser;
    let spaceId: string;
    /** A page for each test, by its title: each test's change request writes to its own. */
    const pages = new Map<string, string>();
    const body = (page: Page) => page.locator('.page-body');
    const status = (page: Page) => page.locator('.live-status[role="status"]');
    /** Waits until the live status line reads `pattern`; a timeout names what it read instead. */
    async function says(page: Page, pattern: RegExp): Promise<void> {
      let read = '';
      await until(`the live status reads ${pattern}`, async () => pattern.test((read = (await status(page).textContent()) ?? '')), 30_000).catch((error: Error) => {
        throw new Error(`${error.message} It reads "${read}".`);
      });
    }
    const stoppedAlert = (page: Page) => page.locator('.save-problem[role="alert"]').getByText('Your last edits did not reach the change request');
    const treeItem = (page: Page, title: string) => page.getByRole('tree', { name: 'Pages' }).getByRole('treeitem', { name: title, exact: true });

    /**
     * The page deleted from the change request has left the writer's tree (read again when the server stopped
     * the page), the other pages are still there, and the tree keeps a tab stop (its first page) though the page
     * open is not in it.
     */
    async function leftTheTree(page: Page, title: string): Promise<void> {
      await treeItem(page, title).waitFor({ state: 'detached', timeout: 30_000 });
      await treeItem(page, 'Lowered').waitFor({ timeout: 30_000 });
      assert.equal(await page.locator('[role="treeitem"][tabindex="0"]').count(), 1);
      assert.equal(await page.locator('[role="treeitem"]').first().getAttribute('tabindex'), '0');
    }

    before(async () => {
      live = await liveBrowser(dialect);
      const titles = ['Merged', 'Archived', 'Deleted', 'Idle', 'Removed', 'Lowered'];
      const made = await live.space(Object.fromEntries(titles.map((title) => [title, 'Notes text.\n'])));
      spaceId = made.spaceId;
      titles.forEach((title, i) => pages.set(title, made.pageIds[i]!));
    });
    after(async () => {
      await live?.close();
    });

    const notesTitle = (pageId: string) => [...pages].find(([, id]) => id === pageId)![0];

    async function changeRequest(writer: TestUser, subject: string): Promise<{ crId: string; notesId: string }> {
      return { crId: await live.changeRequest(spaceId, subject, writer), notesId: pages.get(subject)! };
    }

    /** An editor of the organization of their own (their access is changed by some tests). */
    async function editor(name: string): Promise<TestUser> {
      const user = await createUser(live.t.ctx, live.t.app, name);
      await addMember(live.t.ctx, live.world.organizationId, user.id, 'edit');
      return user;
    }

    /**
     * `writer` opens Notes in the change request, types " Kept." and sees it written; then types " Late." while
     * what the page sends is held; `act` runs, and the held messages go (once a message from the server has
     * said `told`, when given: the server's answer to `act` then comes before the late edit).
     */
    async function typeThrough(writer: TestUser, { crId: changeRequestId, notesId }: { crId: string; notesId: string }, act: (page: Page) => Promise<void>, told?: string): Promise<Page> {
      const page = await live.person(writer);
      const received: string[] = [];
      page.on('websocket', (socket) => socket.on('framereceived', (frame) => received.push(Buffer.from(frame.payload).toString('latin1'))));
      await page.goto(`${live.base}/o/${live.world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${notesId}`);
      await body(page).getByText('Notes text.').waitFor({ timeout: 30_000 });
      await status(page).getByText('Live: everyone here sees your edits.').waitFor({ timeout: 30_000 });
      await treeItem(page, notesTitle(notesId)).waitFor({ timeout: 30_000 });
      await body(page).getByText('Notes text.').click();
      await page.keyboard.press('End');
      await page.keyboard.type(' Kept.');
      await page.locator('.save-status[data-state="saved"]').waitFor({ timeout: 30_000 });
      assert.equal(await live.apiText(spaceId, changeRequestId, notesId), 'Notes text. Kept.');
      await hold(page, true);
      await page.keyboard.type(' Late.');
      await act(page);
      if (told) await until(`the server says "${told}"`, () => received.some((frame) => frame.includes(told)));
      await hold(page, false);
      return page;
    }

    /**
     * The state every path ends in: the status line reads `said`, the editor takes no more edits, the alert says
     * the last edits did not reach the change request, the late edit is still on the screen, and axe (light and
     * dark) finds nothing serious on `screen`.
     */
    async function stopped(page: Page, said: RegExp, screen: string): Promise<void> {
      await says(page, said);
      await page.locator('.page-body[contenteditable="false"]').waitFor({ timeout: 30_000 });
      await stoppedAlert(page).waitFor({ timeout: 30_000 });
      assert.match((await body(page).textContent()) ?? '', /Kept\. Late\./);
      await assertAccessible(page, screen);
    }

    const filesPanel = (page: Page) => page.locator('.page-editor .files-panel');
    const commentsPanel = (page: Page) => page.getByRole('region', { name: 'Comments' });
    /** A file added to the change request through the API (as the files panel would), while it is open. */
    async function upload(writer: TestUser, changeRequestId: string, name: string): Promise<void> {
      const response = await live.t.app.inject({
        method: 'POST',
        url: `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/files?name=${encodeURIComponent(name)}`,
        headers: { authorization: `Bearer ${writer.token}`, 'content-type': 'text/plain' },
        payload: Buffer.from('A file of notes.\n'),
      });
      assert.equal(response.statusCode, 201, response.body);
    }

    /**
     * A closed (merged or archived) change request's panels: its files are listed (`file` among them) with the
     * reason nothing can be added, and nothing offers to add one (no "choose files to upload", no "Insert"); its
     * discussion goes on (a change request is discussed after it closes: the box to comment is there).
     */
    async function closedPanels(page: Page, file: string, reason: string): Promise<void> {
      await filesPanel(page).getByText(reason).waitFor({ state: 'attached', timeout: 30_000 });
      await filesPanel(page).locator('summary').click();
      await filesPanel(page).getByText(file, { exact: true }).waitFor({ timeout: 30_000 });
      await filesPanel(page).getByText(reason).waitFor({ timeout: 30_000 });
      assert.equal(await page.getByRole('button', { name: 'choose files to upload' }).count(), 0);
      assert.equal(await page.getByRole('button', { name: `Insert ${file}` }).count(), 0);
      await commentsPanel(page).getByRole('textbox', { name: 'Comment on this page' }).waitFor({ timeout: 30_000 });
      assert.equal(await commentsPanel(page).getByText('You no longer have access').count(), 0);
    }

    /**
     * The stopped page in a window 390 px wide (a phone's): the notices above the page wrap inside it, nothing
     * is wider than the window; photographed for the docs (docs/images/workspace-NAME.png, light and dark).
     */
    async function narrow(page: Page, name: string): Promise<void> {
      await page.setViewportSize({ width: 390, height: 800 });
      await assertFitsWidth(page, `${name} at 390 px`);
      await shot(page, name);
      await page.setViewportSize({ width: 1200, height: 800 });
    }

    it('the change request merged by another person: the writer is told, the editor stops, the space has what was written', async () => {
      const writer = live.world.members.edit;
      const { crId, notesId } = await changeRequest(writer, 'Merged');
      await upload(writer, crId, 'merged-notes.txt');
      const page = await typeThrough(writer, { crId, notesId }, async () => {
        const merged = await live.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests/${crId}/merge`, {});
        assert.equal(merged.status, 200, JSON.stringify(merged.body));
      });
      await page.getByText('This change request is merged').waitFor({ timeout: 30_000 });
      await stopped(page, /Live editing stopped: .*merged|Live, read-only/, 'a live page stopped by its merged change request');
      // Nothing offers a change any more: the tree's actions are gone and the review is only to be seen.
      assert.equal(await page.getByRole('button', { name: 'New page' }).count(), 0);
      assert.equal(await page.getByRole('link', { name: 'Review and merge' }).count(), 0);
      await page.getByRole('link', { name: 'See the review' }).waitFor({ timeout: 30_000 });
      // Its files are read, not added to; its discussion goes on.
      await closedPanels(page, 'merged-notes.txt', 'Files can no longer be added to this change request: it is merged. Choose Edit in the space to add files.');
      await narrow(page, 'live-merged-narrow');
      // What was written is the space's now.
      const space = await live.world.admin.api.get(`/v1/spaces/${spaceId}/content/page/${notesId}?format=markdown`);
      assert.equal(space.body.markdown, 'Notes text. Kept.\n');
      // Opened again, the merged change request's page is read-only, live, and reads what was merged.
      await page.reload();
      await body(page).getByText('Notes text. Kept.').waitFor({ timeout: 30_000 });
      await says(page, /^Live, read-only/);
      assert.equal(await body(page).getAttribute('contenteditable'), 'false');
      await page.context().close();
      assert.deepEqual(live.problems, []);
    });

    it('the change request archived by another person: the editor stops, its files are listed but not added, its discussion goes on', async () => {
      const writer = live.world.members.edit;
      const { crId, notesId } = await changeRequest(writer, 'Archived');
      await upload(writer, crId, 'archived-notes.txt');
      const page = await typeThrough(writer, { crId, notesId }, async () => {
        const archived = await live.world.admin.api.patch(`/v1/spaces/${spaceId}/change-requests/${crId}`, { status: 'archived' });
        assert.equal(archived.status, 200, JSON.stringify(archived.body));
      });
      await page.getByText('This change request is archived: its pages can no longer be edited.').waitFor({ timeout: 30_000 });
      await stopped(page, /Live editing stopped: .*archived|Live, read-only/, 'a live page stopped by its archived change request');
      await closedPanels(page, 'archived-notes.txt', 'Files can no longer be added to this change request: it is archived. Reopen it to add files.');
      // What the panel no longer offers, the API refuses too.
      const refused = await live.t.app.inject({
        method: 'POST',
        url: `/v1/spaces/${spaceId}/change-requests/${crId}/content/files?name=late.txt`,
        headers: { authorization: `Bearer ${writer.token}`, 'content-type': 'text/plain' },
        payload: Buffer.from('Late.\n'),
      });
      assert.equal(refused.statusCode, 409, refused.body);
      await assertAccessible(page, 'a live page of an archived change request, its files listed');
      await page.context().close();
      assert.deepEqual(live.problems, []);
    });

    it('the page deleted from the change request by another person: the writer is told it is gone, and the late edit stays on the screen', async () => {
      const writer = live.world.members.edit;
      const { crId, notesId } = await changeRequest(writer, 'Deleted');
      const page = await typeThrough(writer, { crId, notesId }, async () => {
        const removed = await live.world.admin.api.delete(`/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${notesId}`);
        assert.equal(removed.status, 204, JSON.stringify(removed.body));
      });
      await stopped(page, /Live editing stopped: this page was deleted from the change request\./, 'a live page deleted from its change request');
      await leftTheTree(page, 'Deleted');
      await page.context().close();
      assert.deepEqual(live.problems, []);
    });

    it('the page deleted while its writer does not type: told all the same, and the tree no longer lists it', async () => {
      const writer = live.world.members.edit;
      const { crId, notesId } = await changeRequest(writer, 'Idle');
      // Everything typed is written; then the writer stops typing, and the page is deleted.
      const page = await typeThrough(writer, { crId, notesId }, async () => undefined);
      await until('the late edit is written', async () => (await live.apiText(spaceId, crId, notesId)) === 'Notes text. Kept. Late.', 30_000);
      await page.locator('.save-status[data-state="saved"]').waitFor({ timeout: 30_000 });
      const removed = await live.world.admin.api.delete(`/v1/spaces/${spaceId}/change-requests/${crId}/content/page/${notesId}`);
      assert.equal(removed.status, 204, JSON.stringify(removed.body));
      // The server notices the change request's head moved and finds the page gone (not the writer's next write).
      await says(page, /Live editing stopped: this page was deleted from the change request\./);
      await page.locator('.page-body[contenteditable="false"]').waitFor({ timeout: 30_000 });
      await leftTheTree(page, 'Idle');
      // Nothing was lost, so nothing alarms: the text stays on the screen, read-only.
      assert.equal(await stoppedAlert(page).count(), 0);
      assert.match((await body(page).textContent()) ?? '', /Kept\. Late\./);
      await assertAccessible(page, 'a live page deleted from its change request while idle');
      await page.context().close();
      assert.deepEqual(live.problems, []);
    });

    it('the writer removed from the organization: told they no longer have access, the editor stops', async () => {
      const writer = await editor('Removed');
      const { crId, notesId } = await changeRequest(writer, 'Removed');
      const page = await typeThrough(writer, { crId, notesId }, async (typing) => {
        const removed = await live.world.admin.api.delete(`/v1/orgs/${live.world.organizationId}/members/${writer.id}`);
        assert.ok(removed.status < 300, JSON.stringify(removed.body));
        // The server closes the page before the late edit reaches it (the close comes in while sends are held).
        await typing.locator('[data-live-state="refused"]').waitFor({ timeout: 30_000 });
      });
      // The screen's reload of the change request fails now: said above the page, which stays, in the person's
      // words (no id of the API's answer) and with what to do.
      const note = page.locator('.error-note[role="alert"]');
      await note.first().waitFor({ timeout: 30_000 });
      assert.equal(await note.count(), 1);
      const said = (await note.textContent()) ?? '';
      assert.match(said, /^You no longer have access to this change request/);
      assert.match(said, /Ask an administrator of the organization/);
      for (const id of [live.world.organizationId, spaceId, crId, notesId, writer.id]) assert.ok(!said.includes(id), `the note names an id: ${said}`);
      assert.doesNotMatch(said, /"|No space|#\d/);
      await stopped(page, /Live editing stopped: you no longer have access to this change request\./, 'a live page whose writer was removed');
      // Nothing offers an action the person may no longer take: the tree's, the review's, commenting.
      for (const [role, name] of [['button', 'New page'], ['button', 'New…'], ['link', 'Review and merge'], ['link', 'See the review'], ['button', 'Comment on block'], ['button', 'Comment'], ['button', 'choose files to upload']] as const) {
        assert.equal(await page.getByRole(role, { name, exact: true }).count(), 0, `${role} "${name}" is offered`);
      }
      // The comments panel says why the person can no longer comment (the reason the page says), not a role they
      // lack; the files panel, which would be refused, is only that reason.
      const comments = (await commentsPanel(page).textContent()) ?? '';
      assert.match(comments, /You no longer have access to this change request: you can no longer comment on it\./);
      assert.doesNotMatch(comments, /commenting needs the comment role/);
      assert.equal(await commentsPanel(page).getByRole('textbox').count(), 0);
      assert.equal(await filesPanel(page).count(), 1);
      assert.equal((await filesPanel(page).textContent())?.trim(), 'The files of the space are not available: you no longer have access to this change request.');
      assert.equal(await page.locator('.page-editor details.files-panel').count(), 0);
      await narrow(page, 'live-lost-access-narrow');
      assert.equal(await live.apiText(spaceId, crId, notesId), 'Notes text. Kept.');
      await page.context().close();
      assert.deepEqual(live.problems, []);
    });

    it('the writer lowered to reader: the page turns read-only, says so, and keeps what was written', async () => {
      const writer = await editor('Lowered');
      const { crId, notesId } = await changeRequest(writer, 'Lowered');
      const page = await typeThrough(writer, { crId, notesId }, async () => {
        const lowered = await live.world.admin.api.patch(`/v1/orgs/${live.world.organizationId}/members/${writer.id}`, { role: 'read' });
        assert.ok(lowered.status < 300, JSON.stringify(lowered.body));
      }, 'permissions changed');
      await stopped(page, /^Live, read-only: you follow the edits of others\.$/, 'a live page whose writer became a reader');
      assert.equal(await live.apiText(spaceId, crId, notesId), 'Notes text. Kept.');
      await page.context().close();
      assert.deepEqual(live.problems, []);
    });
  });
}
