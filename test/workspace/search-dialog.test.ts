import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { dialects } from '../helpers/app.ts';
import { needs } from '../helpers/system.ts';
import { runJobs } from '../git/helpers.ts';
import { assertAccessible, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * The organization's search dialog in Chromium: Ctrl-K opens it from any screen, typing shows the pages the
 * search operation finds for the person (across spaces), ↓ and Enter open the chosen page, Escape closes it
 * and gives focus back.
 */
const skip = needs('chromium');

for (const dialect of dialects) {
  describe(`the search dialog [${dialect}]`, { skip }, () => {
    let h: WorkspaceHarness;
    let org = '';
    const pageIds: Record<string, string> = {};

    before(async () => {
      h = await startWorkspace(dialect);
      const { admin } = h.world;
      org = h.world.organizationId;
      for (const [space, title, markdown] of [
        ['Handbook', 'Otters', 'Otters hold hands while they sleep.\n'],
        ['Guides', 'Rivers', 'Where otters live: rivers and coasts.\n'],
      ]) {
        const spaceId = (await admin.api.post(`/v1/orgs/${org}/spaces`, { title: space })).body.id;
        const cr = (await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Pages' })).body.id;
        const page = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, { title, document: parseMarkdown(markdown, {}).document });
        pageIds[title] = page.body.id;
        assert.equal((await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/merge`, {})).status, 200);
      }
      await runJobs(h.t.ctx);
    });
    after(() => h?.close());

    it('opens with Ctrl-K, finds pages across spaces, and opens the chosen one by keyboard', async () => {
      const { page, context } = await h.signedIn(h.world.members.read);
      await page.goto(`${h.base}/o/${org}`);
      await page.getByRole('heading', { name: 'Spaces' }).waitFor();
      await page.keyboard.press('Control+k');
      const box = page.getByRole('combobox', { name: 'Search pages in this organization' });
      await box.waitFor();
      assert.equal(await box.evaluate((element) => element === document.activeElement), true);
      await page.keyboard.type('otters');
      await page.getByText(/pages? found/).waitFor();
      const titles = await page.getByRole('option').locator('.search-result-title').allTextContents();
      const api = await h.world.members.read.api.get(`/v1/orgs/${org}/search?query=otters`);
      const expected = api.body.items.flatMap((space: { pages: Array<{ title: string }> }) => space.pages.map((p) => p.title));
      assert.deepEqual(titles, expected, 'the dialog shows what the search operation answers');
      assert.ok(titles.includes('Otters') && titles.includes('Rivers'), JSON.stringify(titles));
      await assertAccessible(page, 'the search dialog');
      await h.shot(page, 'search');

      await page.keyboard.press('ArrowDown');
      const chosen = titles[1];
      assert.equal(await page.getByRole('option', { selected: true }).locator('.search-result-title').textContent(), chosen);
      await page.keyboard.press('Enter');
      await page.waitForURL(new RegExp(`/p/${pageIds[chosen]}$`));
      await page.getByRole('heading', { name: chosen, level: 1 }).waitFor();
      assert.equal(await page.locator('dialog[open]').count(), 0);

      // Escape closes it and the focus goes back where it was.
      await page.getByRole('button', { name: /^Search/ }).focus();
      await page.keyboard.press('Meta+k');
      await box.waitFor();
      await page.keyboard.press('Escape');
      await page.locator('dialog[open]').waitFor({ state: 'detached' });
      assert.equal(await page.evaluate(() => document.activeElement?.textContent?.startsWith('Search')), true);
      await page.keyboard.press('Control+k');
      await box.waitFor();
      await box.fill('zzzqqq');
      await page.getByText('No page matches “zzzqqq”.').waitFor();
      await context.close();
      assert.deepEqual(h.problems, []);
    });

    it('lists the keyboard shortcuts on ?, but not while typing', async () => {
      const { page, context } = await h.signedIn(h.world.admin);
      await page.goto(`${h.base}/o/${org}`);
      await page.getByRole('heading', { name: 'Spaces' }).waitFor();
      await page.keyboard.press('?');
      const title = page.getByRole('heading', { name: 'Keyboard shortcuts' });
      await title.waitFor();
      await page.getByRole('cell', { name: 'Search every space' }).waitFor();
      await assertAccessible(page, 'the shortcuts dialog');
      await h.shot(page, 'shortcuts');
      await page.keyboard.press('Escape');
      await title.waitFor({ state: 'hidden' });
      // In a text field, ? is a character.
      await page.getByRole('button', { name: 'New space' }).click();
      await page.getByLabel('Title').fill('');
      await page.getByLabel('Title').press('?');
      assert.equal(await page.getByLabel('Title').inputValue(), '?');
      assert.equal(await title.isVisible(), false);
      await context.close();
      assert.deepEqual(h.problems, []);
    });
  });
}
