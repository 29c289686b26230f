import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { createSession } from '../../src/sessions/store.ts';
import { CHROMIUM, freePort } from '../workspace/support.ts';

/**
 * This browser's copy of a live page (web/src/live/local-copy.ts), written after the frame rather than in each
 * edit: a tab closed while offline, on a page so busy that the idle-time write never ran, still keeps what was
 * typed; the page opened again shows it and sends it, and the change request gets it.
 */
const skip = needs('chromium');

describe('the live page\'s copy in this browser [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let base: string;
  let browser: Browser;
  let spaceId: string;
  let pageId: string;
  let changeRequestId: string;
  const problems: string[] = [];

  const body = (page: Page) => page.locator('.page-body');
  const markdown = async () => (await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}?format=markdown`)).body.markdown as string;

  async function context(): Promise<BrowserContext> {
    const context = await browser.newContext({ viewport: { width: 1200, height: 800 } });
    const { secret } = await createSession(t.ctx, { userId: world.members.edit.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
    await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
    await context.addInitScript(() => {
      // The page's WebSockets, so the test can cut them as a lost network would.
      const sockets: WebSocket[] = [];
      const Native = window.WebSocket;
      window.WebSocket = class extends Native {
        constructor(url: string | URL, protocols?: string | string[]) {
          super(url, protocols);
          sockets.push(this);
        }
      };
      (window as unknown as { cutSockets: () => void }).cutSockets = () => {
        for (const socket of sockets) socket.close();
      };
      // A page never idle: the copy's idle-time write never runs, only the one of a page hidden or left.
      window.requestIdleCallback = () => 0;
    });
    return context;
  }

  async function open(context: BrowserContext): Promise<Page> {
    const page = await context.newPage();
    page.on('pageerror', (error) => problems.push(error.message));
    page.on('console', (message) => {
      if (/Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    await page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`);
    await body(page).getByText('First paragraph.').waitFor({ timeout: 20_000 });
    return page;
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
    const created = await world.members.edit.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Offline' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    changeRequestId = created.body.id;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  it('keeps what a tab closed offline typed, and sends it when the page is opened again', async () => {
    const browsing = await context();
    const first = await open(browsing);
    await first.locator('[data-live-state="live"]').waitFor({ timeout: 20_000 });
    await browsing.setOffline(true);
    await first.evaluate(() => (window as unknown as { cutSockets: () => void }).cutSockets());
    await first.locator('[data-live-state="offline"], [data-live-state="connecting"]').waitFor({ timeout: 20_000 });
    await body(first).locator('p').first().click();
    await first.keyboard.press('End');
    await first.keyboard.type(' Typed offline.');
    await body(first).getByText('First paragraph. Typed offline.').waitFor();
    // The tab is closed before the network comes back: nothing of it reached the server.
    await first.close();
    assert.ok(!(await markdown()).includes('Typed offline.'));

    await browsing.setOffline(false);
    const again = await open(browsing);
    await body(again).getByText('First paragraph. Typed offline.').waitFor({ timeout: 20_000 });
    await again.locator('[data-live-state="live"]').waitFor({ timeout: 20_000 });
    await until('the change request has what the closed tab typed', async () => (await markdown()).includes('First paragraph. Typed offline.'), 30_000);
    await again.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });
    await browsing.close();
    assert.deepEqual(problems, []);
  });
});
