import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { dialects } from '../helpers/app.ts';
import { needs } from '../helpers/system.ts';
import { assertAccessible, startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * Block handles and undo/redo in Chromium (decision 0129), on pages of a change request (open live): a
 * paragraph dragged below a code block by its handle with the mouse, moved back with Ctrl Shift ↑, moved down
 * again from the handle's menu by keyboard; a read-only block (one the editor cannot change) moved and deleted
 * whole; and type, format, insert a paragraph, move it above the first, then undo and redo each step (Ctrl Z, Ctrl Shift Z,
 * Ctrl Y), the document checked at each step and the saved Markdown after the last redo; and a key pressed on a
 * selection the browser has not reported yet acts on that selection.
 */
const skip = needs('chromium');

/** The top-level blocks as drawn: tag and inner HTML, which shows the marks. */
const blocks = (page: Page) => page.locator('.page-body').evaluate((body) => [...body.children].map((child) => `${child.tagName.toLowerCase()}:${child.innerHTML}`));
/** The top-level blocks' texts. */
const texts = (page: Page) => page.locator('.page-body').evaluate((body) => [...body.children].map((child) => (child as HTMLElement).innerText.trim()));

for (const dialect of dialects) {
  describe(`block handles and undo/redo [${dialect}]`, { skip }, () => {
    let h: WorkspaceHarness;
    let spaceId = '';
    let cr = '';

    async function createPage(title: string, document: ReturnType<typeof parseMarkdown>['document']): Promise<string> {
      const created = await h.world.admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, { title, document });
      assert.equal(created.status, 201, JSON.stringify(created.body));
      return created.body.id;
    }

    /** Waits until the page's Markdown, as the API reads it from the change request, passes `check`. */
    async function savedMarkdown(page: Page, pageId: string, check: (markdown: string) => boolean): Promise<string> {
      let markdown = '';
      for (let attempt = 0; attempt < 100; attempt++) {
        markdown = String((await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}?format=markdown`)).body.markdown);
        if (check(markdown)) return markdown;
        await page.waitForTimeout(200);
      }
      assert.fail(`the saved Markdown never matched:\n${markdown}`);
    }

    async function open(pageId: string): Promise<{ page: Page; close: () => Promise<void> }> {
      const { page, context } = await h.signedIn(h.world.admin);
      await page.goto(`${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${cr}/p/${pageId}`);
      await page.locator('.page-body[contenteditable=true]').waitFor();
      await page.locator('[data-live-state="live"]').waitFor({ timeout: 20_000 });
      await page.locator('.page-body > *').first().filter({ hasText: /\S/ }).waitFor({ timeout: 20_000 });
      return { page, close: () => context.close() };
    }

    /** Drags the handle of the block `from` (hovered first, so the handle is beside it) to just above the bottom of `to`. */
    async function drag(page: Page, from: string, to: string): Promise<void> {
      const source = page.locator('.page-body > *').filter({ hasText: from }).first();
      await source.hover();
      const handle = page.locator('.block-handle');
      await page.waitForFunction((text) => document.querySelector('.block-handle')?.getAttribute('aria-label')?.includes('Block') && [...document.querySelector('.page-body')!.children].some((child) => (child as HTMLElement).innerText.includes(text)), from);
      const start = (await handle.boundingBox())!;
      const target = (await page.locator('.page-body > *').filter({ hasText: to }).first().boundingBox())!;
      await page.mouse.move(start.x + start.width / 2, start.y + start.height / 2);
      await page.mouse.down();
      for (const step of [0.25, 0.5, 0.75, 1]) await page.mouse.move(start.x + start.width / 2, start.y + (target.y + target.height - 3 - start.y) * step, { steps: 2 });
      await page.mouse.up();
    }

    before(async () => {
      h = await startWorkspace(dialect);
      const { admin } = h.world;
      spaceId = (await admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Handles' })).body.id;
      cr = (await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Moves' })).body.id;
    });
    after(() => h?.close());

    it('drags a paragraph below a code block with the mouse, and moves it by keyboard (shortcut and menu)', async () => {
      const pageId = await createPage('Moves', parseMarkdown('Move me.\n\n```js\nconst a = 1;\n```\n\nStays last.\n', {}).document);
      const { page, close } = await open(pageId);
      assert.deepEqual(await texts(page), ['Move me.', 'const a = 1;', 'Stays last.']);

      await drag(page, 'Move me.', 'const a = 1;');
      await page.waitForFunction(() => document.querySelector('.page-body')!.firstElementChild!.tagName === 'PRE');
      assert.deepEqual(await texts(page), ['const a = 1;', 'Move me.', 'Stays last.']);
      await savedMarkdown(page, pageId, (markdown) => /^```js\nconst a = 1;\n```\n\nMove me\.\n\nStays last\.\n$/.test(markdown));

      // Ctrl Shift ↑ moves the block the caret is in above the code block again; the caret stays in it.
      await page.getByText('Move me.').click();
      await page.keyboard.press('Control+Shift+ArrowUp');
      await page.waitForFunction(() => document.querySelector('.page-body')!.firstElementChild!.tagName === 'P');
      assert.deepEqual(await texts(page), ['Move me.', 'const a = 1;', 'Stays last.']);
      await page.keyboard.type('!');
      await page.locator('.page-body > p').filter({ hasText: '!' }).waitFor();
      assert.equal((await texts(page))[0].includes('!'), true, 'the caret moved with its block');
      await savedMarkdown(page, pageId, (markdown) => markdown.startsWith('Move me') && markdown.includes('!') && markdown.indexOf('Move me') < markdown.indexOf('```js'));

      // By keyboard from the handle: Tab from the text reaches it (beside the caret's block), Enter opens its menu.
      await page.keyboard.press('Home');
      await page.keyboard.press('Tab');
      const handle = page.locator('.block-handle');
      assert.equal(await handle.evaluate((element) => element === document.activeElement), true, 'Tab from the text reaches the handle');
      assert.match((await handle.getAttribute('aria-label'))!, /^Block 1 of 3 \(paragraph\)/);
      await page.keyboard.press('Enter');
      const menu = page.getByRole('menu', { name: 'Block' });
      await menu.waitFor();
      assert.equal(await page.getByRole('menuitem', { name: 'Move up' }).getAttribute('aria-disabled'), 'true');
      await assertAccessible(page, 'the block menu');
      await h.shot(page, 'block-menu');
      // The first item it can do has the focus: Move up cannot, on the first block.
      assert.equal(await page.getByRole('menuitem', { name: 'Move down' }).evaluate((element) => element === document.activeElement), true);
      await page.keyboard.press('Enter');
      await menu.waitFor({ state: 'detached' });
      await page.waitForFunction(() => document.querySelector('.page-body')!.firstElementChild!.tagName === 'PRE', undefined, { timeout: 5_000 }).catch(async () => assert.fail(`not moved down: ${JSON.stringify(await blocks(page))} ${h.problems.join(" | ")}`));
      assert.deepEqual((await texts(page)).map((text) => text.replace('!', '')), ['const a = 1;', 'Move me.', 'Stays last.']);
      assert.equal(await page.evaluate(() => document.activeElement?.classList.contains('page-body')), true, 'the focus is back in the text');
      await savedMarkdown(page, pageId, (markdown) => /^```js\nconst a = 1;\n```\n\n(Move me\.!|!Move me\.)\n\nStays last\.\n$/.test(markdown));
      await close();
      assert.deepEqual(h.problems, []);
    });

    it('keeps the handle beside its block when the caret leaves a tall block, and when the text rewraps', async () => {
      const long = 'A long first paragraph that wraps onto more lines when the window narrows. '.repeat(8).trim();
      const pageId = await createPage('Rewrap', parseMarkdown(`${long}\n\nThe caret's block.\n`, {}).document);
      const { page, close } = await open(pageId);
      await page.locator('.page-body > p').filter({ hasText: "The caret's block." }).click();
      /** How far the handle's top is from its block's (the caret's, the mouse being away). */
      const offset = () => page.evaluate(() => {
        const block = [...document.querySelectorAll('.page-body > p')].pop()!.getBoundingClientRect().top;
        return Math.abs(document.querySelector('.block-handle')!.getBoundingClientRect().top - block);
      });
      await page.mouse.move(1, 1);
      await page.waitForFunction(() => document.querySelector('.block-handle')?.getAttribute('aria-label')?.startsWith('Block 2 of 2'));
      // Placed in the frame after the click.
      await page.evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))));
      const before = await offset();
      // The first block, left by the caret, is skipped from then on, at the height it had (not the estimate's).
      assert.ok(before < 2, `the handle is ${before} px from the caret's block`);
      const blockTop = () => page.evaluate(() => [...document.querySelectorAll('.page-body > p')].pop()!.getBoundingClientRect().top);
      const wide = await blockTop();
      await page.setViewportSize({ width: 700, height: 900 });
      await page.waitForFunction((top) => [...document.querySelectorAll('.page-body > p')].pop()!.getBoundingClientRect().top > top + 20, wide);
      await page.waitForFunction((expected) => {
        const block = [...document.querySelectorAll('.page-body > p')].pop()!.getBoundingClientRect().top;
        return Math.abs(Math.abs(document.querySelector('.block-handle')!.getBoundingClientRect().top - block) - expected) < 2;
      }, before, { timeout: 5_000 }).catch(async () => assert.fail(`the handle stayed behind: ${await offset()} px from its block, ${before} before`));
      await close();
      assert.deepEqual(h.problems, []);
    });

    it('moves and deletes a read-only block whole, and saves it as it was', async () => {
      // A hint with nothing in it is beyond the editor's hint: shown read-only, kept as read.
      const pageId = await createPage('Kept', parseMarkdown('Before\n\n{% hint style="info" %}\n{% endhint %}\n\nAfter\n', {}).document);
      const original = String((await h.world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${cr}/content/page/${pageId}?format=markdown`)).body.markdown);
      const keptMarkdown = original.slice(original.indexOf('\n\n') + 2, original.lastIndexOf('\n\nAfter'));
      const { page, close } = await open(pageId);
      await page.locator('.page-body > .opaque-block').waitFor();
      assert.deepEqual(await page.locator('.page-body').evaluate((body) => [...body.children].map((child) => child.className.includes('opaque-block') ? 'opaque' : child.textContent)), ['Before', 'opaque', 'After']);

      // Dragged by its handle below "After".
      await drag(page, 'shown as written', 'After');
      await page.waitForFunction(() => [...document.querySelector('.page-body')!.children].filter((child) => child.textContent).pop()!.classList.contains('opaque-block'), undefined, { timeout: 5_000 }).catch(async () => assert.fail(`not dragged: ${JSON.stringify(await blocks(page))} ${await page.locator('.block-handle').getAttribute('aria-label')}`));
      await savedMarkdown(page, pageId, (markdown) => markdown.trimEnd() === `Before\n\nAfter\n\n${keptMarkdown}`);

      // Selected (a click selects it whole), then Ctrl Shift ↑ twice: to the top.
      await page.locator('.page-body > .opaque-block').click();
      await page.keyboard.press('Control+Shift+ArrowUp');
      await page.keyboard.press('Control+Shift+ArrowUp');
      await page.waitForFunction(() => document.querySelector('.page-body')!.firstElementChild!.classList.contains('opaque-block'));
      await savedMarkdown(page, pageId, (markdown) => markdown.trimEnd() === `${keptMarkdown}\n\nBefore\n\nAfter`);

      // Deleted whole from the handle's menu.
      await page.locator('.page-body > .opaque-block').hover();
      await page.locator('.block-handle[aria-label*="read-only block"]').click();
      await page.getByRole('menuitem', { name: 'Delete' }).click();
      await page.locator('.page-body > .opaque-block').waitFor({ state: 'detached' });
      await savedMarkdown(page, pageId, (markdown) => markdown.trimEnd() === 'Before\n\nAfter');
      await close();
      assert.deepEqual(h.problems, []);
    });

    it('applies a key to the selection on screen, even before the browser has reported it (selection-sync.ts)', async () => {
      const pageId = await createPage('Reported late', parseMarkdown('Start. More\n', {}).document);
      const { page, close } = await open(pageId);
      await page.getByText('Start. More').click();
      // The selection moved and Ctrl+B pressed in one task: the selectionchange event comes only after, as it
      // does behind queued input on a busy page.
      await page.evaluate(() => {
        const text = document.querySelector('.page-body > p')!.firstChild!;
        getSelection()!.setBaseAndExtent(text, 7, text, 11);
        document.querySelector('.page-body')!.dispatchEvent(new KeyboardEvent('keydown', { key: 'b', code: 'KeyB', keyCode: 66, ctrlKey: true, bubbles: true, cancelable: true }));
      });
      await page.locator('.page-body strong').waitFor({ timeout: 10_000 });
      assert.equal(await page.locator('.page-body strong').textContent(), 'More');
      await savedMarkdown(page, pageId, (markdown) => markdown === 'Start. **More**\n');
      await close();
      assert.deepEqual(h.problems, []);
    });

    it('undoes and redoes typing, a mark, a new block and a move, step by step, and saves the redone page', async () => {
      const pageId = await createPage('Steps', parseMarkdown('Start.\n', {}).document);
      const { page, close } = await open(pageId);
      // Each step after a pause, so the shared document's undo keeps it a step of its own.
      const pause = () => page.waitForTimeout(800);
      const states = [await blocks(page)];
      await page.getByText('Start.').click();
      await page.keyboard.press('End');
      await page.keyboard.type(' More');
      await page.locator('.page-body > p').filter({ hasText: 'Start. More' }).waitFor();
      states.push(await blocks(page));
      await pause();
      await page.keyboard.press('End');
      for (let i = 0; i < 4; i++) await page.keyboard.press('Shift+ArrowLeft');
      await page.waitForFunction(() => getSelection()?.toString() === 'More');
      await page.keyboard.press('Control+b');
      await page.locator('.page-body strong').filter({ hasText: 'More' }).waitFor();
      states.push(await blocks(page));
      await pause();
      await page.keyboard.press('End');
      await page.keyboard.press('Enter');
      // A new paragraph, in plain text (it would go on in bold).
      await page.keyboard.press('Control+b');
      await page.keyboard.type('Second.');
      await page.locator('.page-body > p').filter({ hasText: 'Second.' }).waitFor();
      states.push(await blocks(page));
      await pause();
      await page.keyboard.press('Control+Shift+ArrowUp');
      await page.waitForFunction(() => document.querySelector('.page-body')!.firstElementChild!.textContent === 'Second.');
      states.push(await blocks(page));
      assert.deepEqual(states[4], ['p:Second.', 'p:Start. <strong>More</strong>']);
      await pause();

      const at = async (index: number, what: string) => {
        await page.waitForFunction((expected) => JSON.stringify([...document.querySelector('.page-body')!.children].map((child) => `${child.tagName.toLowerCase()}:${child.innerHTML}`)) === expected, JSON.stringify(states[index]), { timeout: 5_000 }).catch(async () => {
          assert.deepEqual(await blocks(page), states[index], what);
        });
      };
      for (let step = 3; step >= 0; step--) {
        await page.keyboard.press('Control+z');
        await at(step, `after undo back to step ${step}`);
      }
      for (let step = 1; step <= 4; step++) {
        await page.keyboard.press(step % 2 ? 'Control+Shift+z' : 'Control+y');
        await at(step, `after redo to step ${step}`);
      }
      await page.keyboard.press('Control+z');
      await at(3, 'undo of the move again');
      await page.keyboard.press('Control+y');
      await at(4, 'redo of the move again');
      await savedMarkdown(page, pageId, (markdown) => /^Second\.\n\nStart\. \*\*More\*\*\n$/.test(markdown));
      await close();
      assert.deepEqual(h.problems, []);
    });
  });
}
