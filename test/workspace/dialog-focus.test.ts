import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Page } from 'playwright-core';
import { parseMarkdown } from '../../src/content/markdown/index.ts';
import { needs } from '../helpers/system.ts';
import { startWorkspace, type WorkspaceHarness } from './support.ts';

/**
 * A key typed right after an editor dialog closes lands in the editor, where the caret was: each kind of dialog
 * (a block inserted from the slash menu, a block edited by Enter and by its Edit button, an inline inserted and
 * edited, a link by Ctrl-K, a card's link, a dialog cancelled by Escape) is closed by the keyboard or a click,
 * and the next keys are typed at once, without waiting for the editor to have the focus back.
 */
const skip = needs('chromium');

describe('keys typed right after an editor dialog closes [sqlite]', { skip }, () => {
  let h: WorkspaceHarness;
  let url = '';

  before(async () => {
    h = await startWorkspace('sqlite');
    const { admin } = h.world;
    const spaceId = (await admin.api.post(`/v1/orgs/${h.world.organizationId}/spaces`, { title: 'Dialogs' })).body.id;
    const cr = (await admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Focus' })).body.id;
    const markdown = 'First line.\n\n{% embed url="https://example.com/one" %}\n\nAfter the embed.\n\nLast line.\n';
    const created = await admin.api.post(`/v1/spaces/${spaceId}/change-requests/${cr}/content/pages`, { title: 'Focus', document: parseMarkdown(markdown, {}).document });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    url = `${h.base}/o/${h.world.organizationId}/s/${spaceId}/cr/${cr}/p/${created.body.id}`;
  });
  after(() => h?.close());

  /** The text of each top-level block of the body, as drawn. */
  const blocks = (page: Page) => page.locator('.page-body > *').evaluateAll((elements) => elements.map((element) => (element as HTMLElement).innerText.trim()));

  /** The end of the paragraph whose text starts with `start`. */
  async function caretAtEnd(page: Page, start: string): Promise<void> {
    await page.locator('.page-body > p', { hasText: start }).first().click();
    await page.keyboard.press('End');
  }

  it('puts every key typed after a dialog closes into the editor, at the caret', async () => {
    const { page, context } = await h.signedIn(h.world.admin);
    await page.goto(url);
    await page.locator('.page-body[contenteditable=true]').waitFor();
    await page.locator('.page-body .void-embed').waitFor();
    const dialog = page.locator('dialog.editor-dialog[open]');

    // A block from the slash menu, confirmed with Enter in its field.
    await caretAtEnd(page, 'Last line.');
    await page.keyboard.press('Enter');
    await page.keyboard.type('/embed');
    await page.locator('#slash-menu [role=option][aria-selected=true]').waitFor();
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Address to embed').fill('https://example.com/two');
    await dialog.getByLabel('Address to embed').press('Enter');
    await page.keyboard.type('Typed after inserting.');
    await page.locator('.page-body > p', { hasText: 'Typed after inserting.' }).waitFor();
    let now = await blocks(page);
    assert.equal(now.at(-1), 'Typed after inserting.', JSON.stringify(now));
    assert.match(now.at(-2)!, /example\.com\/two/);

    // An inline from the slash menu, confirmed with a click on Insert.
    await caretAtEnd(page, 'First line.');
    await page.keyboard.type(' Wave /emoji');
    await page.locator('#slash-menu [role=option][aria-selected=true]').waitFor();
    await page.keyboard.press('Enter');
    await dialog.getByLabel(/^Emoji/).fill('👋');
    await dialog.getByRole('button', { name: 'Insert' }).click();
    await page.keyboard.type(' hello');
    await page.locator('.page-body > p', { hasText: 'hello' }).waitFor();
    now = await blocks(page);
    assert.equal(now[0], 'First line. Wave 👋 hello', JSON.stringify(now));

    // A link by Ctrl-K with nothing selected: its text and address, then the sentence goes on.
    await page.keyboard.type(' see');
    await page.keyboard.press('Control+k');
    await dialog.getByLabel('Text', { exact: true }).fill('docs');
    await dialog.getByLabel('Or an address').fill('https://example.com/docs');
    await dialog.getByLabel('Or an address').press('Enter');
    await page.keyboard.type(' now');
    await page.locator('.page-body > p', { hasText: 'now' }).waitFor();
    now = await blocks(page);
    assert.equal(now[0], 'First line. Wave 👋 hello seedocs now', JSON.stringify(now));
    assert.equal(await page.locator('.page-body a', { hasText: 'docs' }).count(), 1);

    // The slash menu's dialog cancelled with Escape: the "/embed" is gone and the caret is where it was.
    await caretAtEnd(page, 'After the embed.');
    await page.keyboard.type(' /embed');
    await page.locator('#slash-menu [role=option][aria-selected=true]').waitFor();
    await page.keyboard.press('Enter');
    await dialog.waitFor();
    await page.keyboard.press('Escape');
    await page.keyboard.type('kept');
    await page.locator('.page-body > p', { hasText: 'kept' }).waitFor();
    now = await blocks(page);
    assert.ok(now.includes('After the embed. kept'), JSON.stringify(now));

    // A block edited by Enter once selected (a click on its card selects it), applied by Enter.
    await page.locator('.page-body .void-embed .void-title').first().click();
    await page.locator('.page-body .ProseMirror-selectednode').waitFor();
    await page.keyboard.press('Enter');
    await dialog.getByLabel('Address to embed').fill('https://example.com/three');
    await dialog.getByLabel('Address to embed').press('Enter');
    await page.keyboard.press('ArrowDown');
    await page.keyboard.type('Below: ');
    await page.locator('.page-body > p', { hasText: 'Below:' }).waitFor();
    now = await blocks(page);
    assert.match(now[1], /example\.com\/three/, JSON.stringify(now));
    assert.equal(now[2], 'Below: After the embed. kept', JSON.stringify(now));

    // A block edited through its Edit button (a click): the keys go back to where the caret was.
    await caretAtEnd(page, 'Below:');
    await page.getByRole('button', { name: 'Edit embed' }).first().click();
    await dialog.getByLabel('Address to embed').fill('https://example.com/four');
    await dialog.getByRole('button', { name: 'Apply' }).click();
    await page.keyboard.type(' again');
    await page.locator('.page-body > p', { hasText: 'again' }).waitFor();
    now = await blocks(page);
    assert.match(now[1], /example\.com\/four/, JSON.stringify(now));
    assert.equal(now[2], 'Below: After the embed. kept again', JSON.stringify(now));

    // An inline edited by double-click, applied by Enter: the caret is after it.
    await page.locator('.page-body .inline-emoji').dblclick();
    await dialog.getByLabel(/^Emoji/).fill('🎉');
    await dialog.getByLabel(/^Emoji/).press('Enter');
    await page.keyboard.type('!');
    await page.locator('.page-body > p', { hasText: '🎉!' }).waitFor();
    now = await blocks(page);
    assert.equal(now[0], 'First line. Wave 🎉! hello seedocs now', JSON.stringify(now));

    await context.close();
    assert.deepEqual(h.problems, []);
  });
});
