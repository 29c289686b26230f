import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { needs } from '../helpers/system.ts';
import { assertAccessible, assertKeyboardReachable, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * The home screen in Chromium: a space starred in one browser is a favourite in another (the star is kept on the
 * server), a space the person can no longer read leaves the favourites, and "Recently opened" lists the spaces
 * opened in this browser, most recent first. "New space" and "New collection" are offered to those who may create
 * them, and the others are told who can.
 */
const skip = needs('chromium');

describe('home: favourite and recent spaces [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let org = '';
  const spaces: Record<string, string> = {};

  before(async () => {
    h = await startWorkspace('sqlite');
    org = h.world.organizationId;
    for (const title of ['Handbook', 'Guides', 'Secret plans']) {
      h.t.clock.advance(1000);
      const created = await h.world.admin.api.post(`/v1/orgs/${org}/spaces`, { title });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      spaces[title] = created.body.id;
    }
  });
  after(() => h?.close());

  const favoritesList = (page: Page) => page.getByRole('list', { name: 'Favourite spaces' });
  const favoriteIds = async () => (await h.world.members.read.api.get('/v1/user/favorites/spaces')).body.items.map((space: { id: string }) => space.id);

  it('a star follows the person to another browser, and leaves with the access to the space', async () => {
    const reader = h.world.members.read;
    const first = await h.signedIn(reader);
    await first.page.goto(`${h.base}/o/${org}`);
    await first.page.getByText('No favourites yet').waitFor();
    const all = first.page.getByRole('list', { name: 'All spaces' });
    await all.getByRole('button', { name: 'Favourite: Handbook' }).click();
    await favoritesList(first.page).getByRole('link', { name: 'Handbook' }).waitFor();
    await all.getByRole('button', { name: 'Favourite: Secret plans' }).click();
    await favoritesList(first.page).getByRole('link', { name: 'Secret plans' }).waitFor();
    assert.equal(await all.getByRole('button', { name: 'Favourite: Handbook' }).getAttribute('aria-pressed'), 'true');
    assert.equal(await all.getByRole('button', { name: 'Favourite: Guides' }).getAttribute('aria-pressed'), 'false');
    assert.deepEqual(new Set(await favoriteIds()), new Set([spaces.Handbook, spaces['Secret plans']]));
    await assertAccessible(first.page, 'home with favourites');
    await assertKeyboardReachable(first.page, 'home with favourites');
    await h.shot(first.page, 'home-favourites');

    // Another browser (its own session, its own storage): the same favourites.
    const second = await h.signedIn(reader);
    await second.page.goto(`${h.base}/o/${org}`);
    await favoritesList(second.page).getByRole('link', { name: 'Handbook' }).waitFor();
    assert.deepEqual(await favoritesList(second.page).getByRole('link').allTextContents().then((texts) => texts.map((text) => text.trim()).sort()), ['Handbook', 'Secret plans']);

    // A space the reader can no longer read is not shown, in either browser.
    assert.equal((await h.world.admin.api.patch(`/v1/spaces/${spaces['Secret plans']}`, { defaultLevel: null })).status, 200);
    await second.page.reload();
    await favoritesList(second.page).getByRole('link', { name: 'Handbook' }).waitFor();
    assert.equal(await favoritesList(second.page).getByRole('link', { name: 'Secret plans' }).count(), 0);
    assert.ok(!(await favoriteIds()).includes(spaces['Secret plans']));

    // Unstarred in the second browser: gone in the first once it reloads.
    await favoritesList(second.page).getByRole('button', { name: 'Favourite: Handbook' }).click();
    await second.page.getByText('No favourites yet').waitFor();
    assert.deepEqual(await favoriteIds(), []);
    await first.page.reload();
    await first.page.getByText('No favourites yet').waitFor();
    assert.deepEqual(h.problems, []);
    await first.context.close();
    await second.context.close();
  });

  it('lists the spaces opened in this browser, most recent first; the star is on the space screen too', async () => {
    const { page, context } = await h.signedIn(h.world.members.edit);
    await page.goto(`${h.base}/o/${org}`);
    await page.getByText('The spaces you open in this browser show here.').waitFor();
    for (const title of ['Guides', 'Handbook']) {
      await page.getByRole('list', { name: 'All spaces' }).getByRole('link', { name: title }).click();
      await page.getByRole('heading', { name: title }).waitFor();
      await page.getByRole('link', { name: '← Spaces' }).click();
      await page.getByRole('heading', { name: 'Recently opened' }).waitFor();
    }
    const recent = page.getByRole('list', { name: 'Recently opened spaces' });
    await recent.getByRole('link', { name: 'Guides' }).waitFor();
    assert.deepEqual((await recent.getByRole('link').allTextContents()).map((text) => text.trim()), ['Handbook', 'Guides']);

    await recent.getByRole('link', { name: 'Guides' }).click();
    const star = page.getByRole('button', { name: 'Favourite: Guides' });
    await star.click();
    await page.locator('button[aria-pressed="true"]', { hasText: '★' }).waitFor();
    const favorites = await h.world.members.edit.api.get('/v1/user/favorites/spaces');
    assert.deepEqual(favorites.body.items.map((space: { id: string }) => space.id), [spaces.Guides]);
    await assertAccessible(page, 'a space with its star');
    assert.deepEqual(h.problems, []);
    await context.close();
  });

  it('offers New space and New collection to a member who may create, and tells one who may not whom to ask', async () => {
    const creator = await h.signedIn(h.world.members.create);
    await creator.page.goto(`${h.base}/o/${org}`);
    const collectionsRegion = (page: Page) => page.getByRole('region', { name: 'Collections' });
    await collectionsRegion(creator.page).getByText('New collection makes one.').waitFor();
    await creator.page.getByRole('button', { name: 'New space' }).waitFor();
    await creator.page.getByRole('button', { name: 'New collection' }).click();
    await creator.page.getByRole('form', { name: 'New collection' }).waitFor();
    await creator.context.close();

    // The most a member may be without the create role: reviewing. No creation is offered, and the screen says why.
    const reviewer = await h.signedIn(h.world.members.review);
    await reviewer.page.goto(`${h.base}/o/${org}`);
    await collectionsRegion(reviewer.page).getByText('someone who may create spaces here makes them.').waitFor();
    await reviewer.page.getByRole('list', { name: 'All spaces' }).getByRole('link', { name: 'Handbook' }).waitFor();
    assert.equal(await reviewer.page.getByRole('button', { name: 'New space' }).count(), 0);
    assert.equal(await reviewer.page.getByRole('button', { name: 'New collection' }).count(), 0);
    await assertAccessible(reviewer.page, 'home of a member who may not create');
    // The API gives the same answer the screen does.
    const refused = await h.world.members.review.api.post(`/v1/orgs/${org}/collections`, { title: 'Not mine to make' });
    assert.equal(refused.status, 403);
    assert.match(refused.body.error.message, /create role/);
    assert.deepEqual(h.problems, []);
    await reviewer.context.close();
  });
});
