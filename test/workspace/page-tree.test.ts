import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { addFile, editContent } from '../helpers/content-factory.ts';
import { needs } from '../helpers/system.ts';
import { createSite } from '../published/support.ts';
import { assertAccessible, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * The page tree of a change request in Chromium: pages moved by dragging (before, after, inside, with the
 * indicator shown while dragging), a group and link pages (to an address and to a page) created from the "New…"
 * menu, a page's emoji set from the tree, and a page's cover and layout set in its properties; each effect read
 * back through the API, then seen on the published site.
 */
const skip = needs('chromium');

/** A 2×2 PNG, the cover. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAAWBAEBtC4VLgAAAABJRU5ErkJggg==', 'base64');

interface TreePage {
  id: string;
  title: string;
  type: string;
  emoji?: string;
  icon?: string;
  href?: string;
  target?: { kind: string; page?: string };
  pages?: TreePage[];
}

describe('the page tree and page properties [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let org = '';
  let spaceId = '';
  let changeRequestId = '';
  const ids: Record<string, string> = {};

  before(async () => {
    h = await startWorkspace('sqlite');
    org = h.world.organizationId;
    spaceId = (await h.world.admin.api.post(`/v1/orgs/${org}/spaces`, { title: 'Handbook' })).body.id;
    await editContent(h.t.ctx, spaceId, async (writer) => {
      await addFile(h.t.ctx, writer, { name: 'cover.png', contentType: 'image/png', bytes: PNG, dimensions: { width: 2, height: 2 } });
      ids.Intro = writer.addPage({ type: 'document', title: 'Intro', markdown: 'Welcome.\n\n## First steps\n\nStart here.\n' });
      ids.Install = writer.addPage({ type: 'document', title: 'Install', markdown: 'Run it.\n' });
      ids.Deploy = writer.addPage({ type: 'document', title: 'Deploy', markdown: 'Ship it.\n' });
    });
    const created = await h.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Reorganize' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    changeRequestId = created.body.id;
  });
  after(() => h?.close());

  const tree = async (): Promise<TreePage[]> => {
    const reply = await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`);
    assert.equal(reply.status, 200);
    return reply.body.pages;
  };
  const titles = (pages: TreePage[]) => pages.map((page) => page.title);
  const item = (page: Page, title: string) => page.getByRole('treeitem', { name: title, exact: true });
  const field = (page: Page, label: string) => page.getByRole('dialog').getByLabel(label, { exact: true });

  /** Drags one tree item onto another, at a height of that row (0 top, 1 bottom); checks the indicator before dropping. */
  async function drag(page: Page, from: string, to: string, at: number, indicator: 'drop-before' | 'drop-after' | 'drop-inside') {
    const source = await item(page, from).boundingBox();
    const target = await item(page, to).boundingBox();
    assert.ok(source && target);
    await page.mouse.move(source.x + source.width / 2, source.y + source.height / 2);
    await page.mouse.down();
    await page.mouse.move(target.x + target.width / 2, target.y + target.height * at, { steps: 8 });
    await page.locator(`.tree-item.${indicator}[data-page]`, { hasText: to }).waitFor();
    assert.match((await item(page, from).getAttribute('class')) ?? '', /dragging/);
    await page.mouse.up();
    await page.locator('.tree-item.dragging').waitFor({ state: 'detached' });
  }

  it('moves pages by drag and drop: inside, after and before, as the API then has them', async () => {
    const { page, context } = await h.signedIn(h.world.admin);
    await page.goto(`${h.base}/o/${org}/s/${spaceId}/cr/${changeRequestId}/p/${ids.Intro}`);
    await item(page, 'Deploy').waitFor();

    await drag(page, 'Deploy', 'Install', 0.5, 'drop-inside');
    await page.locator('[role="treeitem"][aria-level="2"]', { hasText: 'Deploy' }).waitFor();
    let pages = await tree();
    assert.deepEqual(titles(pages), ['Intro', 'Install']);
    assert.deepEqual(titles(pages[1].pages ?? []), ['Deploy']);

    await drag(page, 'Intro', 'Install', 0.95, 'drop-after');
    await page.waitForFunction(() => document.querySelector('[role="treeitem"]')?.textContent?.includes('Install'));
    pages = await tree();
    assert.deepEqual(titles(pages), ['Install', 'Intro']);

    await drag(page, 'Intro', 'Install', 0.05, 'drop-before');
    await page.waitForFunction(() => document.querySelector('[role="treeitem"]')?.textContent?.includes('Intro'));
    assert.deepEqual(titles(await tree()), ['Intro', 'Install']);
    assert.match(page.url(), new RegExp(`/p/${ids.Intro}$`), 'a drag opens no page');

    // A drop on itself, or into a page under itself, is no move.
    const install = await item(page, 'Install').boundingBox();
    const deploy = await item(page, 'Deploy').boundingBox();
    await page.mouse.move(install!.x + 20, install!.y + install!.height / 2);
    await page.mouse.down();
    await page.mouse.move(deploy!.x + 20, deploy!.y + deploy!.height / 2, { steps: 8 });
    assert.equal(await page.locator('.tree-item.drop-inside, .tree-item.drop-before, .tree-item.drop-after').count(), 0);
    await page.mouse.up();
    assert.deepEqual(titles((await tree())[1].pages ?? []), ['Deploy']);
    assert.deepEqual(h.problems, []);
    await context.close();
  });

  it('moves, renames and deletes pages by keyboard alone (Alt+arrows, F2, Delete), as the API then has them', async () => {
    const created = await h.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'By keyboard' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const cr = created.body.id as string;
    const pagesOf = async (): Promise<TreePage[]> => (await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content`)).body.pages;
    const until = async (what: string, check: (pages: TreePage[]) => boolean) => {
      for (let i = 0; i < 100 && !check(await pagesOf()); i++) await new Promise((resolve) => setTimeout(resolve, 100));
      assert.ok(check(await pagesOf()), `${what}: ${JSON.stringify(await pagesOf())}`);
    };
    const { page, context } = await h.signedIn(h.world.admin);
    await page.goto(`${h.base}/o/${org}/s/${spaceId}/cr/${cr}/p/${ids.Intro}`);
    const start = titles(await pagesOf());
    assert.deepEqual(start, ['Intro', 'Install', 'Deploy']);
    await item(page, 'Deploy').focus();

    await page.keyboard.press('Alt+ArrowUp');
    await until('Alt+↑ moves Deploy above Install', (pages) => titles(pages).join() === 'Intro,Deploy,Install');
    await item(page, 'Deploy').focus();
    await page.keyboard.press('Alt+ArrowRight');
    await until('Alt+→ puts Deploy under Intro', (pages) => titles(pages).join() === 'Intro,Install' && titles(pages[0].pages ?? []).join() === 'Deploy');
    await page.locator('[role="treeitem"][aria-level="2"]', { hasText: 'Deploy' }).waitFor();
    await item(page, 'Deploy').focus();
    await page.keyboard.press('Alt+ArrowLeft');
    await until('Alt+← takes Deploy out, after Intro', (pages) => titles(pages).join() === 'Intro,Deploy,Install' && (pages[0].pages ?? []).length === 0);
    await item(page, 'Deploy').focus();
    await page.keyboard.press('Alt+ArrowDown');
    await until('Alt+↓ moves Deploy below Install', (pages) => titles(pages).join() === 'Intro,Install,Deploy');

    // This test answers the prompt and the confirmation itself (the harness accepts every dialog as it is).
    page.removeAllListeners('dialog');
    page.once('dialog', (dialog) => void dialog.accept('Deploying'));
    await item(page, 'Deploy').focus();
    await page.keyboard.press('F2');
    await until('F2 renames the page', (pages) => titles(pages).join() === 'Intro,Install,Deploying');
    await item(page, 'Deploying').waitFor();

    page.once('dialog', (dialog) => void dialog.dismiss());
    await item(page, 'Deploying').focus();
    await page.keyboard.press('Delete');
    await new Promise((resolve) => setTimeout(resolve, 300));
    assert.deepEqual(titles(await pagesOf()), ['Intro', 'Install', 'Deploying'], 'a dismissed Delete deletes nothing');
    page.once('dialog', (dialog) => void dialog.accept());
    await item(page, 'Deploying').focus();
    await page.keyboard.press('Delete');
    await until('Delete, confirmed, deletes the page', (pages) => titles(pages).join() === 'Intro,Install');
    await item(page, 'Deploying').waitFor({ state: 'detached' });
    assert.deepEqual(titles((await h.world.admin.api.get(`/v1/spaces/${spaceId}/content`)).body.pages), start, 'the space is untouched until a merge');
    assert.deepEqual(h.problems, []);
    await context.close();
  });

  it('creates a group and link pages from the New… menu, sets an emoji from the tree, and drags a page into the group', async () => {
    const { page, context } = await h.signedIn(h.world.admin);
    await page.goto(`${h.base}/o/${org}/s/${spaceId}/cr/${changeRequestId}/p/${ids.Intro}`);
    await item(page, 'Intro').waitFor();

    const menu = page.getByRole('button', { name: 'New…' });
    await menu.click();
    await page.getByRole('menu', { name: 'New' }).waitFor();
    await assertAccessible(page, 'the tree with its New… menu open');
    await page.getByRole('menuitem', { name: 'Group of pages' }).click();
    await field(page, 'Title of the group').fill('Reference');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await item(page, 'Reference').waitFor();
    const group = (await tree()).find((entry) => entry.title === 'Reference');
    assert.equal(group?.type, 'group');

    // By keyboard: ↓ opens the menu on its first item.
    await menu.focus();
    await page.keyboard.press('ArrowDown');
    await page.waitForFunction(() => document.activeElement?.textContent === 'Group of pages');
    await page.keyboard.press('ArrowDown');
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Link to an address');
    await page.keyboard.press('Enter');
    await field(page, 'Title of the link').fill('Status');
    await field(page, 'Address').fill('not an address');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await page.getByText('Give a web address that starts with https://').waitFor();
    await field(page, 'Address').fill('https://status.example.com/');
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await item(page, 'Status').waitFor();
    const status = (await tree()).find((entry) => entry.title === 'Status');
    assert.equal(status?.type, 'link');
    assert.equal(status?.href, 'https://status.example.com/');

    await menu.click();
    await page.getByRole('menuitem', { name: 'Link to a page' }).click();
    await field(page, 'Title of the link').fill('Get started');
    await field(page, 'Page it opens').selectOption({ label: '— Deploy' });
    await page.getByRole('dialog').getByRole('button', { name: 'Create' }).click();
    await item(page, 'Get started').waitFor();
    const started = (await tree()).find((entry) => entry.title === 'Get started');
    assert.equal(started?.type, 'link');
    assert.deepEqual(started?.target, { kind: 'page', page: ids.Deploy });

    await item(page, 'Install').focus();
    await page.keyboard.press('e');
    await field(page, 'Emoji').fill('🚀');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-page] span[aria-hidden="true"]', { hasText: '🚀' }).waitFor();
    assert.equal((await tree()).find((entry) => entry.title === 'Install')?.emoji, '1f680');
    // An icon instead of the emoji (GitBook's page icon): the emoji goes.
    await item(page, 'Install').focus();
    await page.keyboard.press('e');
    await field(page, 'Or an icon').fill('gear');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-page] span[aria-hidden="true"]', { hasText: '[gear]' }).waitFor();
    const withIcon = (await tree()).find((entry) => entry.title === 'Install');
    assert.deepEqual([withIcon?.icon, withIcon?.emoji], ['gear', undefined]);
    await item(page, 'Install').focus();
    await page.keyboard.press('e');
    await field(page, 'Or an icon').fill('');
    await field(page, 'Emoji').fill('🚀');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.locator('[data-page] span[aria-hidden="true"]', { hasText: '🚀' }).waitFor();

    await drag(page, 'Intro', 'Reference', 0.5, 'drop-inside');
    await page.locator('[role="treeitem"][aria-level="2"]', { hasText: 'Intro' }).waitFor();
    const pages = await tree();
    assert.deepEqual(titles(pages.find((entry) => entry.title === 'Reference')?.pages ?? []), ['Intro']);
    // A group stays at the top level: it cannot be dropped into a page.
    const reference = await item(page, 'Reference').boundingBox();
    const install = await item(page, 'Install').boundingBox();
    await page.mouse.move(reference!.x + 20, reference!.y + reference!.height / 2);
    await page.mouse.down();
    await page.mouse.move(install!.x + 20, install!.y + install!.height / 2, { steps: 8 });
    assert.equal(await page.locator('.tree-item.drop-inside').count(), 0);
    await page.keyboard.press('Escape');
    await page.mouse.up();
    assert.equal((await tree()).find((entry) => entry.title === 'Reference')?.type, 'group');

    await item(page, 'Reference').click();
    await page.getByText('is a group: a heading over the pages in it').waitFor();
    await assertAccessible(page, 'the tree with a group, links and emoji');
    await h.shot(page, 'page-tree');
    assert.deepEqual(h.problems, []);
    await context.close();
  });

  it('changes where a link page points, to a page and to an address, checking the address as it is typed', async () => {
    const base = `/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content`;
    const made = await h.world.admin.api.post(`${base}/pages`, { title: 'Handy', type: 'link', href: 'https://old.example.com/' });
    assert.equal(made.status, 201, JSON.stringify(made.body));
    const link = async () => (await h.world.admin.api.get(`${base}/page/${made.body.id}`)).body as TreePage;
    const { page, context } = await h.signedIn(h.world.admin);
    await page.goto(`${h.base}/o/${org}/s/${spaceId}/cr/${changeRequestId}/p/${made.body.id}`);

    // From the link's own screen: point it at a page.
    await page.getByRole('button', { name: 'Change where it points' }).click();
    assert.equal(await field(page, 'Address').inputValue(), 'https://old.example.com/');
    await field(page, 'Page it opens').selectOption({ label: 'Install' });
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    for (let tries = 0; tries < 50 && (await link()).target?.kind !== 'page'; tries++) await page.waitForTimeout(100);
    assert.deepEqual((await link()).target, { kind: 'page', page: ids.Install });

    // From the tree by keyboard (L): back to an address; a bad one is refused as it is typed.
    await item(page, 'Handy').focus();
    await page.keyboard.press('l');
    assert.equal(await field(page, 'Page it opens').inputValue(), ids.Install);
    await field(page, 'Page it opens').selectOption({ label: 'The address below' });
    await field(page, 'Address').fill('ftp:/nowhere');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByText('Give a web address that starts with https://').waitFor();
    await field(page, 'Address').fill('https://new.example.com/path');
    await page.getByRole('dialog').getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    for (let tries = 0; tries < 50 && (await link()).target?.kind !== 'url'; tries++) await page.waitForTimeout(100);
    const after = await link();
    assert.equal(after.href, 'https://new.example.com/path');
    assert.deepEqual(after.target, { kind: 'url', url: 'https://new.example.com/path' });
    await assertAccessible(page, 'a link page with its retarget button');
    assert.deepEqual(h.problems, []);
    await context.close();
  });

  it('sets a cover from the space files and the layout options in the page properties; the published page shows them', async () => {
    const { page, context } = await h.signedIn(h.world.admin);
    await page.goto(`${h.base}/o/${org}/s/${spaceId}/cr/${changeRequestId}/p/${ids.Intro}`);
    await page.getByText('Page properties').click();
    const coverFile = page.getByLabel('Picture from the space’s files');
    await coverFile.locator('option', { hasText: 'cover.png' }).waitFor({ state: 'attached' });
    await coverFile.selectOption({ label: 'cover.png' });
    await page.locator('img.page-cover-preview').waitFor();
    await page.getByLabel('Cover size').selectOption('full');
    await page.getByLabel('Show the outline (the headings of the page)').uncheck();
    await page.getByLabel('Show previous and next links').uncheck();
    await page.locator('.save-status[data-state="saved"]').waitFor();
    await assertAccessible(page, 'the page properties with cover and layout');
    await h.shot(page, 'page-properties');

    let read: { layout?: Record<string, unknown>; cover?: { ref?: { kind: string; file?: string } } } = {};
    for (let attempt = 0; attempt < 50; attempt++) {
      read = (await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${ids.Intro}`)).body;
      if (read.layout?.pagination === false && read.cover) break;
      await page.waitForTimeout(100);
    }
    assert.equal(read.cover?.ref?.kind, 'file');
    assert.deepEqual({ coverSize: read.layout?.coverSize, outline: read.layout?.outline, pagination: read.layout?.pagination, title: read.layout?.title }, { coverSize: 'full', outline: false, pagination: false, title: true });

    // A bad address is refused in place and nothing is sent.
    await page.getByLabel('Or a picture’s address').fill('ftp:/nowhere');
    await page.getByLabel('Or a picture’s address').press('Tab');
    await page.getByText('Give an address that starts with https:// or http://.').waitFor();
    assert.equal((await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${ids.Intro}`)).body.cover.ref.kind, 'file');

    const merged = await h.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/merge`, {});
    assert.equal(merged.status, 200, JSON.stringify(merged.body));
    // Read, the space's tree sends a link page where it points.
    await page.goto(`${h.base}/o/${org}/s/${spaceId}`);
    await item(page, 'Status').waitFor();
    assert.equal(await item(page, 'Status').getAttribute('href'), 'https://status.example.com/');
    assert.equal(await item(page, 'Get started').getAttribute('href'), `/o/${org}/s/${spaceId}/p/${ids.Deploy}`);
    await item(page, 'Get started').click();
    await page.waitForURL(new RegExp(`/p/${ids.Deploy}$`));
    await page.getByText('Ship it.').waitFor();

    const site = await createSite(h.world.admin, org, { title: 'Handbook', visibility: 'public', spaces: [spaceId] });
    const reader = await (await h.browser.newContext()).newPage();
    await reader.goto(`${site.url.replace(/\/$/, '')}/reference/intro`);
    await reader.getByRole('heading', { name: 'Intro', level: 1 }).waitFor();
    const cover = reader.locator('figure.page-cover.page-cover-full img');
    await cover.waitFor();
    assert.equal(await cover.evaluate((image: HTMLImageElement) => image.complete && image.naturalWidth), 2, 'the cover picture loads');
    assert.equal(await reader.locator('.pagination').count(), 0);
    assert.equal(await reader.locator('body.without-outline').count(), 1);
    await reader.locator('.toc-heading', { hasText: 'Reference' }).waitFor();
    await reader.locator('.toc-emoji', { hasText: '🚀' }).waitFor();
    assert.equal(await reader.locator('.toc a', { hasText: 'Status' }).getAttribute('href'), 'https://status.example.com/');
    assert.match((await reader.locator('.toc a', { hasText: 'Get started' }).getAttribute('href')) ?? '', /\/install\/deploy$/);
    await reader.context().close();
    assert.deepEqual(h.problems, []);
    await context.close();
  });
});
