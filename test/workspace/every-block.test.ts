import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { launchChromium } from '../helpers/chromium.ts';
import { createTestApp, type TestApp } from '../helpers/app.ts';
import { addFile, createSpace, editContent } from '../helpers/content-factory.ts';
import { createWorld, type World } from '../helpers/factories.ts';
import { needs } from '../helpers/system.ts';
import { drainJobs, fixture } from '../openapi/helpers.ts';
import { parseMarkdown, renderMarkdown } from '../../src/content/markdown/index.ts';
import { createSession } from '../../src/sessions/store.ts';
import { assertAccessible, freePort } from './support.ts';

/**
 * Every block and inline of the document model written through the editor in Chromium (the slash menu, the
 * Markdown shortcuts, the dialogs, the table's keys and toolbar, paste and the files panel), saved, and the
 * page's Markdown checked: it has each construct, and it is what importing that Markdown gives. The
 * Content-Security-Policy is enforced throughout, so KaTeX and the dialogs are shown to work under it.
 */
const skip = needs('chromium');

/** A 2×2 PNG, the space's picture. */
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAAWBAEBtC4VLgAAAABJRU5ErkJggg==', 'base64');

describe('every block through the editor [sqlite]', { skip }, () => {
  let t: TestApp;
  let world: World;
  let base: string;
  let browser: Browser;
  let page: Page;
  const problems: string[] = [];
  let spaceId = '';
  let changeRequestId = '';
  let pageId = '';
  let targetPageId = '';
  let fileId = '';

  before(async () => {
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    t = await createTestApp('sqlite', { QUIRE_PUBLIC_URL: base });
    await t.app.listen({ host: '127.0.0.1', port });
    world = await createWorld(t.ctx, t.app, t.clock);
    // A space with a page to link to and a picture, an OpenAPI description in the organization.
    spaceId = await createSpace(t.ctx, world.organizationId, { title: 'Handbook' });
    await editContent(t.ctx, spaceId, async (writer) => {
      fileId = await addFile(t.ctx, writer, { name: 'diagram.png', contentType: 'image/png', bytes: PNG, dimensions: { width: 2, height: 2 } });
      targetPageId = writer.addPage({ type: 'document', title: 'Target page', markdown: '## Setup\n' });
    });
    const spec = await world.admin.api.post(`/v1/orgs/${world.organizationId}/openapi`, { slug: 'petstore', source: { text: fixture('petstore-3.0.yaml') } });
    assert.equal(spec.status, 201, JSON.stringify(spec.body));
    await drainJobs(t);
    const created = await world.admin.api.post(`/v1/spaces/${spaceId}/change-requests`, { subject: 'Every block' });
    assert.equal(created.status, 201, JSON.stringify(created.body));
    changeRequestId = created.body.id;
    const newPage = await world.admin.api.post(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/pages`, { title: 'All blocks' });
    assert.equal(newPage.status, 201, JSON.stringify(newPage.body));
    pageId = newPage.body.id;

    browser = await launchChromium();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const { secret } = await createSession(t.ctx, { userId: world.admin.id, method: 'password', device: 'Chromium test', ip: '127.0.0.1' });
    await context.addCookies([{ name: 'quire_session', value: secret, url: base, httpOnly: true, sameSite: 'Lax' }]);
    page = await context.newPage();
    page.on('console', (message) => {
      if ((message.type() === 'error' && !message.text().startsWith('Failed to load resource')) || /Content.Security.Policy|Refused to/i.test(message.text())) problems.push(message.text());
    });
    page.on('response', (response) => {
      if (response.status() >= 400 && new URL(response.url()).pathname !== '/favicon.ico') problems.push(`${response.status()} ${response.url()}`);
    });
    page.on('pageerror', (error) => problems.push(error.message));
  });
  after(async () => {
    await browser?.close();
    await t?.close();
  });

  /** Types `/query` and picks the first block the slash menu offers. */
  async function slash(query: string): Promise<void> {
    await page.keyboard.type(`/${query}`);
    await page.locator('#slash-menu [role=option][aria-selected=true]').waitFor();
    await page.keyboard.press('Enter');
  }

  /** The end of the page's last paragraph (a new one is made by the blocks that end a page). */
  async function lastParagraph(): Promise<void> {
    await page.locator('.page-body > p').last().click();
    await page.keyboard.press('End');
  }

  /** The open dialog: fills what is given (by label), then confirms. */
  async function dialog(fields: Record<string, string | { option: string }>, confirm = 'Insert', checkAccessible = false): Promise<void> {
    const open = page.locator('dialog.editor-dialog[open]');
    await open.waitFor();
    if (checkAccessible) await assertAccessible(page, 'a block\'s dialog');
    for (const [label, value] of Object.entries(fields)) {
      const field = open.getByLabel(label, { exact: true });
      if (typeof value === 'string') await field.fill(value);
      else {
        await field.locator('option', { hasText: value.option }).first().waitFor({ state: 'attached' });
        await field.selectOption({ label: value.option });
      }
    }
    await open.getByRole('button', { name: confirm }).click();
    await open.waitFor({ state: 'detached' });
    // The editor takes the focus back at its next frame: keys typed before then would go elsewhere.
    await page.locator('.page-body.ProseMirror-focused').waitFor();
  }

  async function paste(data: Record<string, string>): Promise<void> {
    await page.evaluate((items) => {
      const transfer = new DataTransfer();
      for (const [type, value] of Object.entries(items)) transfer.setData(type, value);
      document.querySelector('.page-body')!.dispatchEvent(new ClipboardEvent('paste', { clipboardData: transfer, bubbles: true, cancelable: true }));
    }, data);
  }

  it('writes each block and inline, saves, and the Markdown is what importing it gives', async (context) => {
    context.after(async () => {
      if (process.env.EVERY_BLOCK_DEBUG) {
        const { writeFileSync } = await import('node:fs');
        writeFileSync('/tmp/every-block.html', await page.content());
        await page.screenshot({ path: '/tmp/every-block.png', fullPage: true });
        writeFileSync('/tmp/every-block-problems.txt', problems.join('\n'));
      }
    });
    await page.goto(`${base}/o/${world.organizationId}/s/${spaceId}/cr/${changeRequestId}/p/${pageId}`);
    const body = page.getByRole('textbox', { name: /Body of/ });
    await body.click();
    await page.keyboard.type('Blocks of every kind.');
    await page.keyboard.press('Enter');

    // A table: cells by Tab and Shift-Tab, a row and a column added, the second column centred.
    await slash('table');
    // The header row's cells say "Column 1"…: each is replaced (Tab selects the next cell's text).
    await page.locator('.page-body th').first().click();
    await page.keyboard.press('End');
    await page.keyboard.press('Shift+Home');
    await page.keyboard.type('Name');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Size');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Note');
    await page.keyboard.press('Tab');
    await page.keyboard.type('alpha');
    await page.keyboard.press('Tab');
    await page.keyboard.type('1');
    await page.keyboard.press('Shift+Tab');
    await page.keyboard.press('End');
    await page.keyboard.type(' **one**');
    await page.locator('.table-toolbar').first().getByRole('button', { name: 'Delete row' }).waitFor();
    await page.locator('.page-body td').nth(1).click();
    await page.locator('.table-toolbar').first().getByRole('button', { name: 'Align center' }).click();
    await page.locator('.table-toolbar').first().getByRole('button', { name: 'Add column' }).click();
    // The last row (empty) is deleted.
    await page.locator('.page-body tr').last().locator('td').first().click();
    await page.locator('.table-toolbar').first().getByRole('button', { name: 'Delete row' }).click();
    await lastParagraph();

    // Cards: a card's text, its link to a page and its cover picture.
    await slash('cards');
    await page.locator('.table-cards td').first().click();
    await page.keyboard.type('Quickstart');
    await page.keyboard.press('Tab');
    await page.keyboard.type('Five minutes.');
    await page.locator('.table-block').nth(1).getByRole('button', { name: 'Card link and cover' }).click();
    await dialog({ 'Link to page': { option: 'Target page' }, 'Cover picture': { option: 'diagram.png' } }, 'Apply');
    await lastParagraph();

    // A stepper, columns, an adaptive block (its condition checked as it is typed), updates.
    await slash('stepper');
    await page.keyboard.type('First step');
    await page.locator('.stepper-step-body p').nth(1).click();
    await page.keyboard.type('Second step');
    await lastParagraph();
    await slash('columns');
    await page.locator('.column-body p').first().click();
    await page.keyboard.type('Left side');
    await page.locator('.column-body p').nth(1).click();
    await page.keyboard.type('Right side');
    await page.getByLabel('Column width').first().fill('40%');
    await lastParagraph();
    await slash('adaptive');
    await page.getByLabel('Shown when').fill('visitor.claims.plan ==');
    await page.locator('.block-header-error', { hasText: 'column' }).waitFor();
    await page.getByLabel('Shown when').fill('visitor.claims.plan == "pro"');
    await page.locator('.if-block .block-header-error').filter({ hasText: /./ }).waitFor({ state: 'detached' });
    await page.locator('.if-block-body p').click();
    await page.keyboard.type('Only for Pro.');
    await lastParagraph();
    await slash('updates');
    await page.getByLabel('Title', { exact: true }).fill('Version 2');
    await page.locator('.update-body p').click();
    await page.keyboard.type('Faster saves.');
    await lastParagraph();

    // Blocks without text, through their dialogs.
    await slash('embed');
    await dialog({ 'Address to embed': 'https://www.youtube.com/watch?v=quire', Caption: 'A tour' });
    await lastParagraph();
    await slash('file');
    await dialog({ 'File of the space': { option: 'diagram.png' }, Caption: 'The diagram' });
    await lastParagraph();
    await slash('page link card');
    await dialog({ Page: { option: 'Target page' } });
    await lastParagraph();
    await slash('openapi operation');
    await dialog({ 'OpenAPI specification': { option: 'petstore' }, Operation: { option: 'GET /pets' } }, 'Insert', true);
    await lastParagraph();

    // A formula, drawn by KaTeX as it is typed.
    await slash('math');
    await page.getByLabel('TeX formula').fill('\\frac{a}{b}');
    await page.locator('.math-block .katex').waitFor();
    await lastParagraph();

    // Inlines: shortcuts, the slash menu and the link picker.
    // The emoji names load in their own chunk when the editor opens; `:name:` knows them once it is there.
    await page.waitForFunction(() => performance.getEntriesByType('resource').some((entry) => entry.name.includes('/gemoji-')));
    await page.keyboard.type('Wave :wave: and $$x^2$$ then ');
    await page.locator('.inline-emoji').waitFor();
    await page.locator('.inline-inline-math .katex').waitFor();
    await page.keyboard.type('@');
    await dialog({ Person: { option: 'Ada Admin' } });
    await page.keyboard.type(' ');
    await slash('button');
    await dialog({ 'Button text': 'Sign up', 'Or an address': 'https://example.com/join' });
    await page.keyboard.type(' ');
    await slash('annotation');
    await dialog({ 'Annotated text': 'noted', Note: 'The note.' });
    await page.keyboard.type(' ');
    await slash('icon');
    await dialog({ 'Icon name (Font Awesome, such as book)': 'book' });
    await page.keyboard.type(' ');
    await page.keyboard.press('Control+k');
    await dialog({ Text: 'setup', Page: { option: 'Target page' }, 'Anchor (a heading’s id)': 'setup' });
    await page.keyboard.type('.');
    await page.keyboard.press('Enter');

    // Paste: Markdown through the importer, HTML through the schema (nothing executable kept).
    await paste({ 'text/plain': '## Pasted\n\n* first\n* second\n\n{% hint style="success" %}\nPasted hint\n{% endhint %}\n' });
    await page.getByText('Pasted hint').waitFor();
    await lastParagraph();
    await paste({ 'text/html': '<p>From <strong>HTML</strong><script>window.pwned = 1</script><img src=x onerror="window.pwned = 1"></p><table><tr><th>H</th></tr><tr><td>cell</td></tr></table>', 'text/plain': 'From HTML' });
    await page.locator('.page-body td', { hasText: 'cell' }).waitFor();
    assert.equal(await page.evaluate(() => (window as unknown as { pwned?: number }).pwned), undefined);
    await lastParagraph();

    // The address of a picture, pasted, is an image block.
    await paste({ 'text/plain': 'https://example.com/pictures/logo.png' });
    await page.locator('.images-block img[src="https://example.com/pictures/logo.png"]').waitFor({ state: 'attached' });
    await lastParagraph();

    // The files panel puts the space's picture in the page.
    await page.getByText('Files of the space').click();
    await page.getByRole('button', { name: 'Insert diagram.png' }).click();
    // A function, not a string: Playwright polls a string predicate with eval in the page, which the
    // Content-Security-Policy refuses whenever the first look is not yet true (seen on a slow machine).
    await page.waitForFunction(() => [...window.document.querySelectorAll<HTMLImageElement>('.images-block img')].some((img) => img.complete && img.naturalWidth > 0));

    await page.getByRole('status').filter({ hasText: 'All changes saved' }).waitFor({ timeout: 30_000 });
    await assertAccessible(page, 'the editor with every block');

    const markdown = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}?format=markdown`);
    assert.equal(markdown.status, 200, JSON.stringify(markdown.body));
    const text = String(markdown.body.markdown);
    for (const expected of [
      '| Name          | Size |   | Note |',
      '| ------------- | :--: | - | ---- |',
      '| alpha **one** |   1  |   |      |',
      'data-view="cards"',
      'Quickstart',
      'data-card-target',
      '{% stepper %}',
      'Second step',
      '{% columns %}',
      '{% column width="40%" %}',
      '{% if visitor.claims.plan == "pro" %}',
      '{% updates %}',
      'title="Version 2" %}\nFaster saves.',
      '{% embed url="https://www.youtube.com/watch?v=quire" %}',
      'A tour',
      '{% file src=',
      'The diagram',
      '{% content-ref url="target-page.md" %}',
      '{% openapi-operation spec="petstore" path="/pets" method="get" %}',
      '$$\n\\frac{a}{b}\n$$',
      'data-tag="emoji" data-code="1f44b"',
      '$$x^2$$',
      '"mention")',
      'class="button primary">Sign up</a>',
      'noted[^1]',
      '[^1]: The note.',
      'fa-book',
      '[setup](target-page.md#setup)',
      'Pasted',
      '* first',
      '{% hint style="success" %}',
      'From **HTML**',
      '| H',
      '<img src="https://example.com/pictures/logo.png"',
      '<figure><img src="files/',
    ]) {
      assert.ok(text.includes(expected), `the page's Markdown has ${JSON.stringify(expected)}:\n${text}`);
    }
    assert.ok(!/<script|onerror|pwned/.test(text), text);
    // The references are the space's own: the page linked and mentioned, the picture inserted.
    const json = await world.admin.api.get(`/v1/spaces/${spaceId}/change-requests/${changeRequestId}/content/page/${pageId}`);
    const saved = JSON.stringify(json.body.document);
    assert.ok(saved.includes(`{"kind":"page","page":"${targetPageId}"}`), saved);
    assert.ok(saved.includes(`{"kind":"anchor","anchor":"setup","page":"${targetPageId}"}`), saved);
    assert.ok(saved.includes(`{"kind":"file","file":"${fileId}"}`), saved);
    assert.ok(saved.includes(`{"kind":"user","user":"${world.admin.id}"}`), saved);
    // What the editor saved is what importing the same Markdown gives.
    const { document, frontmatter } = parseMarkdown(text, {});
    assert.equal(renderMarkdown(document, { frontmatter }), text);
    assert.deepEqual(problems, []);
  });
});
