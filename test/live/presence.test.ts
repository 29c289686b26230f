import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestApp } from '../helpers/app.ts';
import type { TestUser, World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { assertAccessible } from '../workspace/support.ts';
import { cut, hold as holdSends, liveBrowser, type LiveBrowser } from './fixture.ts';

/**
 * Live presence and offline work in Chromium: the page tree of a change request shows who has each page
 * open; clicking a person's avatar follows their caret until you scroll; edits typed offline in a tab that
 * is then closed come back when the page is opened again and reach the change request.
 */
const skip = needs('chromium');

describe('live presence, following and offline edits in a browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let base: string;
  let problems: string[];
  let live: LiveBrowser;
  let spaceId: string;
  let notesId: string;
  let otherId: string;
  let changeRequestId: string;
  const body = (page: Page) => page.locator('.page-body');
  const address = (pageId: string) => `${live.base}/o/${live.world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`;
  const apiText = (pageId: string) => live.apiText(spaceId, changeRequestId, pageId);
  const apiTextIn = (crId: string, pageId: string) => live.apiText(spaceId, crId, pageId);
  const person = (user: TestUser) => live.person(user, { height: 700 });

  async function openPage(page: Page, pageId: string, text: string): Promise<void> {
    await page.goto(address(pageId));
    await body(page).getByText(text).first().waitFor({ timeout: 30_000 });
    await page.locator('[data-live-state="live"]').waitFor({ timeout: 30_000 });
  }

  const nameOf = async (page: Page) => page.evaluate(async () => ((await (await fetch('/auth/session')).json()) as { user: { displayName: string } }).user.displayName);

  before(async () => {
    live = await liveBrowser();
    ({ t, world, base, problems } = live);
    // A long page (taller than the window), so following someone to its end has to scroll.
    const paragraphs = Array.from({ length: 60 }, (_, i) => `Paragraph ${i + 1}.`).join('\n\n');
    ({ spaceId, pageIds: [notesId, otherId] } = await live.space({ Notes: `${paragraphs}\n`, Other: 'Other text.\n' }));
    changeRequestId = await live.changeRequest(spaceId, 'Live');
  });
  after(async () => {
    await live?.close();
  });

  it('shows who is on each page in the tree, and follows a person\'s caret until you scroll', async () => {
    const alice = await person(world.members.edit);
    const bob = await person(world.admin);
    await openPage(alice, notesId, 'Paragraph 1.');
    await openPage(bob, otherId, 'Other text.');
    const [aliceName, bobName] = [await nameOf(alice), await nameOf(bob)];
    const beside = (page: Page, pageId: string, name: string) => page.locator(`.tree-item[data-page="${pageId}"] .tree-people[data-people*="${name}"]`);

    // The tree: Bob beside "Other" in Alice's, Alice beside "Notes" in Bob's; then Bob moves to Notes.
    await beside(alice, otherId, bobName).waitFor({ timeout: 30_000 });
    await beside(bob, notesId, aliceName).waitFor({ timeout: 30_000 });
    assert.equal(await beside(alice, notesId, bobName).count(), 0);
    await bob.locator(`.tree-item[data-page="${notesId}"]`).click();
    await body(bob).getByText('Paragraph 1.', { exact: true }).waitFor();
    await beside(alice, notesId, bobName).waitFor({ timeout: 30_000 });
    await until('Bob is no longer shown on Other', async () => (await beside(alice, otherId, bobName).count()) === 0);
    await assertAccessible(alice, 'page tree with people');

    // Following: Bob clicks Alice's avatar; Alice writes at the end of the page, out of Bob's view.
    await bob.locator('[data-live-state="live"]').waitFor({ timeout: 30_000 });
    const follow = bob.getByRole('button', { name: `Follow ${aliceName}` });
    await follow.click();
    assert.equal(await follow.getAttribute('aria-pressed'), 'true');
    await bob.locator(`[data-following="${aliceName}"]`).waitFor();
    const inView = (page: Page) =>
      page.evaluate((name) => {
        const caret = [...document.querySelectorAll('.live-caret')].find((element) => element.textContent === name);
        if (!caret) return false;
        const box = caret.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }, aliceName);
    await body(alice).getByText('Paragraph 60.', { exact: true }).click();
    await alice.keyboard.press('End');
    await alice.keyboard.type(' Written at the end.', { delay: 20 });
    await body(bob).getByText('Paragraph 60. Written at the end.').waitFor({ timeout: 30_000 });
    await until('Bob\'s view shows Alice\'s caret at the end of the page', () => inView(bob));
    // Alice goes back to the top: Bob's view goes with her.
    await body(alice).getByText('Paragraph 2.', { exact: true }).click();
    await alice.keyboard.type('!');
    await until('Bob\'s view follows Alice back up', async () => (await inView(bob)) && (await bob.evaluate(() => window.scrollY)) < 400);

    // Scrolling stops following.
    await bob.mouse.move(600, 400);
    await bob.mouse.wheel(0, 600);
    await until('following stops', async () => (await follow.getAttribute('aria-pressed')) === 'false');
    assert.equal(await bob.locator('.live-following').count(), 0);
    await alice.context().close();
    await bob.context().close();
    assert.deepEqual(problems, []);
  });

  it('keeps edits typed offline in a tab that is then closed, and sends them when the page is opened again', async () => {
    const carol = await person(world.members.edit);
    await openPage(carol, otherId, 'Other text.');
    const name = `quire-live:${world.organizationId}/${spaceId}/${changeRequestId}/${otherId}`;
    await carol.context().setOffline(true);
    await cut(carol);
    await carol.locator('[data-live-state="offline"], [data-live-state="connecting"]').waitFor({ timeout: 30_000 });
    // The browser's copy holds the edit: the updates stored since typing began carry its characters in order
    // (Yjs stores strings as UTF-8 inside its updates; a keystroke is an update).
    const typed = ' Typed offline, then the tab was closed.';
    const stored = () =>
      carol.evaluate(
        (database) =>
          new Promise<string[]>((resolve) => {
            const request = indexedDB.open(database);
            request.onsuccess = () => {
              const db = request.result;
              if (!db.objectStoreNames.contains('updates')) return resolve([]);
              const all = db.transaction('updates').objectStore('updates').getAll();
              all.onsuccess = () => resolve((all.result as Uint8Array[]).map((update) => new TextDecoder().decode(update)));
              all.onerror = () => resolve([]);
            };
            request.onerror = () => resolve([]);
          }),
        name,
      );
    const before = (await stored()).length;
    await body(carol).getByText('Other text.').click();
    await carol.keyboard.press('End');
    await carol.keyboard.type(typed);
    const inOrder = (text: string) => {
      let at = 0;
      for (const char of typed) {
        at = text.indexOf(char, at);
        if (at < 0) return false;
        at++;
      }
      return true;
    };
    await until('the edit is in IndexedDB', async () => inOrder((await stored()).slice(before).join('')));
    assert.ok(!(await apiText(otherId)).includes('tab was closed'));
    // Closed without a chance to send (no beforeunload, no socket).
    await carol.close();
    await carol.context().setOffline(false);
    const again = await live.open(carol.context());
    await openPage(again, otherId, 'Other text.');
    await body(again).getByText('Typed offline, then the tab was closed.').waitFor({ timeout: 30_000 });
    await until('the change request reads the edit typed offline', async () => (await apiText(otherId)) === 'Other text. Typed offline, then the tab was closed.');
    assert.deepEqual(problems, []);
  });

  it('says "sending…" when edits stay unacknowledged, and that everyone sees them once they are', async () => {
    const dave = await person(world.members.edit);
    await openPage(dave, otherId, 'Other text.');
    const status = dave.locator('.live-status[role="status"]');
    await status.getByText('Live: everyone here sees your edits.').waitFor({ timeout: 30_000 });
    const hold = (on: boolean) => holdSends(dave, on);
    await hold(true);
    await body(dave).getByText('Other text.').click();
    await dave.keyboard.press('End');
    await dave.keyboard.type(' Held.');
    // Nothing reached the server: the line says so (after the second it waits), and the page is not saved.
    await status.getByText('Live: sending…').waitFor({ timeout: 30_000 });
    assert.ok(!(await apiText(otherId)).includes('Held.'));
    await hold(false);
    await status.getByText('Live: everyone here sees your edits.').waitFor({ timeout: 30_000 });
    await until('the change request reads the held edit', async () => (await apiText(otherId)).includes('Held.'));
    await dave.context().close();
    assert.deepEqual(problems, []);
  });

  it('tells a writer whose change request is archived while they type that the late edits were not saved, and keeps them to copy', async () => {
    const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Archived while typing' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const archivedId = created.body.id as string;
    const erin = await person(world.members.edit);
    await erin.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${archivedId}/p/${otherId}`);
    await body(erin).getByText('Other text.').waitFor({ timeout: 30_000 });
    const status = erin.locator('.live-status[role="status"]');
    await status.getByText('Live: everyone here sees your edits.').waitFor({ timeout: 30_000 });
    await body(erin).getByText('Other text.').click();
    await erin.keyboard.press('End');
    await erin.keyboard.type(' Kept.');
    await erin.locator('.save-status[data-state="saved"]').waitFor({ timeout: 30_000 });
    const hold = (on: boolean) => holdSends(erin, on);
    await hold(true);
    await erin.keyboard.type(' Late.');
    const archived = await world.members.edit.api.patch(`/v1/spaces/${spaceId}/change-requests/${archivedId}`, { status: 'archived' });
    assert.equal(archived.status, 200, JSON.stringify(archived.body));
    await hold(false);
    // Two ways, whichever comes first (test/live/live.test.ts): the write of the late edit is refused, the
    // reason naming the archived change request, or the access re-check reopens the page read-only. Either
    // way the page stops taking edits and says the late ones were not saved, and keeps them on the screen.
    await erin.locator('.page-body[contenteditable="false"]').waitFor({ timeout: 30_000 });
    await status.filter({ hasText: /Live editing stopped: .*archived|Live, read-only/ }).waitFor({ timeout: 30_000 });
    const problem = erin.locator('.save-problem[role="alert"]');
    await problem.getByText('Your last edits did not reach the change request').waitFor({ timeout: 30_000 });
    assert.match((await body(erin).textContent()) ?? '', /Kept\. Late\./);
    assert.ok(!(await apiTextIn(archivedId, otherId)).includes('Late.'));
    // The screen says the change request is archived, offers no more tree actions, and leads to Reopen; axe
    // checks it with the notice shown, in light and in dark, and the review screen's Reopen button too.
    await erin.getByText('This change request is archived: its pages can no longer be edited.').waitFor({ timeout: 30_000 });
    assert.equal(await erin.getByRole('button', { name: 'New page' }).count(), 0);
    await assertAccessible(erin, 'a live page stopped by its archived change request');
    const refused = /archived/.test((await status.textContent()) ?? '');
    await erin.getByRole('link', { name: 'Reopen it' }).click();
    await erin.getByRole('button', { name: 'Reopen' }).waitFor({ timeout: 30_000 });
    await assertAccessible(erin, 'the review screen of an archived change request');
    await erin.getByRole('button', { name: 'Reopen' }).click();
    await erin.getByRole('button', { name: 'Archive' }).waitFor({ timeout: 30_000 });
    await assertAccessible(erin, 'the review screen of a reopened change request');
    if (refused) {
      // The refused write's path: the server had stored the late edit before the write was refused. Reopened,
      // the change request gets it (the stored updates nobody wrote are written within seconds).
      await erin.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${archivedId}/p/${otherId}`);
      await body(erin).getByText('Kept. Late.').waitFor({ timeout: 30_000 });
      await until('the reopened change request reads the late edit', async () => {
        t.clock.advance(5_000);
        return (await apiTextIn(archivedId, otherId)).includes('Kept. Late.');
      });
    }
    await erin.context().close();
  });
});
