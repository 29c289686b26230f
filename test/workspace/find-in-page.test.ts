import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { needs } from '../helpers/system.ts';
import { assertAccessible, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Find in page in Chromium: Ctrl-F on a page being edited and on a page read in the space. The count, next and
 * previous (wrapping), match case, Replace and Replace all (one step of undo), Escape giving the focus back,
 * the saved page read through the API, and axe on the bar in light and dark.
 */
const skip = needs('chromium');

describe('find in page [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let spaceId = '';
  let cr = '';
  let pageId = '';
  let readPageId = '';

  before(async () => {
    h = await startWorkspace('sqlite');
    const { admin } = h.world;
    spaceId = (await admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Rivers' })).body.id;
    const first = (await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Read' })).body.id;
    const read = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${first}/content/pages`, { title: 'Otters', document: parseMarkdown('Otters hold hands.\n\nAn otter sleeps; the OTTER floats.\n', {}).document });
    readPageId = read.body.id;
    assert.equal((await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${first}/merge`, {})).status, 200);
    cr = (await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Find' })).body.id;
    const created = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, { title: 'Beavers', document: parseMarkdown('The dam holds.\n\nA dam, then a Dam.\n\n* one dam\n* two\n', {}).document });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    pageId = created.body.id;
  });
  after(() => h?.close());

  it('finds, moves, replaces and gives the focus back in the editor, and the saved page has the replacement', async () => {
    const { page, context } = await h.signedIn(h.world.admin);
    await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${cr}/p/${pageId}`);
    const body = page.getByRole('textbox', { name: /Body of/ });
    await page.locator('.page-body[contenteditable=true]').waitFor();
    await page.getByText('A dam, then a Dam.').click();
    await page.keyboard.press('Control+f');
    const box = page.getByRole('searchbox', { name: 'Find in page' });
    await box.waitFor();
    assert.equal(await box.evaluate((element) => element === document.activeElement), true);
    const status = page.locator('#find-count');
    await page.keyboard.type('dam');
    await status.filter({ hasText: '1 of 4' }).waitFor();
    assert.equal(await page.locator('.page-body .find-match').count(), 4);
    assert.equal(await page.locator('.page-body .find-current').textContent(), 'dam');
    await page.keyboard.press('Enter');
    await status.filter({ hasText: '2 of 4' }).waitFor();
    await page.getByRole('button', { name: 'Next match' }).click();
    await page.getByRole('button', { name: 'Next match' }).click();
    await status.filter({ hasText: '4 of 4' }).waitFor();
    await box.press('Enter');
    await status.filter({ hasText: '1 of 4' }).waitFor();
    await box.press('Shift+Enter');
    await status.filter({ hasText: '4 of 4' }).waitFor();
    await page.getByRole('button', { name: 'Previous match' }).click();
    await status.filter({ hasText: '3 of 4' }).waitFor();
    await page.getByRole('checkbox', { name: 'Match case' }).check();
    await status.filter({ hasText: '1 of 3' }).waitFor();
    assert.deepEqual(await page.locator('.page-body .find-match').allTextContents(), ['dam', 'dam', 'dam']);
    await assertAccessible(page, 'the find bar in the editor');
    await h.shot(page, 'find-in-page');

    // Replace one, then all (one step of undo), then all again.
    await page.getByRole('checkbox', { name: 'Match case' }).uncheck();
    await status.filter({ hasText: '1 of 4' }).waitFor();
    await page.getByRole('textbox', { name: 'Replace with' }).fill('weir');
    await page.getByRole('button', { name: 'Replace', exact: true }).click();
    await status.filter({ hasText: '1 of 3' }).waitFor();
    assert.equal(await page.locator('.page-body > p').first().textContent(), 'The weir holds.');
    await page.waitForTimeout(700);
    await page.getByRole('button', { name: 'Replace all' }).click();
    await status.filter({ hasText: 'No match' }).waitFor();
    assert.equal((await body.textContent())!.includes('dam'), false);
    await body.focus();
    await page.keyboard.press('Control+z');
    await page.getByText('A dam, then a Dam.').waitFor();
    assert.equal(await page.locator('.page-body > p').first().textContent(), 'The weir holds.', 'one undo takes back Replace all only');
    await status.filter({ hasText: '1 of 3' }).waitFor();
    await page.getByRole('button', { name: 'Replace all' }).click();
    await status.filter({ hasText: 'No match' }).waitFor();

    // Escape closes the bar and the caret is back in the editor, where it was.
    await box.focus();
    await page.keyboard.press('Escape');
    await box.waitFor({ state: 'detached' });
    assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('page-body')), true);
    assert.equal(await page.locator('.page-body .find-match').count(), 0);
    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 20_000 });
    let markdown = '';
    for (let attempt = 0; attempt < 50 && !markdown.includes('weir, then a weir'); attempt++) {
      const saved = await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}?format=markdown`);
      markdown = String(saved.body.markdown);
      if (!markdown.includes('weir, then a weir')) await page.waitForTimeout(200);
    }
    assert.match(markdown, /The weir holds\.\n\nA weir, then a weir\.\n\n\* one weir\n/);
    assert.equal(/dam/i.test(markdown), false, markdown);
    await context.close();
    assert.deepEqual(h.problems, []);
  });

  it('finds in a page read in the space, with highlights, and gives the focus back', async () => {
    const { page, context } = await h.signedIn(h.world.members.read);
    await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/p/${readPageId}`);
    await page.getByText('Otters hold hands.').waitFor();
    const link = page.getByRole('link').first();
    await link.focus();
    await page.keyboard.press('Control+f');
    // Typed at once, as a person does right after Ctrl+F: no letter may go to the page before the bar has the focus.
    await page.keyboard.type('otter');
    const box = page.getByRole('searchbox', { name: 'Find in page' });
    await box.waitFor();
    assert.equal(await box.inputValue(), 'otter', 'every letter typed right after Ctrl+F reaches the find box');
    assert.equal(await page.getByRole('textbox', { name: 'Replace with' }).count(), 0, 'nothing to replace in a page read');
    const status = page.locator('#find-count');
    // The title and the three in the body.
    await status.filter({ hasText: '1 of 4' }).waitFor();
    assert.equal(await page.evaluate(() => (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('find-match')?.size), 4);
    await box.press('Shift+Enter');
    await status.filter({ hasText: '4 of 4' }).waitFor();
    assert.equal(await page.evaluate(() => [...(CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.get('find-current')!][0].toString()), 'OTTER');
    await page.getByRole('checkbox', { name: 'Match case' }).check();
    await status.filter({ hasText: '1 of 1' }).waitFor();
    await assertAccessible(page, 'the find bar on a page read');
    await box.press('Escape');
    await box.waitFor({ state: 'detached' });
    assert.equal(await link.evaluate((element) => element === document.activeElement), true);
    assert.equal(await page.evaluate(() => (CSS as unknown as { highlights: Map<string, Set<Range>> }).highlights.has('find-match')), false);
    await context.close();
    assert.deepEqual(h.problems, []);
  });
});
