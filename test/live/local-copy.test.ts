import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { BrowserContext, Page } from 'playwright-core';
import type { World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { until } from '../helpers/until.ts';
import { cut, liveBrowser, type LiveBrowser } from './fixture.ts';

/**
 * This browser's copy of a live page (web/src/live/local-copy.ts), written after the frame rather than in each
 * edit: a tab closed while offline, on a page so busy that the idle-time write never ran, still keeps what was
 * typed; the page opened again shows it and sends it, and the change request gets it.
 */
const skip = needs('chromium');

describe('the live page\'s copy in this browser [sqlite]', { skip }, () => {
  let live: LiveBrowser;
  let world: World;
  let spaceId: string;
  let pageId: string;
  let changeRequestId: string;

  const body = (page: Page) => page.locator('.page-body');
  const markdown = async () => (await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}?format=markdown`)).body.markdown as string;
  /** The editor's context: a page never idle, so the copy's idle-time write never runs, only the one of a page hidden or left. */
  const context = () => live.signedIn(world.members.edit, { neverIdle: true });

  async function open(context: BrowserContext): Promise<Page> {
    const page = await live.open(context);
    await page.goto(`${live.base}/o/${world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`);
    await body(page).getByText('First paragraph.').waitFor({ timeout: 20_000 });
    return page;
  }

  before(async () => {
    live = await liveBrowser();
    world = live.world;
    ({ spaceId, pageIds: [pageId] } = await live.space({ Notes: 'First paragraph.\n\nSecond paragraph.\n' }));
    changeRequestId = await live.changeRequest(spaceId, 'Offline');
  });
  after(async () => {
    await live?.close();
  });

  it('keeps what a tab closed offline typed, and sends it when the page is opened again', async () => {
    const browsing = await context();
    const first = await open(browsing);
    await first.locator('[data-live-state="live"]').waitFor({ timeout: 20_000 });
    await browsing.setOffline(true);
    await cut(first);
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
    assert.deepEqual(live.problems, []);
  });
});
