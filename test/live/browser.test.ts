import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import type { TestUser, World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { assertAccessible } from '../workspace/support.ts';
import { cut, liveBrowser, staleModel, type LiveBrowser } from './fixture.ts';

/**
 * Live co-editing in Chromium, under the workspace's Content-Security-Policy: two people type into the same
 * paragraph at once and converge, and the change request then reads that text; a reader sees it arrive and
 * cannot write; carets carry names; a page that loses its connection keeps its edits and merges them on
 * reconnect; an API edit appears in the browsers.
 */
const skip = needs('chromium');

describe('live co-editing in a browser [sqlite]', { skip }, () => {
  let live: LiveBrowser;
  let world: World;
  let problems: string[];
  let spaceId: string;
  let pageId: string;
  let changeRequestId: string;

  const body = (page: Page) => page.locator('.page-body');
  /** The page's text without the other people's carets (their names are inside the text). */
  const bodyText = async (page: Page) =>
    page.evaluate(() => {
      const copy = document.querySelector('.page-body')!.cloneNode(true) as HTMLElement;
      for (const caret of copy.querySelectorAll('.live-caret')) caret.remove();
      return [...copy.querySelectorAll('p')].map((p) => p.textContent).join('\n');
    });
  const markdown = async () => (await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}?format=markdown`)).body.markdown as string;

  /** The page's paragraphs as the API reads them from the change request. */
  const apiText = () => live.apiText(spaceId, changeRequestId, pageId);

  async function open(user: TestUser): Promise<Page> {
    const page = await live.person(user);
    if (process.env.QUIRE_TEST_LOG) {
      page.on('websocket', (ws) => {
        console.log('ws open', ws.url());
        ws.on('framereceived', (frame) => console.log('ws in', frame.payload.length));
        ws.on('framesent', (frame) => console.log('ws out', frame.payload.length));
        ws.on('close', () => console.log('ws closed'));
        ws.on('socketerror', (error) => console.log('ws error', error));
      });
    }
    await page.goto(`${live.base}/o/${world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`);
    await body(page).getByText('First paragraph.').waitFor({ timeout: 20_000 }).catch(async (error: unknown) => {
      if (process.env.QUIRE_TEST_LOG) console.log('page:', await page.locator('main').innerHTML());
      throw error;
    });
    await page.locator('[data-live-state="live"]').waitFor({ timeout: 20_000 });
    return page;
  }

  /** Puts the caret at the end of the first paragraph. */
  async function endOfFirst(page: Page): Promise<void> {
    await body(page).locator('p').first().click();
    await page.keyboard.press('End');
  }

  before(async () => {
    live = await liveBrowser();
    ({ world, problems } = live);
    ({ spaceId, pageIds: [pageId] } = await live.space({ Notes: 'First paragraph.\n\nSecond paragraph.\n' }));
    changeRequestId = await live.changeRequest(spaceId, 'Live');
  });
  after(async () => {
    await live?.close();
  });

  it('two people type into one paragraph at once, see each other, and converge; a reader follows and cannot write; offline edits merge; API edits arrive', async () => {
    const alice = await open(world.members.edit);
    const bob = await open(world.admin);
    const reader = await open(world.members.read);
    const nameOf = async (page: Page) => page.evaluate(async () => ((await (await fetch('/auth/session')).json()) as { user: { displayName: string } }).user.displayName);
    const [aliceName, bobName] = [await nameOf(alice), await nameOf(bob)];

    // Presence: each sees the other in the page, and the other's named caret once they place it.
    await alice.locator(`[data-person="${bobName}"]`).waitFor();
    await bob.locator(`[data-person="${aliceName}"]`).waitFor();
    await endOfFirst(alice);
    await endOfFirst(bob);
    await alice.locator('.live-caret-name', { hasText: bobName }).waitFor();
    await bob.locator('.live-caret-name', { hasText: aliceName }).waitFor();

    // Both type into the same paragraph at once.
    await Promise.all([alice.keyboard.type(' Alice was here.', { delay: 15 }), bob.keyboard.type(' Bob too.', { delay: 15 })]);
    await until('the two pages converge', async () => {
      const [a, b] = [await bodyText(alice), await bodyText(bob)];
      if (process.env.QUIRE_TEST_LOG) console.log('texts:', JSON.stringify([a, b]));
      return a === b && a.includes('Alice was here.') && a.includes('Bob too.');
    });
    const first = (await bodyText(alice)).split('\n')[0];
    await until('the reader sees the text', async () => (await bodyText(reader)).split('\n')[0] === first);
    await until('the change request reads the same text', async () => (await apiText()) === (await bodyText(alice)));

    // The reader cannot write: the editor is read-only, and typing changes nothing anywhere.
    assert.equal(await body(reader).getAttribute('contenteditable'), 'false');
    await body(reader).locator('p').first().click();
    await reader.keyboard.type('READER');
    await new Promise((resolve) => setTimeout(resolve, 500));
    assert.ok(!(await bodyText(alice)).includes('READER'));

    // Offline: Bob keeps typing; Alice too; both edits are there once Bob is back.
    await bob.context().setOffline(true);
    await cut(bob);
    await bob.locator('[data-live-state="offline"], [data-live-state="connecting"]').waitFor({ timeout: 20_000 });
    await body(bob).locator('p').nth(1).click();
    await bob.keyboard.press('End');
    await bob.keyboard.type(' Written offline.');
    await alice.keyboard.type(' Meanwhile.');
    assert.ok((await bodyText(bob)).includes('Written offline.'));
    await bob.context().setOffline(false);
    await until('the offline edit merges', async () => {
      const [a, b] = [await bodyText(alice), await bodyText(bob)];
      return a === b && a.includes('Written offline.') && a.includes('Meanwhile.');
    }, 40_000);

    // An API edit of the page while they are in it reaches every browser.
    await until('the live text is written', async () => (await markdown()).includes('Written offline.'));
    const head = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}`);
    const page = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`);
    const document = structuredClone(page.body.document);
    document.nodes.push({ object: 'block', type: 'paragraph', data: {}, nodes: [{ object: 'text', leaves: [{ object: 'leaf', text: 'Added through the API.', marks: [] }] }] });
    const patched = await world.admin.api.patch(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`, { document, baseRevision: head.body.revision });
    assert.equal(patched.status, 200, JSON.stringify(patched.body));
    for (const person of [alice, bob, reader]) await body(person).getByText('Added through the API.').waitFor({ timeout: 20_000 });
    await alice.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });
    assert.equal(await bodyText(alice), await bodyText(bob));
    assert.deepEqual(problems, []);
  });

  it('says to reload a page whose socket meets another document model version (a rolling upgrade), and turns it read-only, keeping the text', async () => {
    const page = await open(world.members.edit);
    const shown = await bodyText(page);
    const stored = await apiText();
    // The server is upgraded under the open tab: the socket drops, and the tab reconnects with its old model.
    await staleModel(page);
    await page.locator('[data-live-state="refused"]', { hasText: 'Live editing stopped: Quire was updated since this page was opened: reload the page' }).waitFor({ timeout: 20_000 });
    assert.equal(await body(page).getAttribute('contenteditable'), 'false');
    assert.equal(await bodyText(page), shown);
    assert.equal(await apiText(), stored);
    await assertAccessible(page, 'a live page refused for its model version');
    await page.context().close();
    assert.deepEqual(problems, []);
  });
});
