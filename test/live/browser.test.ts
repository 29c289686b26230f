import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type TestUser, type World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { createSession } from '../../src/sessions/store.ts';
import { assertAccessible, CHROMIUM, freePort } from '../workspace/support.ts';

/**
 * Live co-editing in Chromium, under the workspace's Content-Security-Policy: two people type into the same
 * paragraph at once and converge, and the change request then reads that text; a reader sees it arrive and
 * cannot write; carets carry names; a page that loses its connection keeps its edits and merges them on
 * reconnect; an API edit appears in the browsers.
 */
const skip = needs('chromium');

describe('live co-editing in a browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let base: string;
  let browser: Browser;
  let spaceId: string;
  let pageId: string;
  let changeRequestId: string;
  const problems: string[] = [];

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
  async function apiText(): Promise<string> {
    const read = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`);
    type Node = { object: string; nodes?: Node[]; leaves?: Array<{ text: string }> };
    const text = (node: Node): string => (node.leaves ? node.leaves.map((leaf) => leaf.text).join('') : (node.nodes ?? []).map(text).join(''));
    return (read.body.document.nodes as Node[]).map(text).join('\n');
  }

  async function open(user: TestUser): Promise<Page> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const { secret } = await createSession(t.ctx, { userId: user.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
    await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
    // Test instrumentation: the page's WebSockets, so a test can cut them as a lost network would.
    await context.addInitScript(() => {
      const sockets: WebSocket[] = [];
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          // A tab opened before an upgrade: its sockets say another document model version from then on.
          if ((window as unknown as { staleModel?: boolean }).staleModel) url = String(url).replace(/([?&]model=)[^&]*/, '$100000000');
          super(url, protocols);
          sockets.push(this);
        }
      };
      (window as unknown as { cutSockets: () => void }).cutSockets = () => {
        for (const socket of sockets) socket.close();
      };
    });
    const page = await context.newPage();
    page.on('console', (message) => {
      if (process.env.QUIRE_TEST_LOG) console.log('browser:', message.type(), message.text());
      if (/Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('pageerror', (error) => {
      if (process.env.QUIRE_TEST_LOG) console.log('browser: pageerror', error.message);
      problems.push(error.message);
    });
    if (process.env.QUIRE_TEST_LOG) {
      page.on('websocket', (ws) => {
        console.log('ws open', ws.url());
        ws.on('framereceived', (frame) => console.log('ws in', frame.payload.length));
        ws.on('framesent', (frame) => console.log('ws out', frame.payload.length));
        ws.on('close', () => console.log('ws closed'));
        ws.on('socketerror', (error) => console.log('ws error', error));
      });
    }
    await page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`);
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
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { QUIRE_PUBLIC_URL: base, QUIRE_LIVE_IDLE_MS: '300', QUIRE_LIVE_MAX_WAIT_MS: '2000' });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
    await editContent(t.ctx, spaceId, (writer) => {
      pageId = writer.addPage({ type: 'document', title: 'Notes', markdown: 'First paragraph.\n\nSecond paragraph.\n' });
    });
    const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Live' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    changeRequestId = created.body.id;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
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
    await bob.evaluate(() => (window as unknown as { cutSockets: () => void }).cutSockets());
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
    await page.evaluate(() => {
      (window as unknown as { staleModel: boolean }).staleModel = true;
      (window as unknown as { cutSockets: () => void }).cutSockets();
    });
    await page.locator('[data-live-state="refused"]', { hasText: 'Live editing stopped: Quire was updated since this page was opened: reload the page' }).waitFor({ timeout: 20_000 });
    assert.equal(await body(page).getAttribute('contenteditable'), 'false');
    assert.equal(await bodyText(page), shown);
    assert.equal(await apiText(), stored);
    await assertAccessible(page, 'a live page refused for its model version');
    await page.context().close();
    assert.deepEqual(problems, []);
  });
});
